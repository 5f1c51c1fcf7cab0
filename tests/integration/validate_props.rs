//! `validate` never panics and its renderings stay well-formed, on random and generated payloads.

use crate::support;

use cloudfold::diagnostic::{
    FileLocator, GithubRenderer, HumanRenderer, JsonRenderer, Placement, SarifInput, SarifRenderer,
};
use cloudfold::userdata::{NoIncludes, UserDataOptions};
use cloudfold::validate::{Platform, RULES, Report, SizeLimit, ValidateOptions, validate};
use proptest::prelude::*;
use support::{payload_gen, rng::Rng};

fn check(payload: &[u8], launch_index: Option<i64>) {
    let opts = ValidateOptions {
        userdata: UserDataOptions {
            launch_index,
            ..UserDataOptions::default()
        },
        input_name: "user-data".into(),
        size_limit: Some(SizeLimit::platform(Platform::Ec2)),
        schema: None,
        cloud_init_only: false,
        image: None,
    };
    let r = validate(payload, &opts, &NoIncludes);
    let human = HumanRenderer::new().render_all(&r.diagnostics, &r.sources);
    let json = JsonRenderer::new().to_array(&r.diagnostics, &r.sources);
    assert_eq!(json.as_array().map(Vec::len), Some(r.diagnostics.len()));
    for d in &r.diagnostics {
        assert!(human.contains(d.code), "{human}");
        assert!(!d.message.is_empty());
    }
    annotations(&r);
}

/// The text of the 1-based region `(line, col)..(end_line, end_col)` of `file`
/// (lines split at `\n`, columns in characters, the end exclusive).
fn region_text(file: &str, start: (u32, u32), end: (u32, u32)) -> Option<String> {
    let offset = |(line, col): (u32, u32)| -> Option<usize> {
        let mut at = 0;
        for _ in 1..line {
            at += file.get(at..)?.find('\n')? + 1;
        }
        let rest = file.get(at..)?;
        let skip: usize = rest
            .chars()
            .take(col as usize - 1)
            .map(char::len_utf8)
            .sum();
        Some(at + skip)
    };
    file.get(offset(start)?..offset(end)?).map(str::to_owned)
}

/// GitHub annotations: one line per diagnostic; SARIF: one result each. Every label
/// placed as a slice of the file points, in file lines and columns, at the very text
/// its span covers in its own source.
fn annotations(r: &Report) {
    let gh = GithubRenderer::new(Some("user-data".into())).render_all(&r.diagnostics, &r.sources);
    assert_eq!(gh.lines().count(), r.diagnostics.len(), "{gh}");
    assert!(gh.lines().all(|l| l.starts_with("::")), "{gh}");
    let sarif = SarifRenderer::new("cloudfold", "0", RULES).to_value(&[SarifInput {
        path: Some("user-data"),
        diagnostics: &r.diagnostics,
        sources: &r.sources,
    }]);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), r.diagnostics.len());
    for res in results {
        let rule = &sarif["runs"][0]["tool"]["driver"]["rules"]
            [res["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], res["ruleId"]);
    }
    let locator = FileLocator::new(&r.sources);
    let file = r
        .sources
        .iter()
        .find(|(_, f)| f.placement == Placement::File)
        .map(|(_, f)| f.text.as_str());
    for d in &r.diagnostics {
        for label in d.labels() {
            let Some(src) = locator.source(label.span.source) else {
                continue;
            };
            if !matches!(src.placement, Placement::File | Placement::Slice { .. }) {
                continue;
            }
            let (Some(file), Ok(reg)) = (file, locator.region(&label.span)) else {
                panic!("{}: a label in a placed source has no region", d.code);
            };
            let (mut a, mut b) = (
                label.span.start.index,
                label.span.end.index.max(label.span.start.index),
            );
            a = a.min(src.text.len());
            b = b.min(src.text.len());
            let Some(want) = src.text.get(a..b) else {
                continue;
            };
            let got = region_text(
                file,
                (reg.start_line, reg.start_column),
                (reg.end_line, reg.end_column),
            );
            assert_eq!(
                got.as_deref(),
                Some(want),
                "{}: {:?} -> {reg:?}",
                d.code,
                label.span
            );
        }
    }
}

#[test]
fn generated_payloads() {
    let mut rng = Rng::new(0x7A11_DA7E);
    for _ in 0..support::diff_cases(500) {
        let (payload, li) = payload_gen::payload(&mut rng);
        check(&payload, li);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..400)) {
        check(&data, None);
    }

    #[test]
    fn cloud_config_fragments(
        lines in proptest::collection::vec(
            prop::sample::select(vec![
                "runcmd: [a]", "runcmd:", "  - b", "\t- c", "merge_how: list(apend)",
                "merge_how: dict(replace,recurse_list)+list(append)", "merge_type: x(", "- x",
                "a: {b: [1, 2]}", "'", "packages: [git, git]", "--- ", "key: &a [1]", "k2: *a",
            ]),
            0..8,
        ),
        mime in any::<bool>(),
    ) {
        let body = format!("#cloud-config\n{}\n", lines.join("\n"));
        let payload = if mime {
            format!(
                "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\n\
                 Content-Type: text/cloud-config\n\n{body}--B\nContent-Type: text/cloud-config\n\
                 Merge-Type: dict(no_replace)+list(prepend)\n\n{body}--B--\n"
            )
        } else {
            body
        };
        check(payload.as_bytes(), None);
    }
}

/// What a diagnostic is about, by its code, from the kind enums' docs (never
/// from the diagnostic): the assertion below must not follow from how
/// `validate` fills the field it checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Subject {
    /// A part cloud-init numbers (`part-NNN`), or would have numbered had
    /// processing not stopped on it.
    Part,
    /// Found in one node of the MIME structure (its headers or its body): a
    /// part when that node is a leaf cloud-init numbers.
    Entity,
    /// A multipart container; or an `#include` / `#cloud-config-archive`
    /// document, which cloud-init expands in place and never numbers.
    Container,
    /// The payload as a whole (its encoding, size, a limit).
    Payload,
    /// A value of the merged config (its label is in the part that set it).
    Value,
}

fn subject(code: &str) -> Subject {
    match code {
        c if c.starts_with("merge-") => Subject::Part,
        "part-yaml-invalid"
        | "part-empty"
        | "part-not-mapping"
        | "part-unknown-type"
        | "part-json-invalid"
        | "part-json-patch-failed"
        | "part-jinja-not-rendered"
        | "part-other-agent"
        | "part-handed-again"
        | "part-filtered-launch-index"
        | "part-jinja-syntax"
        | "part-jinja-unknown-filter"
        | "part-jinja-undefined"
        | "encoding-undeclared-base64"
        | "userdata-gzip-invalid"
        | "userdata-launch-index-overflow" => Subject::Part,
        "mime-header-defect" | "mime-bad-base64" | "mime-undecodable-base64" => Subject::Entity,
        "mime-not-split"
        | "mime-missing-close-boundary"
        | "mime-multipart-encoding"
        | "mime-empty-multipart"
        | "include-not-fetched"
        | "archive-ignored"
        | "userdata-archive-crash" => Subject::Container,
        "encoding-base64-payload"
        | "encoding-double-base64"
        | "encoding-double-gzip"
        | "userdata-not-utf8"
        | "userdata-mime-raises"
        | "userdata-limit"
        | "size-over-limit"
        | "size-near-limit"
        | "size-budget" => Subject::Payload,
        c if c.starts_with("schema-") => Subject::Value,
        "plan-boothook-every-boot" => Subject::Part,
        "plan-bootcmd-before-packages"
        | "plan-module-list-replaced"
        | "plan-users-without-default"
        | "plan-runcmd-among-part-scripts" => Subject::Value,
        other => panic!("code {other} is not classified: say what it is about"),
    }
}

/// Tallies of [`part_named`].
#[derive(Default)]
struct Named {
    payloads: usize,
    about_a_part: usize,
    null: Vec<String>,
    located_in_document: usize,
}

/// For `doc` (the document, when MIME): the 0-based walk index of the MIME
/// node holding byte `at` (the last one starting at or before it).
fn entity_at(doc: &str, at: usize) -> Option<usize> {
    let msg = cloudfold::mime::parse(doc).ok()?;
    let mut found = None;
    for (i, m) in msg.walk().enumerate() {
        let start = m
            .headers()
            .first()
            .map_or(m.body_start().index, |h| h.at.index);
        if start <= at {
            found = Some(i);
        }
    }
    found
}

/// Every diagnostic about a part (by [`Subject`]) carries that part's number
/// and name in the JSON, and one located on a MIME header line of the document
/// carries the number of the part whose headers those are.
fn part_named(payload: &[u8], launch_index: Option<i64>, tally: &mut Named) {
    for release in [
        cloudfold::userdata::Release::V22_4,
        cloudfold::userdata::Release::V25_1,
    ] {
        let opts = ValidateOptions {
            userdata: UserDataOptions {
                launch_index,
                release,
                ..UserDataOptions::default()
            },
            input_name: "user-data".into(),
            size_limit: None,
            schema: None,
            cloud_init_only: false,
            image: None,
        };
        let r = validate(payload, &opts, &NoIncludes);
        tally.payloads += 1;
        let json = JsonRenderer::new().to_array(&r.diagnostics, &r.sources);
        // The numbers of the part each MIME node became, if numbered (a
        // part inside a message/rfc822 part is handed over, and numbered, twice).
        let mut numbered: std::collections::HashMap<usize, Vec<usize>> = Default::default();
        if let Some(f) = &r.folded {
            let handed = f.parts.iter().map(|p| (p.number, &p.leaf.origin));
            let filtered = f.filtered_out.iter().map(|(n, l)| (*n, &l.origin));
            for (n, origin) in handed.chain(filtered) {
                if let Some(m) = origin.mime_position() {
                    numbered.entry(m - 1).or_default().push(n);
                }
            }
        }
        let doc = r
            .sources
            .get(cloudfold::validate::DOCUMENT)
            .map(|f| f.text.as_str());
        for (d, j) in r.diagnostics.iter().zip(json.as_array().unwrap()) {
            let s = subject(d.code);
            let in_document = d
                .primary
                .as_ref()
                .is_some_and(|l| l.span.source == cloudfold::validate::DOCUMENT);
            // The part whose MIME node the label is in, when numbered.
            let expected = match (in_document, doc, &d.primary) {
                (true, Some(doc), Some(l)) => {
                    entity_at(doc, l.span.start.index).and_then(|e| numbered.get(&e))
                }
                _ => None,
            };
            let must = match s {
                Subject::Part => true,
                Subject::Entity => expected.is_some(),
                _ => false,
            };
            if !must {
                continue;
            }
            tally.about_a_part += 1;
            tally.located_in_document += usize::from(in_document);
            let part = j["part"].as_u64();
            let name = j["part_name"].as_str();
            let human = HumanRenderer::new().render(d, &r.sources);
            // Wrapped lines (a folded filename) read as one.
            let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let text = flat(&human);
            let wrong = match (part, name) {
                (None, _) | (_, None) => Some("no part".to_owned()),
                (Some(n), _) if expected.is_some_and(|e| !e.contains(&(n as usize))) => {
                    Some(format!("part {n}, expected one of {expected:?}"))
                }
                // People read the number and the name too: in the location
                // line, the message or a note.
                (Some(n), Some(name))
                    if !text.contains(&format!("part {n} ")) || !text.contains(&flat(name)) =>
                {
                    Some(format!("part {n} ({name}) not in the text"))
                }
                _ => None,
            };
            if let Some(w) = wrong {
                tally.null.push(format!(
                    "{} ({release:?}): {w}\n{human}\npayload: {:?}",
                    d.code,
                    String::from_utf8_lossy(payload)
                        .chars()
                        .take(400)
                        .collect::<String>()
                ));
            }
        }
    }
}

/// Issue 28: 0 diagnostics about a part without its number and name, over
/// every validate fixture and 1,000 generated payloads, both releases.
#[test]
fn every_diagnostic_about_a_part_names_it() {
    for r in RULES {
        subject(r.code);
    }
    let mut tally = Named::default();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|x| x.to_str()), Some("txt" | "gz")))
        .collect();
    files.sort();
    let fixtures = files.len();
    for f in &files {
        let li = f
            .to_str()
            .is_some_and(|s| s.contains("launch-index"))
            .then_some(0);
        part_named(&std::fs::read(f).unwrap(), li, &mut tally);
    }
    // The issue's own cases: header lines of parts 2 and 3, a gzip part that
    // fails as the second part, a part handed over twice.
    let cases: [&[u8]; 3] = [
        b"Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n--B\nContent-Type: text/cloud-config\nMerge-Type: list(apend)+dict()\n\n#cloud-config\nb: 1\n--B\nContent-Type: text/cloud-config\nX-Merge-Type: lists()\n\n#cloud-config\nc: 1\n--B--\n",
        b"Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n--B\nContent-Type: application/x-gzip\n\nnot gzip\n--B--\n",
        b"Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\nContent-Type: message/rfc822\n\nContent-Type: text/cloud-config\nMerge-Type: list(apend)\n\n#cloud-config\nr: [1]\n--B--\n",
    ];
    for c in cases {
        part_named(c, None, &mut tally);
    }
    let mut rng = Rng::new(0x9A27_0028);
    let generated = 1000;
    for i in 0..generated {
        let (payload, li) = if i % 2 == 0 {
            payload_gen::payload(&mut rng)
        } else {
            payload_gen::merge_payload(&mut rng)
        };
        part_named(&payload, li, &mut tally);
    }
    eprintln!(
        "{fixtures} fixtures + {} cases + {generated} generated payloads, both releases ({} runs): \
         {} diagnostics about a part ({} located in the document's headers), {} without it",
        cases.len(),
        tally.payloads,
        tally.about_a_part,
        tally.located_in_document,
        tally.null.len()
    );
    assert!(
        tally.null.is_empty(),
        "{}",
        tally
            .null
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    assert!(tally.located_in_document > 0);
}

/// Issue 28 item 1: a merge spec's lint does not grow with its repeats. Every
/// warning shows the spec's line, so one per repeated merger or per unknown
/// option made validate's output grow with the square of the spec.
#[test]
fn merge_lint_is_one_warning_per_problem_not_per_repeat() {
    let codes = |payload: String| -> Vec<(&'static str, String)> {
        validate(
            payload.into_bytes(),
            &ValidateOptions::default(),
            &NoIncludes,
        )
        .diagnostics
        .into_iter()
        .map(|d| (d.code, d.message))
        .collect()
    };
    let unit = "list(append,recurse_dict)+dict(no_replace,recurse_list)+str(append)+";
    let spec = unit.repeat(1000);
    let spec = spec.trim_end_matches('+');
    let got = codes(format!("#cloud-config\nmerge_how: {spec}\nruncmd: [ls]\n"));
    let shadowed: Vec<&String> = got
        .iter()
        .filter(|(c, _)| *c == "merge-merger-shadowed")
        .map(|(_, m)| m)
        .collect();
    assert_eq!(shadowed.len(), 3, "{got:?}");
    assert!(
        shadowed[0].starts_with("`list(append,recurse_dict)` and 998 later `list` mergers are"),
        "{}",
        shadowed[0]
    );
    let options: Vec<String> = (0..2000).map(|i| format!("opt{}", i % 1000)).collect();
    let got = codes(format!(
        "#cloud-config\nmerge_how: dict(recurse_dict,recurse_dict)+list({})\nruncmd: [ls]\n",
        options.join(",")
    ));
    let count = |code: &str| got.iter().filter(|(c, _)| *c == code).count();
    assert_eq!(count("merge-unknown-option"), 1, "{got:?}");
    assert_eq!(count("merge-option-no-effect"), 1, "{got:?}");
    assert!(
        got.iter()
            .any(|(_, m)| m.contains("no option `opt0`, nor 999 others given"))
    );
}
