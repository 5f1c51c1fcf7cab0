//! `to_typed_json_pretty` (serialized as the value is walked) writes what
//! `serde_json::to_string_pretty(&to_typed_json(..))` writes, byte for byte,
//! and fails where it fails: every corpus document, values of every type
//! under string and other keys, shared aliases against the node budget.
//! `write_typed_json_pretty` writes the same bytes to a writer, and nothing
//! at all for a value it cannot write.

use cloudfold::yaml::typed_json::{
    WalkLimits, to_typed_json, to_typed_json_pretty, write_typed_json_pretty,
};
use cloudfold::yaml::value::Node;
use cloudfold::yaml::{LoadOptions, load};
use serde_json::Value as J;
use std::path::PathBuf;

fn both(n: &Node, limits: WalkLimits) -> (Result<String, String>, Result<String, String>) {
    let want = to_typed_json(n, limits)
        .map(|j| serde_json::to_string_pretty(&j).unwrap())
        .map_err(|e| e.to_string());
    let got = to_typed_json_pretty(n, limits).map_err(|e| e.to_string());
    let mut written = Vec::new();
    let streamed = write_typed_json_pretty(n, limits, &mut written).map_err(|e| e.to_string());
    match &got {
        Ok(text) => assert_eq!(streamed.map(|()| written), Ok(text.clone().into_bytes())),
        Err(e) => {
            assert_eq!(streamed.as_ref().err(), Some(e));
            assert!(
                written.is_empty(),
                "{} bytes written before {e}",
                written.len()
            );
        }
    }
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

#[test]
fn deep_values_are_written_from_a_thread_of_their_own() {
    // Deeper than the levels walked on the caller's stack, and deeper than
    // the limit: the text, or nothing. The writer runs on a small stack.
    let depth = 3000;
    let doc = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let opts = LoadOptions {
        max_depth: depth + 10,
        ..LoadOptions::default()
    };
    let node = load(&doc, &opts).unwrap().unwrap();
    let on = |stack: usize, f: Box<dyn FnOnce() -> Result<Vec<u8>, String> + Send>| {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    };
    for max_depth in [depth + 10, depth - 1] {
        let limits = WalkLimits {
            max_depth,
            ..WalkLimits::default()
        };
        let n = node.clone();
        let want = on(
            256 << 20,
            Box::new(move || {
                to_typed_json_pretty(&n, limits)
                    .map(String::into_bytes)
                    .map_err(|e| e.to_string())
            }),
        );
        let n = node.clone();
        let got = on(
            256 << 10,
            Box::new(move || {
                let mut w = Vec::new();
                match write_typed_json_pretty(&n, limits, &mut w) {
                    Ok(()) => Ok(w),
                    Err(e) => {
                        assert!(w.is_empty());
                        Err(e.to_string())
                    }
                }
            }),
        );
        assert_eq!(want, got, "max depth {max_depth}");
        assert_eq!(want.is_ok(), max_depth > depth);
    }
}
