//! Regressions found by the oracle differential (tests/oracle/differential_oracle.rs), one focused case each;
//! the expected outcomes were recorded with the real cloud-init 22.4 and 25.1 (../shared/oracle).

use cloudfold::userdata::{NoIncludes, Release, UserDataOptions, render};

fn opts(release: Release) -> UserDataOptions {
    UserDataOptions {
        release,
        ..UserDataOptions::default()
    }
}

/// An archive entry's extra header must be a string: `Message.add_header`
/// joins it as text, so a bool/int/list value raises TypeError and the whole
/// user-data processing fails (both releases).
#[test]
fn archive_extra_header_non_string_value_aborts() {
    for v in ["true", "42", "[list]", "1.5"] {
        let payload = format!(
            "#cloud-config-archive\n- content: \"#!/bin/sh\\necho x\\n\"\n  X-Merge-Type: {v}\n"
        );
        for r in [Release::V22_4, Release::V25_1] {
            assert!(
                render(payload.as_bytes(), &opts(r), &NoIncludes).is_err(),
                "{v} should abort"
            );
        }
    }
}

/// A null header value becomes an empty header (no error); a string is kept.
#[test]
fn archive_extra_header_null_is_empty_text() {
    let payload = b"#cloud-config-archive\n- content: \"#cloud-config\\na: [1]\\n\"\n  Merge-Type: ~\n- content: \"#cloud-config\\na: [2]\\n\"\n  Merge-Type: 'list(append)'\n";
    let f = render(payload, &opts(Release::V22_4), &NoIncludes).unwrap();
    // An empty merge header counts as absent.
    assert_eq!(f.parts[0].merge_type_header(), None);
    assert_eq!(
        f.parts[1].merge_type_header().as_deref(),
        Some("list(append)")
    );
    // `list(append)` alone has no dict merger: the root dict is kept as it is.
    assert_eq!(
        f.cloud_config_txt,
        "#cloud-config\n\n# from 2 files\n# part-001\n# part-002\n\n---\na:\n- 1\n...\n"
    );
}

/// A non-text archive entry with an empty list/dict content is an empty part;
/// a non-empty one crashes cloud-init's handler walk (consume fails: no config).
#[test]
fn archive_container_content() {
    for (c, ok) in [
        ("[]", true),
        ("{}", true),
        ("[1]", false),
        ("{a: 1}", false),
        ("42", false),
    ] {
        let payload = format!(
            "#cloud-config-archive\n- content: {c}\n  type: application/json\n- \"#cloud-config\\na: 1\\n\"\n"
        );
        let got = render(payload.as_bytes(), &opts(Release::V22_4), &NoIncludes);
        assert_eq!(got.is_ok(), ok, "{c}");
        if let Ok(f) = got {
            assert_eq!(f.parts.len(), 2);
            assert_eq!(f.parts[0].content_type(), "application/json");
            assert_eq!(f.parts[0].part_type.handler_name(), None);
        }
    }
}

/// `util.load_yaml` catches only `YAMLError`, `ValueError` and `TypeError`: an
/// archive whose YAML raises anything else (`!!bool maybe` → KeyError,
/// `!!timestamp junk` → AttributeError) aborts the whole processing, where a
/// syntax error only makes cloud-init ignore the archive (both releases, oracle).
#[test]
fn archive_yaml_errors_that_escape_load_yaml_abort() {
    for (doc, aborts) in [
        ("#cloud-config-archive\n- !!bool maybe\n", true),
        ("#cloud-config-archive\n- !!timestamp junk\n", true),
        ("#cloud-config-archive\n- [unclosed\n", false),
        ("#cloud-config-archive\n- !!int junk\n", false),
    ] {
        for r in [Release::V22_4, Release::V25_1] {
            let out = render(doc.as_bytes(), &opts(r), &NoIncludes);
            assert_eq!(out.is_err(), aborts, "{doc:?} under {r:?}: {:?}", out.err());
        }
    }
}

/// A stray non-UTF-8 byte in a JSON-patch part becomes a lone surrogate
/// (`surrogateescape`), which Python's `json` keeps inside strings — in keys,
/// values and pointers alike — and the dump writes as `\uDCxx`; outside a
/// string it is a JSON error (the part is skipped). Found by the differential
/// (seed 7, 25.1); recorded from both releases' oracle.
#[test]
fn jsonp_stray_byte_becomes_a_surrogate() {
    let doc =
        |body: &str| format!("#cloud-config\n\n# from 1 files\n# part-001\n\n---\n{body}...\n");
    let cases: [(&[u8], String); 3] = [
        (
            b"#cloud-config-jsonp\n[{\"op\": \"add\", \"path\": \"/e\xe9~1s~0\", \"value\": 3}]",
            doc("\"e\\uDCE9/s~\": 3\n"),
        ),
        (
            b"#cloud-config-jsonp\n[{\"op\": \"add\", \"path\": \"/a\", \"value\": \"x\xe9y\"}, {\"op\": \"add\", \"path\": \"/b\xff\", \"value\": [1]}]",
            doc("a: \"x\\uDCE9y\"\n\"b\\uDCFF\":\n- 1\n"),
        ),
        (
            b"#cloud-config-jsonp\n[{\"op\": \"add\", \"path\": \"/~0\xe9~1\", \"value\": 1}, {\"op\": \"move\", \"from\": \"/~0\xe9~1\", \"path\": \"/z\xe9\"}]",
            doc("\"z\\uDCE9\": 1\n"),
        ),
    ];
    for r in [Release::V22_4, Release::V25_1] {
        for (payload, want) in &cases {
            let f = render(payload, &opts(r), &NoIncludes).unwrap();
            assert_eq!(&f.cloud_config_txt, want, "{r:?}");
        }
        // Outside a string the byte is a syntax error: the part is skipped.
        let f = render(
            b"#cloud-config-jsonp\n[{\"op\": \"add\", \"path\": \"/a\", \"value\": 1}]\xe9",
            &opts(r),
            &NoIncludes,
        )
        .unwrap();
        let skipped = match r {
            Release::V22_4 => "#cloud-config\n\n--- {}\n...\n",
            Release::V25_1 => {
                "#cloud-config\n\n# Cloud-config part ignored SCHEMA_ERROR: part-001\n--- {}\n...\n"
            }
        };
        assert_eq!(f.cloud_config_txt, skipped, "{r:?}");
    }
}
