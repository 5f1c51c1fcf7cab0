//! fixtures/merge-nickel/: the Nickel manual's merging examples and edge cases, as YAML layers, with what `nickel export` gave (scripts/nickel_fixtures.py).

use crate::support;

use cloudfold::merge::dialect::Layer;
use cloudfold::merge::nickel;
use cloudfold::source::SourceId;
use cloudfold::yaml::typed_json::canonical;
use support::plain_json::plain_json;

#[test]
fn nickel_fixtures_agree_with_nickel_export() {
    let cases = support::fixture_case_dirs("merge-nickel", 20);
    let mut bad = Vec::new();
    for case in &cases {
        let mut layers = Vec::new();
        for i in 1.. {
            let f = case.join(format!("{i}.yaml"));
            let Ok(text) = std::fs::read_to_string(&f) else {
                break;
            };
            layers.push(Layer::load(format!("{i}.yaml"), SourceId(i), &text).unwrap());
        }
        let outcome = nickel::merge(&layers);
        let expected_json = std::fs::read_to_string(case.join("expected.json")).ok();
        let ok = match (&outcome.merged, expected_json) {
            (Some(m), Some(e)) => {
                canonical(&plain_json(m)) == canonical(&serde_json::from_str(&e).unwrap())
            }
            (None, None) => case.join("expected.error").exists(),
            _ => false,
        };
        if !ok {
            bad.push(format!(
                "{}: ours {:?} {:?}",
                case.display(),
                outcome.merged.as_ref().map(plain_json),
                outcome.diagnostics.first().map(|d| &d.message)
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
