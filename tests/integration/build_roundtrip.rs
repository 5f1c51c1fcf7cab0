//! Property: a payload `build` makes is read back by the cloud-init pipeline with exactly the parts meant.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::build::{BuildOptions, PartSpec, Style, build, expand_merge_type};
use cloudfold::userdata::{NoIncludes, Payload, UserDataOptions, render};
use proptest::prelude::*;

fn text_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,12}",
        Just("é".to_owned()),
        Just("€ 100".to_owned()),
        Just("ünïcødé 😀".to_owned()),
        Just("ÿ".to_owned()),
    ]
}

fn eol() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\n"), Just("\r\n")]
}

/// (content, declared type)
fn content() -> impl Strategy<Value = (Vec<u8>, Option<String>)> {
    prop_oneof![
        (
            proptest::collection::vec(text_value(), 0..4),
            eol(),
            prop_oneof![
                Just(None),
                Just(Some("cloud-config".to_owned())),
                Just(Some("text/cloud-config".to_owned()))
            ],
            any::<bool>(),
        )
            .prop_map(|(vals, eol, ty, trailing)| {
                let mut s = format!("#cloud-config{eol}");
                for (i, v) in vals.iter().enumerate() {
                    s.push_str(&format!("k{i}: \"{v}\"{eol}"));
                }
                if !trailing {
                    s.push_str("last: 1");
                }
                (s.into_bytes(), ty)
            }),
        (
            text_value(),
            eol(),
            prop_oneof![Just(None), Just(Some("x-shellscript".to_owned()))]
        )
            .prop_map(|(v, eol, ty)| (format!("#!/bin/sh{eol}echo '{v}'{eol}").into_bytes(), ty)),
        (text_value(), eol()).prop_map(|(v, eol)| (
            format!("#cloud-boothook{eol}echo {v}{eol}").into_bytes(),
            None
        )),
        // Arbitrary bytes under a type cloud-init never re-detects.
        (proptest::collection::vec(any::<u8>(), 0..64))
            .prop_map(|b| (b, Some("x-shellscript-per-boot".to_owned()))),
    ]
}

fn merge_type() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("append".to_owned())),
        Just(Some("prepend".to_owned())),
        Just(Some("dict(replace)+list(append)".to_owned())),
        Just(Some(
            "list(append)+dict(no_replace,recurse_list)+str()".to_owned()
        )),
    ]
}

fn part() -> impl Strategy<Value = PartSpec> {
    (
        content(),
        proptest::option::of("[a-z0-9][a-z0-9._-]{0,10}"),
        merge_type(),
        proptest::option::of("[a-z0-9]{1,8}"),
    )
        .prop_map(
            |((content, content_type), filename, merge_type, note)| PartSpec {
                content,
                content_type,
                filename,
                merge_type,
                headers: note.map(|n| ("X-Note".to_owned(), n)).into_iter().collect(),
            },
        )
}

fn options() -> impl Strategy<Value = BuildOptions> {
    (
        prop_oneof![Just(Style::CloudInit), Just(Style::Terraform)],
        any::<bool>(),
        prop_oneof![Just(None), Just(Some(true)), Just(Some(false))],
        proptest::option::of(Just("append".to_owned())),
    )
        .prop_map(|(style, gzip, base64, merge_type)| BuildOptions {
            style,
            gzip,
            base64,
            merge_type,
            ..BuildOptions::default()
        })
}

fn payload_bytes(p: Payload) -> Vec<u8> {
    match p {
        Payload::Text(t) => t.to_utf8_surrogateescape().unwrap(),
        Payload::Bytes(b) => b,
        Payload::None => Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn build_then_read_back(specs in proptest::collection::vec(part(), 1..5), opts in options()) {
        let built = build(&specs, &opts).unwrap();
        // Deterministic.
        prop_assert_eq!(&build(&specs, &opts).unwrap(), &built);
        let mut input = built.bytes.clone();
        if opts.base64_output() {
            input = B64.decode(&input).unwrap();
        }
        let folded = render(&input, &UserDataOptions::default(), &NoIncludes).unwrap();
        prop_assert_eq!(folded.parts.len(), specs.len());
        for (i, (spec, got)) in specs.iter().zip(&folded.parts).enumerate() {
            let want = &built.parts[i];
            prop_assert_eq!(&got.content_type(), &want.content_type);
            prop_assert_eq!(
                got.filename().clone(),
                spec.filename.clone().unwrap_or_else(|| format!("part-{:03}", i + 1))
            );
            let want_merge = spec.merge_type.as_deref().or(opts
                .merge_type
                .as_deref()
                .filter(|_| want.content_type == "text/cloud-config"))
                .map(|m| expand_merge_type(m).to_owned());
            prop_assert_eq!(&got.merge_type_header(), &want_merge);
            for (n, v) in &spec.headers {
                let read = got.leaf.get(n).map(|h| h.to_py_str().to_string_lossy().into_owned());
                prop_assert_eq!(read.as_deref(), Some(v.as_str()));
            }
            prop_assert_eq!(payload_bytes(got.leaf.payload()), spec.content.clone());
        }
        // cloud-init reads the other style identically.
        let other = BuildOptions {
            style: match opts.style {
                Style::CloudInit => Style::Terraform,
                Style::Terraform => Style::CloudInit,
            },
            gzip: false,
            base64: Some(false),
            ..opts.clone()
        };
        let other = render(&build(&specs, &other).unwrap().bytes, &UserDataOptions::default(), &NoIncludes).unwrap();
        prop_assert_eq!(&other.cloud_config_txt, &folded.cloud_config_txt);
        let summary = |f: &cloudfold::userdata::Folded| -> Vec<_> {
            f.parts.iter().map(|p| (p.content_type().to_owned(), p.filename().into_owned(), p.merge_type_header(), payload_bytes(p.leaf.payload()))).collect()
        };
        prop_assert_eq!(summary(&other), summary(&folded));
    }
}

/// Found by the `build_roundtrip` fuzzer (fixtures/fuzz-regressions/build_roundtrip/):
/// Python's `get_filename()` strips surrounding spaces, so `build` refuses such names
/// instead of writing a part cloud-init names differently.
#[test]
fn filename_with_surrounding_space_is_refused() {
    for name in [" ", " x", "x "] {
        let spec = PartSpec {
            content: b"#!/bin/sh\necho\n".to_vec(),
            filename: Some(name.to_owned()),
            ..PartSpec::default()
        };
        assert!(
            build(&[spec], &BuildOptions::default()).is_err(),
            "{name:?}"
        );
    }
}

/// Found by the `build_roundtrip` fuzzer: a `#cloud-config` part with invalid UTF-8 later
/// on, declared `x-shellscript`, is re-detected by cloud-init as cloud-config; `build`
/// refuses it (without --force) like any other re-typed part.
#[test]
fn retyped_part_with_invalid_utf8_is_refused() {
    let spec = PartSpec {
        content: b"#cloud-config\n*w\xff\xff\n".to_vec(),
        content_type: Some("x-shellscript".to_owned()),
        ..PartSpec::default()
    };
    assert!(build(&[spec], &BuildOptions::default()).is_err());
}
