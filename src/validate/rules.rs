//! `RULES`: every code `validate` reports, with its severity, meaning and fix (the kind enums' docs as data, for SARIF).

use crate::diagnostic::{Rule, Severity};

const fn rule(
    code: &'static str,
    severity: Severity,
    summary: &'static str,
    help: &'static str,
) -> Rule {
    Rule {
        code,
        severity,
        summary,
        help,
    }
}

use Severity::{Error as E, Note as N, Warning as W};

/// Every code [`validate`](super::validate) reports, in the order of the kind
/// enums' docs (`MimeKind`, `AbortKind`, `PartKind`, `MergeKind`, `EncodingKind`,
/// `SizeKind`, `SchemaKind`, `PlanKind`). A unit test holds this list equal to those docs
/// (codes and severities), and each code has its triggering input in
/// `fixtures/validate/<code>.txt`.
pub const RULES: &[Rule] = &[
    // MimeKind
    rule(
        "mime-not-split",
        E,
        "The multipart is never split, so every part in it is lost.",
        "Give the multipart a `boundary=` parameter and start each part with a `--BOUNDARY` line. Triggered by `Content-Type: multipart/mixed` without `boundary=`, or by a boundary no `--B` line uses.",
    ),
    rule(
        "mime-missing-close-boundary",
        W,
        "No closing `--BOUNDARY--` line: the last part runs to the end of its container (trailing text becomes part of it).",
        "End the last part with a `--BOUNDARY--` line.",
    ),
    rule(
        "mime-header-defect",
        W,
        "A malformed header line is ignored or ends the headers early.",
        "Put a blank line between a part's headers and its body, and write each header as `Name: value`. Triggered by `Content-Type text/x` (no colon) as a part's first line.",
    ),
    rule(
        "mime-multipart-encoding",
        W,
        "A multipart with `Content-Transfer-Encoding: base64`: Python ignores the encoding of a container.",
        "Remove `Content-Transfer-Encoding` from the multipart's headers; encode the parts instead.",
    ),
    rule(
        "mime-empty-multipart",
        W,
        "A multipart with a boundary but no part.",
        "Add the parts, or remove the empty multipart.",
    ),
    rule(
        "mime-bad-base64",
        W,
        "A base64 body with bad padding or characters (Python decodes it leniently).",
        "Re-encode the body (e.g. `base64 -w76 FILE`), or drop `Content-Transfer-Encoding: base64`.",
    ),
    rule(
        "mime-undecodable-base64",
        E,
        "A base64 body of impossible length (e.g. `abcde`): Python hands the raw text to the handler.",
        "Re-encode the body (e.g. `base64 -w76 FILE`), or drop `Content-Transfer-Encoding: base64`.",
    ),
    // AbortKind
    rule(
        "userdata-gzip-invalid",
        E,
        "A part declared gzip that is not gzip, or does not decompress to UTF-8: cloud-init aborts all user-data processing.",
        "gzip the part's content (and base64 it in MIME), or declare its real type. Triggered by a MIME part `Content-Type: application/x-gzip` with body `hello`.",
    ),
    rule(
        "userdata-not-utf8",
        E,
        "The payload mentions `MIME-Version:` but is not UTF-8: cloud-init aborts all user-data processing.",
        "A MIME payload must be UTF-8: base64-encode binary or Latin-1 parts.",
    ),
    rule(
        "userdata-archive-crash",
        E,
        "A `#cloud-config-archive` entry makes cloud-init crash: it aborts all user-data processing.",
        "Give every archive entry a full media type (`text/cloud-config`, not `cloud-config`). Triggered by `- {type: cloud-config, content: \"a: 1\"}`.",
    ),
    rule(
        "userdata-launch-index-overflow",
        E,
        "A launch index cloud-init cannot convert to an integer (`launch-index: .inf`): it aborts all user-data processing.",
        "Write the launch index as an integer.",
    ),
    rule(
        "userdata-mime-raises",
        E,
        "Python's `email` package raises on the document (malformed RFC 2231 parameters): cloud-init aborts all user-data processing.",
        "Fix the malformed header parameters (e.g. `filename*=`).",
    ),
    rule(
        "userdata-limit",
        E,
        "A cloudfold safety limit was reached (decompression bomb, include depth): the payload is not checked further.",
        "Raise the limit with the flag the message names, if the payload is legitimate.",
    ),
    // PartKind
    rule(
        "part-yaml-invalid",
        E,
        "The part's YAML does not load: cloud-init drops the part.",
        "Fix the YAML at the position given (YAML indents with spaces only). Triggered by `#cloud-config`, `runcmd:`, then a tab before `- ls`.",
    ),
    rule(
        "part-empty",
        W,
        "A cloud-config part with nothing in it (`#cloud-config` alone): cloud-init skips it.",
        "Add the configuration, or remove the part.",
    ),
    rule(
        "part-not-mapping",
        E,
        "The cloud-config document is not a mapping: cloud-init ignores it.",
        "A cloud-config is a mapping of module keys (`runcmd:`, `packages:` ...). Triggered by `#cloud-config` then `- apt update`.",
    ),
    rule(
        "part-unknown-type",
        E,
        "No cloud-init handler takes the part's content type: cloud-init ignores it.",
        "Use a type cloud-init handles (text/cloud-config, text/x-shellscript, text/cloud-boothook, text/jinja2 ...), or start the part with `#cloud-config`, `#!` or another header cloud-init knows (no BOM before it). Triggered by a plain-text payload `hello` or a MIME part `Content-Type: text/foo`.",
    ),
    rule(
        "part-other-agent",
        N,
        "A part another agent on the image reads (EKS nodeadm's `application/node.eks.aws`): cloud-init ignores it, as intended.",
        "Nothing to fix. cloud-init still logs that it does not handle the part; `--strict` reports it as cloud-init sees it (`part-unknown-type`).",
    ),
    rule(
        "part-json-invalid",
        E,
        "A `#cloud-config-jsonp` part that is not JSON: cloud-init drops it.",
        "Fix the JSON at the position given. Triggered by `#cloud-config-jsonp` then `[{\"op\": \"add\",}]`.",
    ),
    rule(
        "part-json-patch-failed",
        E,
        "The JSON patch of a `#cloud-config-jsonp` part does not apply: cloud-init drops it.",
        "Make each operation's path exist in the config merged so far. Triggered by `[{\"op\": \"remove\", \"path\": \"/missing\"}]`.",
    ),
    rule(
        "part-jinja-not-rendered",
        W,
        "A `## template: jinja` part that reaches no handler: no `--instance-data` (cloud-init's `JinjaLoadError`), a template error, an empty render, or a rendered first line no sub-handler takes.",
        "Pass --instance-data FILE (`sudo cloud-init query --all` on the instance writes it) and fix the template error named. Triggered by `## template: jinja\\n#cloud-config\\n` without instance data.",
    ),
    rule(
        "part-jinja-syntax",
        E,
        "A template syntax error, at its line (the header is line 1): Jinja2 raises TemplateSyntaxError and cloud-init drops the part.",
        "Fix the template at the line named. Triggered by `## template: jinja\\n#cloud-config\\na: {{ a b }}`.",
    ),
    rule(
        "part-jinja-unknown-filter",
        E,
        "A filter Jinja2 does not have (Ansible's `to_json`, `to_yaml`, `b64encode` ...): Jinja2 refuses the template and cloud-init drops the part.",
        "Use Jinja2's filters (`tojson`), or compute the value into the instance data. Triggered by `{{ x|to_json }}`.",
    ),
    rule(
        "part-jinja-undefined",
        W,
        "A variable the instance data lacks: cloud-init keeps `CI_MISSING_JINJA_VAR/<name>` in the text and logs a warning.",
        "Use a key the instance data has (`cloud-init query --list-keys` on the instance), or `|default('...')`. Triggered by `{{ v1.nope }}` with --instance-data.",
    ),
    rule(
        "include-not-fetched",
        W,
        "An `#include` URL: cloudfold never fetches, so what it holds is not checked; at boot a failed fetch makes cloud-init abort all user-data processing.",
        "Pass --include-dir DIR to check local files; make sure the URL is reachable from the instance.",
    ),
    rule(
        "archive-ignored",
        W,
        "A `#cloud-config-archive` (or one of its entries) cloud-init skips without a word.",
        "Write the archive as a YAML list of entries, each with `content` (and `type`). Triggered by `#cloud-config-archive` then `a: 1`.",
    ),
    rule(
        "part-handed-again",
        W,
        "A part inside message/rfc822 parts, which cloud-init's handlers get once for itself and once more per enclosing message.",
        "Put the part in a multipart instead of a message/rfc822 part (with appending merge rules its lists grow each time).",
    ),
    rule(
        "part-filtered-launch-index",
        N,
        "With `--launch-index N`, a part for another launch index: this instance does not see it.",
        "Nothing to fix if intended. Triggered by a `Launch-Index: 1` header when N is 0.",
    ),
    // MergeKind
    rule(
        "merge-spec-syntax",
        E,
        "The merge spec does not parse: cloud-init drops the part.",
        "Write mergers as `name(option,...)` joined by `+`, e.g. `dict(no_replace,recurse_list)+list(append)`. Triggered by `merge_how: dict(replace`.",
    ),
    rule(
        "merge-unknown-merger",
        E,
        "No such merger (only `dict`, `list` and `str` exist): cloud-init drops the part.",
        "Use the mergers dict, list and str. Triggered by `merge_how: lists(append)`.",
    ),
    rule(
        "merge-spec-invalid",
        E,
        "A list-form merge spec cloud-init cannot use: the part is dropped.",
        "Give each list entry a `name` and `settings`. Triggered by `merge_how: [{name: dict}]`.",
    ),
    rule(
        "merge-failed",
        E,
        "The merge itself raises: cloud-init drops the part.",
        "Use mergers that fit the values' types. Triggered by `str(append)` meeting a mapping, or `list(append)` with a number.",
    ),
    rule(
        "merge-unknown-option",
        W,
        "An option the merger never tests: cloud-init ignores it silently.",
        "Use the option's real name (see the message's suggestion). Triggered by `merge_how: list(apend)+dict(recurse_lists)`.",
    ),
    rule(
        "merge-option-no-effect",
        W,
        "A real merge option that changes nothing here.",
        "Remove the option, or use one that does what you mean. Triggered by `dict(replace,recurse_list)` (replace never recurses).",
    ),
    rule(
        "merge-settings-substring",
        W,
        "List-form `settings` given as one string, so options are tested as substrings.",
        "Give `settings` as a list. Triggered by `{name: dict, settings: no_replace}`, which contains `replace`.",
    ),
    rule(
        "merge-merger-shadowed",
        W,
        "A second merger for the same type: only the first is used.",
        "Keep one merger per type. Triggered by `dict(replace)+dict(no_replace)`.",
    ),
    rule(
        "merge-merger-unreachable",
        W,
        "`dict(replace)` never recurses, so a `list` or `str` merger after it is never used.",
        "Use `dict(no_replace,recurse_list)+list(append)` to append lists.",
    ),
    rule(
        "merge-no-dict-merger",
        W,
        "The merge spec has no dict merger, so the part's mapping changes nothing.",
        "Add a dict merger, e.g. `dict(no_replace,recurse_list)+list(append)`. Triggered by `merge_how: list(append)`.",
    ),
    rule(
        "merge-list-replaced",
        W,
        "A part without a merge directive replaces a list an earlier part set (the \"my runcmd vanished\" trap).",
        "To keep the earlier items, give the part `merge_how: dict(no_replace,recurse_list)+list(append)` (or a Merge-Type header).",
    ),
    rule(
        "merge-list-truncated",
        W,
        "`list()`/`list(replace)` overlays index by index and drops the new items beyond the old list's length.",
        "Use `list(append)` to add items, or `dict(replace)` to replace the list.",
    ),
    rule(
        "merge-value-ignored",
        W,
        "`dict(no_replace)` without `recurse_list` keeps the old list and silently ignores the part's list.",
        "Add `recurse_list` to the dict merger: `dict(no_replace,recurse_list)`.",
    ),
    // EncodingKind
    rule(
        "encoding-base64-payload",
        W,
        "The whole payload is base64 text: cloud-init's user-data code never decodes it (a cloud API that takes base64 encodes it again).",
        "Pass the decoded payload; let the cloud's API or tool do the base64 encoding.",
    ),
    rule(
        "encoding-double-base64",
        E,
        "The payload is base64 of base64.",
        "Decode it (at least) once.",
    ),
    rule(
        "encoding-double-gzip",
        E,
        "The payload is gzip inside gzip: cloud-init decompresses one layer and then sees binary data.",
        "Compress once.",
    ),
    rule(
        "encoding-undeclared-base64",
        E,
        "A text part holding base64 without `Content-Transfer-Encoding: base64`: cloud-init reads the base64 text as it is.",
        "Add `Content-Transfer-Encoding: base64` to the part's headers, or decode the body.",
    ),
    // SizeKind
    rule(
        "size-over-limit",
        E,
        "The payload, measured as the platform measures it, is over the cloud's user-data limit: the launch fails.",
        "gzip the payload, or move large content to files fetched at boot.",
    ),
    rule(
        "size-near-limit",
        W,
        "The payload is over 90 % of the cloud's user-data limit.",
        "Leave room: gzip the payload, or move large content out of it.",
    ),
    rule(
        "size-budget",
        N,
        "The payload's sizes (raw, gzip, base64), when within the limit.",
        "Nothing to fix.",
    ),
    // SchemaKind
    rule(
        "schema-invalid",
        E,
        "A value cloud-init's JSON schema does not allow.",
        "Fix the value at the path given. Triggered by `runcmd: ls` (a string where a list is expected).",
    ),
    rule(
        "schema-deprecated",
        W,
        "A key or value cloud-init deprecated.",
        "Use the replacement the message names. Triggered by `apt_update: true` (use `package_update`).",
    ),
    // PlanKind
    rule(
        "plan-bootcmd-before-packages",
        W,
        "A bootcmd command is a package the `packages` key installs: bootcmd runs in the init stage, the packages module in the final stage, so on the first boot the command is missing.",
        "Move the command to runcmd, or install the package from bootcmd first. Triggered by `packages: [jq]` with `bootcmd: [jq --version]`.",
    ),
    rule(
        "plan-module-list-replaced",
        W,
        "User-data sets a module list (`cloud_final_modules`, ...), which replaces the image's list: the image's modules missing from it never run.",
        "List every image module still needed (`cloudfold plan` shows the effective lists), or drop the key. Triggered by `cloud_final_modules: [scripts-user]`.",
    ),
    rule(
        "plan-users-without-default",
        W,
        "A `users` list without `default`: the image's default user is not created (cloud-init #6702).",
        "Add `default` as the list's first item. Triggered by `users: [{name: alice}]`.",
    ),
    rule(
        "plan-runcmd-among-part-scripts",
        W,
        "A shell-script part runs on the other side of `runcmd` than it is written: scripts_user runs both in file-name order (code points: `part-001` before `runcmd`, `setup.sh` after; cloud-init #3323).",
        "Name the parts so the order is the one you need. Triggered by a `text/x-shellscript` part after the cloud-config part with `runcmd`.",
    ),
    rule(
        "plan-boothook-every-boot",
        W,
        "A `#cloud-boothook` part runs early in the init stage on every boot, not once.",
        "Make it idempotent, or guard it with `cloud-init-per once NAME CMD`. Triggered by a part starting `#cloud-boothook`.",
    ),
];

#[cfg(test)]
mod tests {
    // Test code: a failed unwrap is a failed test.
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::RULES;
    use crate::diagnostic::Severity;
    use std::collections::BTreeMap;

    /// The kinds' docs, where each code is documented with its severity.
    const DOCS: &[&str] = &[
        include_str!("mime_kind.rs"),
        include_str!("abort_kind.rs"),
        include_str!("part_kind.rs"),
        include_str!("merge_kind.rs"),
        include_str!("encoding_kind.rs"),
        include_str!("size_kind.rs"),
        include_str!("schema/schema_kind.rs"),
        include_str!("plan_kind.rs"),
    ];

    /// `code -> severity` as the docs state them: "`code` (severity" on a doc line, or
    /// "* `code`:" in `AbortKind`'s list (whose codes are all errors).
    fn documented() -> BTreeMap<String, Severity> {
        let with =
            regex::Regex::new(r"`([a-z0-9]+(?:-[a-z0-9]+)+)` \((error|warning|note)").unwrap();
        let bare = regex::Regex::new(r"^\s*///\s*\* `([a-z0-9]+(?:-[a-z0-9]+)+)`:").unwrap();
        let mut out = BTreeMap::new();
        for doc in DOCS {
            for line in doc.lines().filter(|l| l.trim_start().starts_with("///")) {
                if let Some(c) = with.captures(line) {
                    let sev = match &c[2] {
                        "error" => Severity::Error,
                        "warning" => Severity::Warning,
                        _ => Severity::Note,
                    };
                    out.insert(c[1].to_owned(), sev);
                } else if let Some(c) = bare.captures(line) {
                    out.insert(c[1].to_owned(), Severity::Error);
                }
            }
        }
        out
    }

    #[test]
    fn rules_are_the_documented_codes() {
        let rules: BTreeMap<String, Severity> = RULES
            .iter()
            .map(|r| (r.code.to_owned(), r.severity))
            .collect();
        assert_eq!(rules.len(), RULES.len(), "a code is listed twice");
        assert_eq!(rules, documented());
    }

    #[test]
    fn every_rule_has_its_fixture() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/validate");
        for r in RULES {
            let found = ["txt", "gz"]
                .iter()
                .any(|ext| std::path::Path::new(&format!("{dir}/{}.{ext}", r.code)).is_file());
            assert!(found, "no fixtures/validate/{}.txt", r.code);
        }
    }
}
