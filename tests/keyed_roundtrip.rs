//! The keyed cloud-config dialect's output is one plain cloud-config cloud-init loads as intended:
//! for generated fragment sets, the real cloud-init's `render` of the `build` of the merge
//! result equals the merge result (and so does ours).
//!
//! `CLOUDFOLD_KEYED_ORACLE_CASES` sets how many merge results go round (default 100;
//! scripts/conformance.sh: 2,000). Fragment sets that do not merge (conflicts) are counted
//! and skipped; generation goes on until that many merged.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    // Test code: an out-of-range index is a failed test.
    clippy::indexing_slicing
)]

mod common;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::build::{BuildOptions, PartSpec, build};
use cloudfold::merge::NoObserver;
use cloudfold::merge::keyed::merge_fragments;
use cloudfold::userdata::{NoIncludes, UserDataOptions, render};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use cloudfold::yaml::value::Node;
use cloudfold::yaml::{DumpOptions, dump};
use common::rng::Rng;
use serde_json::{Value as J, json};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};

fn merge(docs: &[String]) -> Option<Node> {
    let (roots, maps) = common::tagged_docs::load_docs(docs);
    merge_fragments(&roots, &maps, &mut NoObserver).ok()
}

#[test]
fn conformance_keyed_roundtrip_oracle() {
    if common::shared("oracle/ci_oracle.py").is_none() {
        return;
    }
    let n: usize = std::env::var("CLOUDFOLD_KEYED_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut rng = Rng::new(0x00C0_FFEE);
    let mut cases: Vec<(Vec<String>, J, Vec<u8>)> = Vec::new();
    let mut conflicts = 0;
    while cases.len() < n {
        let frags = common::keyed_gen::fragment_set(&mut rng);
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
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/oracle_batch.py");
    let mut child = Command::new("python3")
        .args([script, "--release", "trixie"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let feed: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (_, _, bytes))| {
            json!({"id": i, "b64": B64.encode(bytes), "launch_index": null, "emit_file": false})
                .to_string()
        })
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for line in feed {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let (mut seen, mut bad) = (0, Vec::new());
    for line in out.lines() {
        let v: J = serde_json::from_str(&line.unwrap()).unwrap();
        let i = v["id"].as_u64().unwrap() as usize;
        let (frags, want, bytes) = &cases[i];
        seen += 1;
        let theirs = &v["doc"]["cloud_config"];
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
    writer.join().unwrap();
    let _ = child.wait();
    assert_eq!(seen, n, "the oracle answered {seen} of {n} cases");
    eprintln!(
        "keyed cloud-config round trip vs oracle: {}/{n} merge results read back unchanged ({conflicts} generated sets were conflicts)",
        n - bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
