//! The hand-picked MIME corpus (fixtures/mime/*.eml) against the descriptions
//! recorded from CPython's `email` by scripts/mime_fixtures.py. The MIME samples of
//! ../shared against the live oracle are in tests/oracle/mime_fixtures.rs.

use crate::support::mime as mime_support;

use std::path::PathBuf;

fn fixture_pairs() -> Vec<(PathBuf, PathBuf)> {
    let dir = mime_support::repo_root().join("fixtures/mime");
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
        let doc = mime_support::read_text(eml);
        let expected: serde_json::Value =
            serde_json::from_str(&mime_support::read_text(json)).unwrap();
        let ours = mime_support::describe(&doc);
        if ours != expected {
            bad.push(format!(
                "{}: {:?}",
                eml.file_name().unwrap().to_string_lossy(),
                mime_support::first_diff(&ours, &expected, "")
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
