//! Merges over tuples, sets, bytes, floats, non-string keys and list-form specs, recorded from cloud-init (fixtures/merge/typed-vectors.json).

// Test harness: a failed unwrap is a failed test.

use cloudfold::merge::MergeError;
use cloudfold::merge::cloud_init::{MergerStack, Version, prepare_part};
use cloudfold::yaml::typed_json::{WalkLimits, from_typed_json, to_typed_json};
use cloudfold::yaml::value::{Node, py_eq};
use serde_json::Value as J;

fn run(case: &J) -> Result<Node, MergeError> {
    let t = |k: &str| from_typed_json(&case[k]).unwrap();
    if let Some(spec) = case.get("mergers") {
        let stack = MergerStack::parse(spec.as_str().unwrap(), Version::V22_4)?;
        stack.merge(&t("base"), &t("new"))
    } else {
        let header = case["header"].as_str().unwrap();
        let part = prepare_part(&t("part"), Some(header), Version::V22_4)?;
        part.merge_into(&t("acc"))
    }
}

#[test]
fn typed_vectors_match_cloud_init() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/merge/typed-vectors.json"
    );
    let doc: J = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let got = run(case);
        let ok = match (case.get("error"), &got) {
            (Some(J::String(want)), Err(e)) => e.class.python_name() == want,
            (None, Ok(v)) => {
                let want = from_typed_json(&case["result"]).unwrap();
                let got_json = to_typed_json(v, WalkLimits::default()).unwrap();
                py_eq(v, &want)
                    && serde_json::to_string(&got_json).unwrap()
                        == serde_json::to_string(&case["result"]).unwrap()
            }
            _ => false,
        };
        if !ok {
            let got = got.map(|v| to_typed_json(&v, WalkLimits::default()).unwrap());
            failures.push(format!(
                "{}: want {}, got {got:?}",
                case["id"],
                case.get("error").unwrap_or(&case["result"])
            ));
        }
    }
    eprintln!(
        "typed merge vectors: {}/{} pass",
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
