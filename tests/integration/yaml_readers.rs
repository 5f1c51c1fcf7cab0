//! The loader's readers held equal (`support::yaml_readers::readers_agree`)
//! on every YAML text of the repository's fixtures and on generated documents,
//! under each option set: the fast loader and the direct builder either
//! decline or build exactly what the node graph builds; `load` and
//! `load_tagged` give its results. The conformance corpora under `../shared`:
//! `tests/oracle/yaml_readers_shared.rs`.
//!
//! `CLOUDFOLD_READERS_CASES` (default 3000 of each generator).

use crate::support;

use std::path::{Path, PathBuf};
use support::rng::Rng;
use support::yaml_block_gen::block_document;
use support::yaml_gen::generate;
use support::yaml_outcome::Input;
use support::yaml_readers::ReadersTally;

/// Fixture texts larger than this are left to `yaml_corpus` (whose outcome
/// check runs the same comparison under the default options): the
/// corpus's limit cases run to megabytes, slow in a debug build.
const MAX_FIXTURE: usize = 64 << 10;

#[test]
fn readers_agree_with_the_node_graph() {
    let cases: usize = std::env::var("CLOUDFOLD_READERS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let mut fixtures = ReadersTally::new("repository fixtures");
    for text in fixture_texts() {
        fixtures.check(&text);
    }
    let mut generated = ReadersTally::new("generated documents (differential generator)");
    let mut rng = Rng::from_state(7);
    for _ in 0..cases {
        if let Input::Text(t) = generate(&mut rng) {
            generated.check(&t);
        }
    }
    let mut block = ReadersTally::new("generated block documents");
    let mut r = Rng::new(7);
    for i in 0..cases {
        block.check(&block_document(&mut r, i));
    }
    for tally in [&fixtures, &generated, &block] {
        tally.report();
    }
    for tally in [&fixtures, &generated, &block] {
        tally.assert_agree();
    }
    // Each source must reach the readers it is there for.
    assert!(fixtures.texts > 500, "{} fixture texts", fixtures.texts);
    assert!(fixtures.fast > fixtures.texts / 4 && fixtures.direct > fixtures.texts / 4);
    assert!(generated.direct > generated.texts / 10);
    assert!(block.fast > block.texts / 10, "fast took {}", block.fast);
}

/// Every YAML text under `fixtures/`: the loader corpus's text cases and each
/// `.yaml`/`.yml`/`.txt`/`.json` file (JSON and most user-data are YAML too;
/// the rest exercise the readers' declining and the graph's errors).
fn fixture_texts() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut texts = Vec::new();
    let corpus = std::fs::read_to_string(root.join("yaml/corpus.jsonl")).unwrap();
    for line in corpus.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Input::Text(t) = Input::from_case(&case)
            && t.len() <= MAX_FIXTURE
        {
            texts.push(t);
        }
    }
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    for f in files {
        if let Ok(t) = std::fs::read_to_string(&f)
            && t.len() <= MAX_FIXTURE
        {
            texts.push(t);
        }
    }
    texts
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if p
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| ["yaml", "yml", "txt", "json"].contains(&x))
        {
            out.push(p);
        }
    }
}
