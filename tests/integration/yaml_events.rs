//! The YAML reader/scanner/parser against PyYAML 6.0.3's events recorded in
//! fixtures/yaml-events/. Generated documents against the live PyYAML are in
//! tests/oracle/yaml_events.rs.

use crate::support::yaml_events_fmt::*;

// ----- the recorded corpus -----

#[test]
fn corpus_matches_recorded_pyyaml() {
    let dir = repo_root().join("fixtures/yaml-events");
    let corpus = std::fs::read_to_string(dir.join("corpus.jsonl")).unwrap();
    let expected = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
    let cases: Vec<serde_json::Value> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want: Vec<Vec<String>> = expected
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        cases.len(),
        want.len(),
        "corpus and expected outputs differ in length"
    );
    assert!(cases.len() >= 150, "corpus too small");
    let mut failures = Vec::new();
    for (v, w) in cases.iter().zip(&want) {
        let case = Case::from_json(v);
        let got = case.events();
        if &got != w {
            let name = v.get("name").and_then(|n| n.as_str()).unwrap_or("?");
            failures.push(report(name, &case, w, &got));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("")
    );
    eprintln!("yaml-events corpus: {} cases agree", cases.len());
}

// ----- generated and mutated documents -----
