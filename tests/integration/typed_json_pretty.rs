//! `to_typed_json_pretty` (serialized as the value is walked) writes what
//! `serde_json::to_string_pretty(&to_typed_json(..))` writes, byte for byte,
//! and fails where it fails: every corpus document, values of every type
//! under string and other keys, shared aliases against the node budget.

use cloudfold::yaml::typed_json::{WalkLimits, to_typed_json, to_typed_json_pretty};
use cloudfold::yaml::value::Node;
use cloudfold::yaml::{LoadOptions, load};
use serde_json::Value as J;
use std::path::PathBuf;

fn both(n: &Node, limits: WalkLimits) -> (Result<String, String>, Result<String, String>) {
    let want = to_typed_json(n, limits)
        .map(|j| serde_json::to_string_pretty(&j).unwrap())
        .map_err(|e| e.to_string());
    let got = to_typed_json_pretty(n, limits).map_err(|e| e.to_string());
    (want, got)
}

#[test]
fn every_corpus_document_is_written_alike() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/yaml/corpus.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let case: J = serde_json::from_str(line).unwrap();
        let Some(doc) = case["doc"].as_str() else {
            continue;
        };
        let Ok(Some(node)) = load(doc, &LoadOptions::default()) else {
            continue;
        };
        for max_nodes in [usize::MAX, 3] {
            let limits = WalkLimits {
                max_nodes,
                ..WalkLimits::default()
            };
            let (want, got) = both(&node, limits);
            assert_eq!(want, got, "{doc:?}");
        }
        n += 1;
    }
    assert!(n > 500, "{n} documents");
}

#[test]
fn odd_keys_and_values_under_string_keys() {
    let docs = [
        // NaN keys: two of them encode alike; the object keeps one.
        "{.nan: 1, .NaN: 2, a: 3}",
        "a: {1: x, true: y, null: z, 1.5: w, 2001-01-01: d}\nb: !!set {x, y}\n",
        "$a: 1\nb: {$c: [!!binary aGk=, 2001-12-14t21:59:43.10-05:00, 123456789012345678901234567890]}\n",
        "x: &a [1, 2, {k: v}]\ny: *a\nz: [*a, *a]\n",
        "s: !!omap [a: 1, b: 2]\nt: !!pairs [a: 1, a: 2]\n",
        "f: [.inf, -.inf, .nan, 1.0e+3, -0.0, 0o17, 0x1F, 1_000]\n",
        "{}",
        "[]",
        "plain",
    ];
    for doc in docs {
        let node = load(doc, &LoadOptions::default()).unwrap().unwrap();
        for max_nodes in [usize::MAX, 1, 4, 9] {
            let limits = WalkLimits {
                max_nodes,
                ..WalkLimits::default()
            };
            let (want, got) = both(&node, limits);
            assert_eq!(want, got, "{doc:?}, {max_nodes} nodes");
        }
    }
}
