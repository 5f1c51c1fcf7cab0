//! The 504 merger vectors recorded from cloud-init (../shared/conformance/cloud-init-generated/merge-vectors.json).

// Test harness: a failed unwrap is a failed test.

use crate::support;

use cloudfold::merge::cloud_init::{MergeSpec, MergerStack, Options, SpecEntry, SpecName, Version};
use cloudfold::merge::{MergeError, PyException};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, from_typed_json, to_typed_json};
use cloudfold::yaml::value::{Node, py_eq};
use serde_json::Value as J;

const VECTORS: &str = "conformance/cloud-init-generated/merge-vectors.json";

fn load_vectors() -> J {
    let path = support::shared(VECTORS);
    let text = std::fs::read_to_string(&path).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `mergers`: a spec string, or `[name, options]` pairs handed straight to
/// the merger constructors (options a list, or a string → substring tests).
fn stack_of(mergers: &J) -> Result<MergerStack, MergeError> {
    match mergers {
        J::String(s) => MergerStack::parse(s, Version::V25_1),
        J::Array(pairs) => {
            let entries = pairs
                .iter()
                .map(|p| {
                    let name = p[0].as_str().unwrap().to_owned();
                    let options = match &p[1] {
                        J::String(s) => Options::Substring(s.clone()),
                        J::Array(a) => Options::List(
                            a.iter().map(|o| o.as_str().unwrap().to_owned()).collect(),
                        ),
                        other => panic!("unexpected options {other}"),
                    };
                    SpecEntry {
                        name: SpecName::Str(name),
                        options,
                    }
                })
                .collect();
            MergerStack::resolve(&MergeSpec { entries })
        }
        other => panic!("unexpected mergers {other}"),
    }
}

fn class_name(c: PyException) -> &'static str {
    c.python_name()
}

fn run_case(case: &J) -> Result<(), String> {
    let base = from_typed_json(&case["base"]).unwrap();
    let new = from_typed_json(&case["new"]).unwrap();
    let got: Result<Node, MergeError> =
        stack_of(&case["mergers"]).and_then(|s| s.merge(&base, &new));
    match (case.get("error"), got) {
        (Some(J::String(want)), Err(e)) if class_name(e.class) == want => Ok(()),
        (Some(want), Err(e)) => Err(format!("want {want}, got error {e}")),
        (Some(want), Ok(v)) => Err(format!("want {want}, got {v:?}")),
        (None, Err(e)) => Err(format!("want {}, got error {e}", case["result"])),
        (None, Ok(v)) => {
            let want = from_typed_json(&case["result"]).unwrap();
            let got_json = to_typed_json(&v, WalkLimits::default()).unwrap();
            // Python equality plus the JSON text (which also sees key order and types).
            if py_eq(&v, &want) && canonical(&got_json) == canonical(&case["result"]) {
                Ok(())
            } else {
                Err(format!("want {}, got {}", case["result"], got_json))
            }
        }
    }
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_merge_vectors_all_pass() {
    let doc = load_vectors();
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 504);
    let mut failures = Vec::new();
    for case in cases {
        if let Err(why) = run_case(case) {
            failures.push(format!("{}: {why}", case["id"]));
        }
    }
    eprintln!(
        "merge vectors: {}/{} pass",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Key order matters too: results must keep old's order with new keys appended.
#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_merge_vectors_key_order() {
    let doc = load_vectors();
    for case in doc["cases"].as_array().unwrap() {
        if case.get("error").is_some() {
            continue;
        }
        let base = from_typed_json(&case["base"]).unwrap();
        let new = from_typed_json(&case["new"]).unwrap();
        let v = stack_of(&case["mergers"])
            .unwrap()
            .merge(&base, &new)
            .unwrap();
        let got = to_typed_json(&v, WalkLimits::default()).unwrap();
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&case["result"]).unwrap(),
            "{}",
            case["id"]
        );
    }
}
