//! The hand-picked MIME corpus (fixtures/mime/*.eml) against the descriptions
//! recorded from CPython's `email` by scripts/mime_fixtures.py; and the MIME
//! samples of ../shared against the live oracle.
#![allow(clippy::unwrap_used)]

mod common;

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
    let docs: Vec<String> = files
        .iter()
        .filter_map(|p| String::from_utf8(std::fs::read(p).unwrap()).ok())
        .filter(|d| {
            d[..d.len().min(4096)]
                .to_ascii_lowercase()
                .contains("mime-version:")
                || d.starts_with("From ")
        })
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
