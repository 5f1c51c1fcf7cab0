//! The hand-picked MIME corpus (fixtures/mime/*.eml) against the descriptions
//! recorded from CPython's `email` by scripts/mime_fixtures.py; and the MIME
//! samples of ../shared against the live oracle.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod mime_common;
use mime_common as common;

use base64::Engine as _;
use std::io::Read as _;
use std::path::PathBuf;

fn fixture_pairs() -> Vec<(PathBuf, PathBuf)> {
    let dir = common::repo_root().join("fixtures/mime");
    let mut out: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .map(|p| {
            let j = p.with_extension("json");
            (p, j)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn recorded_corpus_matches_python() {
    let pairs = fixture_pairs();
    assert!(
        pairs.len() >= 60,
        "corpus has only {} documents",
        pairs.len()
    );
    let mut bad = Vec::new();
    for (eml, json) in &pairs {
        let doc = common::read_text(eml);
        let expected: serde_json::Value = serde_json::from_str(&common::read_text(json)).unwrap();
        let ours = common::describe(&doc);
        if ours != expected {
            bad.push(format!(
                "{}: {:?}",
                eml.file_name().unwrap().to_string_lossy(),
                common::first_diff(&ours, &expected, "")
            ));
        }
    }
    eprintln!(
        "mime fixtures: {} documents, {} disagreements",
        pairs.len(),
        bad.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The MIME user-data samples shipped in ../shared (cloud-init's own test emails
/// and the oracle samples), compared with the live Python oracle.
#[test]
fn shared_samples_match_python() {
    let Some(shared) = common::shared_dir() else {
        assert!(!common::in_ci(), "../shared is required in CI");
        eprintln!(
            "SKIPPED (LOUDLY): ../shared not found beside the repository; MIME samples not checked"
        );
        return;
    };
    if !common::python_available() {
        assert!(!common::in_ci(), "python3 is required in CI");
        eprintln!("SKIPPED (LOUDLY): python3 not available; MIME samples not checked");
        return;
    }
    let mut files = Vec::new();
    for (dir, pred) in [
        ("conformance/cloud-init-userdata-samples", "email"),
        ("oracle/samples", "txt"),
    ] {
        let Ok(rd) = std::fs::read_dir(shared.join(dir)) else {
            assert!(!common::in_ci(), "{dir} missing in ../shared");
            eprintln!("SKIPPED (LOUDLY): ../shared/{dir} missing");
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == pred) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut blobs: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    // The user-data vectors generated from cloud-init: raw payloads (base64).
    let vectors = shared.join("conformance/cloud-init-generated/userdata-vectors.json");
    if let Ok(text) = std::fs::read_to_string(&vectors) {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for case in v["cases"].as_array().unwrap() {
            if let Some(b64) = case["input_b64"].as_str() {
                blobs.push(
                    base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .unwrap(),
                );
            }
        }
    } else {
        assert!(!common::in_ci(), "{} missing", vectors.display());
        eprintln!("SKIPPED (LOUDLY): {} missing", vectors.display());
    }
    // cloud-init's rule: one gzip layer off, MIME iff `mime-version:` in the
    // first 4096 bytes, strict UTF-8. (cloud-init's own .email samples start
    // with a `From ` line and are read as MIME by its tests.)
    let docs: Vec<String> = blobs
        .into_iter()
        .map(|b| {
            let mut out = Vec::new();
            match flate2::read::GzDecoder::new(&b[..]).read_to_end(&mut out) {
                Ok(_) => out,
                Err(_) => b,
            }
        })
        .filter(|b| {
            b.starts_with(b"From ")
                || b[..b.len().min(4096)]
                    .to_ascii_lowercase()
                    .windows(13)
                    .any(|w| w == b"mime-version:")
        })
        .filter_map(|b| String::from_utf8(b).ok())
        .collect();
    assert!(!docs.is_empty());
    let expected = common::oracle(&docs);
    for (d, e) in docs.iter().zip(&expected) {
        let ours = common::describe(d);
        assert!(ours == *e, "{d:?}: {:?}", common::first_diff(&ours, e, ""));
    }
    eprintln!(
        "mime shared samples: {} documents agree with Python",
        docs.len()
    );
}
