//! `PartKind`: a part cloud-init would ignore or cannot be checked offline, and why.

use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// One part cloud-init would not use as written (`part` is its 1-based number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// `part-yaml-invalid` (error): the YAML does not load; cloud-init drops the part.
    ///
    /// ```text
    /// #cloud-config
    /// runcmd:
    /// <TAB>- ls
    /// ```
    YamlInvalid {
        /// Part number.
        part: usize,
        /// PyYAML's problem, with its position.
        problem: String,
    },
    /// `part-empty` (warning): a cloud-config part with nothing in it (`#cloud-config`
    /// alone); cloud-init logs "empty cloud config" and skips it.
    Empty {
        /// Part number.
        part: usize,
    },
    /// `part-not-mapping` (error): the document is not a mapping.
    ///
    /// ```text
    /// #cloud-config
    /// - apt update
    /// ```
    NotMapping {
        /// Part number.
        part: usize,
        /// The Python type it is.
        found: &'static str,
    },
    /// `part-unknown-type` (error): no handler takes the part's content type, e.g. a
    /// plain-text payload `hello`, a MIME part `Content-Type: text/foo`, or a
    /// BOM before `#cloud-config`.
    UnknownType {
        /// Part number.
        part: usize,
        /// The dispatched type.
        content_type: String,
    },
    /// `part-other-agent` (note): a part another agent on the image reads, whose type
    /// cloud-init has no handler for: it ignores it, as intended — e.g. a MIME part
    /// `Content-Type: application/node.eks.aws` (EKS `nodeadm`'s `NodeConfig`).
    /// With `--strict` it is reported as cloud-init sees it, `part-unknown-type`.
    OtherAgent {
        /// Part number.
        part: usize,
        /// The dispatched type.
        content_type: String,
        /// The program that reads it (`nodeadm`).
        agent: &'static str,
    },
    /// `part-json-invalid` (error): a `#cloud-config-jsonp` part that is not JSON
    /// (`#cloud-config-jsonp\n[{"op": "add",}]`).
    JsonInvalid {
        /// Part number.
        part: usize,
        /// Python's message.
        message: String,
    },
    /// `part-json-patch-failed` (error): the JSON patch does not apply
    /// (`[{"op": "remove", "path": "/missing"}]`).
    JsonPatchFailed {
        /// Part number.
        part: usize,
        /// The jsonpatch exception and message.
        message: String,
    },
    /// `part-jinja-not-rendered` (warning): a `## template: jinja` part that reaches no
    /// handler: no `--instance-data` (cloud-init's `JinjaLoadError`), a template error,
    /// an empty render, or a rendered first line no sub-handler takes
    /// (`## template: jinja\n#cloud-config\n` without instance data).
    JinjaDropped {
        /// Part number.
        part: usize,
        /// Why (cloud-init's reason, in words).
        reason: String,
    },
    /// `part-jinja-syntax` (error): a template syntax error at its line (the header is
    /// line 1); Jinja2 raises `TemplateSyntaxError` and cloud-init drops the part
    /// (`## template: jinja\n#cloud-config\na: {{ a b }}\n`).
    JinjaSyntax {
        /// Part number.
        part: usize,
        /// Jinja2's message.
        message: String,
    },
    /// `part-jinja-unknown-filter` (error): a filter Jinja2 does not have, such as
    /// Ansible's `to_json` or `to_yaml` (`## template: jinja\n#cloud-config\na: {{ x|to_json }}\n`).
    JinjaUnknownFilter {
        /// Part number.
        part: usize,
        /// The filter.
        name: String,
    },
    /// `part-jinja-undefined` (warning): a variable the instance data lacks; cloud-init
    /// keeps `CI_MISSING_JINJA_VAR/<name>` in the text (`{{ v1.nope }}` with `--instance-data`).
    JinjaUndefined {
        /// Part number.
        part: usize,
        /// The variable's last name.
        name: String,
    },
    /// `include-not-fetched` (warning): an `#include` URL (`#include\nhttps://example.com/x`);
    /// cloudfold never fetches, so what it holds is not checked. At boot a failed fetch
    /// makes cloud-init abort all user-data processing.
    IncludeNotFetched {
        /// The URL.
        url: String,
        /// Why it was not read.
        reason: String,
    },
    /// `archive-ignored` (warning: cloud-init skips it without a word): a
    /// `#cloud-config-archive` (or one of its entries) cloud-init skips, e.g. an archive
    /// whose YAML is a mapping, not a list (`#cloud-config-archive\na: 1`).
    ArchiveIgnored {
        /// What the processor saw.
        message: String,
    },
    /// `part-handed-again` (warning: cloud-init does it without a word): a part inside
    /// message/rfc822 parts, which cloud-init's handlers get once for itself and once
    /// more per enclosing message (with appending merge rules its lists grow each time).
    HandedAgain {
        /// How often, and why.
        message: String,
    },
    /// `part-filtered-launch-index` (note): with `--launch-index N`, a part for another
    /// launch index (`Launch-Index: 1` header when N is 0).
    FilteredByLaunchIndex {
        /// Its filename.
        filename: String,
    },
}

impl fmt::Display for PartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartKind::YamlInvalid { part, problem } => {
                write!(f, "part {part} is not valid YAML: {problem}")
            }
            PartKind::Empty { part } => {
                write!(f, "part {part} is an empty cloud-config")
            }
            PartKind::NotMapping { part, found } => write!(
                f,
                "part {part} is a YAML {found}, not a mapping: cloud-init ignores it"
            ),
            PartKind::UnknownType { part, content_type } => write!(
                f,
                "part {part} has content type {content_type}, which no handler takes: cloud-init ignores it"
            ),
            PartKind::OtherAgent {
                part,
                content_type,
                agent,
            } => write!(
                f,
                "part {part} ({content_type}) is read by {agent}, not cloud-init: cloud-init ignores it"
            ),
            PartKind::JsonInvalid { part, message } => {
                write!(f, "part {part} is not valid JSON: {message}")
            }
            PartKind::JsonPatchFailed { part, message } => {
                write!(f, "the JSON patch of part {part} does not apply: {message}")
            }
            PartKind::JinjaDropped { part, reason } => {
                write!(
                    f,
                    "part {part} is a jinja template that is dropped: {reason}"
                )
            }
            PartKind::JinjaSyntax { part, message } => {
                write!(f, "template syntax error in part {part}: {message}")
            }
            PartKind::JinjaUnknownFilter { part, name } => {
                write!(
                    f,
                    "part {part} uses the filter `{name}`, which Jinja2 does not have"
                )
            }
            PartKind::JinjaUndefined { part, name } => {
                write!(
                    f,
                    "part {part} uses `{name}`, which the instance data does not define"
                )
            }
            PartKind::IncludeNotFetched { url, reason } => {
                write!(f, "#include {url} is not checked: {reason}")
            }
            PartKind::ArchiveIgnored { message } | PartKind::HandedAgain { message } => {
                f.write_str(message)
            }
            PartKind::FilteredByLaunchIndex { filename } => write!(
                f,
                "{filename} is for another launch index: this instance does not see it"
            ),
        }
    }
}

impl DiagnosticKind for PartKind {
    fn code(&self) -> &'static str {
        match self {
            PartKind::YamlInvalid { .. } => "part-yaml-invalid",
            PartKind::Empty { .. } => "part-empty",
            PartKind::NotMapping { .. } => "part-not-mapping",
            PartKind::UnknownType { .. } => "part-unknown-type",
            PartKind::OtherAgent { .. } => "part-other-agent",
            PartKind::JsonInvalid { .. } => "part-json-invalid",
            PartKind::JsonPatchFailed { .. } => "part-json-patch-failed",
            PartKind::JinjaDropped { .. } => "part-jinja-not-rendered",
            PartKind::JinjaSyntax { .. } => "part-jinja-syntax",
            PartKind::JinjaUnknownFilter { .. } => "part-jinja-unknown-filter",
            PartKind::JinjaUndefined { .. } => "part-jinja-undefined",
            PartKind::IncludeNotFetched { .. } => "include-not-fetched",
            PartKind::ArchiveIgnored { .. } => "archive-ignored",
            PartKind::HandedAgain { .. } => "part-handed-again",
            PartKind::FilteredByLaunchIndex { .. } => "part-filtered-launch-index",
        }
    }

    fn severity(&self) -> Severity {
        match self {
            PartKind::Empty { .. }
            | PartKind::ArchiveIgnored { .. }
            | PartKind::HandedAgain { .. }
            | PartKind::JinjaDropped { .. }
            | PartKind::JinjaUndefined { .. }
            | PartKind::IncludeNotFetched { .. } => Severity::Warning,
            PartKind::FilteredByLaunchIndex { .. } | PartKind::OtherAgent { .. } => Severity::Note,
            _ => Severity::Error,
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            PartKind::YamlInvalid { problem, .. } if problem.contains("'\\t'") => {
                Some("YAML indents with spaces only: replace the tab".into())
            }
            PartKind::NotMapping { .. } => Some(
                "a cloud-config is a mapping of module keys (`runcmd:`, `packages:` ...)".into(),
            ),
            PartKind::UnknownType { content_type, .. } if content_type == "text/x-not-multipart" => Some(
                "start the part with `#cloud-config`, `#!` or another header cloud-init knows (no BOM before it)".into(),
            ),
            PartKind::UnknownType { .. } => Some(
                "use a type cloud-init handles: text/cloud-config, text/x-shellscript, text/cloud-boothook, text/jinja2 ...".into(),
            ),
            PartKind::IncludeNotFetched { .. } => Some(
                "pass --include-dir DIR to check local files; make sure the URL is reachable from the instance".into(),
            ),
            _ => None,
        }
    }
}
