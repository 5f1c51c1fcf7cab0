//! `validate` never panics and its renderings stay well-formed, on random and generated payloads.

// Test code: a failed unwrap is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    // Test code: an out-of-range index is a failed test.
    clippy::indexing_slicing
)]

mod common;

use cloudfold::diagnostic::{HumanRenderer, JsonRenderer};
use cloudfold::userdata::{NoIncludes, UserDataOptions};
use cloudfold::validate::{Platform, SizeLimit, ValidateOptions, validate};
use common::{payload_gen, rng::Rng};
use proptest::prelude::*;

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
}

#[test]
fn generated_payloads() {
    let mut rng = Rng::new(0x7A11_DA7E);
    for _ in 0..common::diff_cases(500) {
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
