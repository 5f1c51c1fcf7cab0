//! The `hiera` dialect on the recorded fixtures of `fixtures/merge-hiera/` (expected answers recorded from puppet 7.23).
//!
//! Each directory holds data files `NN.yaml` (lowest priority first),
//! `merge.json` (the `--merge` puppet was given, null for none) and
//! `expected.json` (puppet's answer for every key), written by
//! `scripts/hiera_oracle.py record`.

use crate::support;
use crate::support::hiera as hiera_support;

use serde_json::Value as J;

#[test]
fn hiera_fixtures_match_puppet() {
    let dirs = support::fixture_case_dirs("merge-hiera", 30);
    let mut failures = Vec::new();
    let mut lookups = 0;
    for d in &dirs {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".yaml"))
            .collect();
        names.sort();
        let files: Vec<(String, String)> = names
            .iter()
            .map(|n| (n.clone(), std::fs::read_to_string(d.join(n)).unwrap()))
            .collect();
        let merge: J =
            serde_json::from_str(&std::fs::read_to_string(d.join("merge.json")).unwrap()).unwrap();
        let expected: J =
            serde_json::from_str(&std::fs::read_to_string(d.join("expected.json")).unwrap())
                .unwrap();
        let expected: Vec<(String, J)> = expected
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["key"].as_str().unwrap().to_owned(), e.clone()))
            .collect();
        lookups += expected.len();
        for diff in hiera_support::check_case(&files, &merge, &expected) {
            failures.push(format!(
                "{}: {diff}",
                d.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    eprintln!("{} hiera fixtures, {lookups} lookups", dirs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
