//! The keyed cloud-config dialect's output is one plain cloud-config cloud-init loads as intended:
//! for generated fragment sets, the real cloud-init's `render` of the `build` of the merge
//! result equals the merge result (and so does ours).
//!
//! `CLOUDFOLD_KEYED_ORACLE_CASES` sets how many merge results go round (default 100;
//! scripts/conformance.sh: 2,000). Fragment sets that do not merge (conflicts) are counted
//! and skipped; generation goes on until that many merged.

use crate::support;

use cloudfold::build::{BuildOptions, PartSpec, build};
use cloudfold::merge::NoObserver;
use cloudfold::merge::keyed::merge_fragments;
use cloudfold::userdata::{NoIncludes, UserDataOptions, render};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use cloudfold::yaml::value::Node;
use cloudfold::yaml::{DumpOptions, dump};
use serde_json::Value as J;
use support::{oracle_batch, rng::Rng};

fn merge(docs: &[String]) -> Option<Node> {
    let (roots, maps) = support::tagged_docs::load_docs(docs);
    merge_fragments(&roots, &maps, &mut NoObserver).ok()
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_keyed_roundtrip_oracle() {
    support::shared("oracle/ci_oracle.py");
    let n: usize = std::env::var("CLOUDFOLD_KEYED_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut rng = Rng::new(0x00C0_FFEE);
    let mut cases: Vec<(Vec<String>, J, Vec<u8>)> = Vec::new();
    let mut conflicts = 0;
    while cases.len() < n {
        let frags = support::keyed_gen::fragment_set(&mut rng);
        let Some(merged) = merge(&frags) else {
            conflicts += 1;
            continue;
        };
        let want = to_typed_json(&merged, WalkLimits::default()).unwrap();
        let text = format!(
            "#cloud-config\n{}",
            dump(&merged, &DumpOptions::readable()).unwrap()
        );
        let spec = PartSpec {
            content: text.into_bytes(),
            ..PartSpec::default()
        };
        let built = build(&[spec], &BuildOptions::default()).unwrap();
        cases.push((frags, want, built.bytes));
    }
    let docs = oracle_batch::docs(
        "trixie",
        cases.iter().map(|(_, _, bytes)| oracle_batch::Request {
            payload: bytes,
            launch_index: None,
            emit_file: false,
            summary: false,
        }),
    );
    let mut bad = Vec::new();
    for (i, ((frags, want, bytes), doc)) in cases.iter().zip(&docs).enumerate() {
        let theirs = &doc["cloud_config"];
        let ours = render(bytes, &UserDataOptions::default(), &NoIncludes)
            .ok()
            .and_then(|f| f.config)
            .map(|c| to_typed_json(&c, WalkLimits::default()).unwrap())
            .unwrap_or(J::Null);
        if canonical(want) != canonical(theirs) || canonical(want) != canonical(&ours) {
            bad.push(format!(
                "case {i}: fragments {frags:?}\n  merged {}\n  oracle {}\n  render {}",
                canonical(want),
                canonical(theirs),
                canonical(&ours)
            ));
        }
    }
    eprintln!(
        "keyed cloud-config round trip vs oracle: {}/{n} merge results read back unchanged ({conflicts} generated sets were conflicts)",
        n - bad.len()
    );
    oracle_batch::assert_none(&bad, 10);
}
