//! The recorded YAML loader corpus (fixtures/yaml/): every case must load to
//! the value PyYAML 6.0.3's `safe_load` returned, or fail as it failed.

use crate::support;

use serde_json::Value as J;
use support::yaml_outcome::{Input, outcome, same};

#[test]
fn corpus_matches_pyyaml() {
    // Deep cases walk ~500 levels recursively in debug builds (typed JSON
    // encoding, normalisation): give them room.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run_corpus)
        .unwrap()
        .join()
        .unwrap();
}

fn run_corpus() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/yaml");
    let corpus = std::fs::read_to_string(format!("{dir}/corpus.jsonl")).unwrap();
    let expected = std::fs::read_to_string(format!("{dir}/expected.jsonl")).unwrap();
    let cases: Vec<J> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let wants: Vec<J> = expected
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cases.len(), wants.len(), "re-record expected.jsonl");
    let mut failures = Vec::new();
    for (case, want) in cases.iter().zip(&wants) {
        let got = outcome(&Input::from_case(case));
        if !same(&got, want) {
            failures.push(format!(
                "{}: {}\n   ours:   {got}\n   pyyaml: {want}",
                case["name"].as_str().unwrap_or("?"),
                case.get("doc").map_or_else(String::new, J::to_string)
            ));
        }
    }
    eprintln!(
        "yaml corpus: {}/{} cases agree with PyYAML",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
