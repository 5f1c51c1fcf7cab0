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
