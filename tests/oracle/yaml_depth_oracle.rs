//! Deep YAML nesting against the oracle: a cloud-config part or an archive nested
//! past Python's recursion limit fails exactly where it fails inside cloud-init
//! (whose own call frames come on top of PyYAML's), with the same outcome
//! (the part skipped; an archive aborting the whole processing).
//!
//! By default a few levels at the edge; with `CLOUDFOLD_DEEP_YAML_SWEEP=1` (CI's
//! conformance run) every level from 478 to 496 of eight shapes, both releases.

use crate::support;

use cloudfold::userdata::{NoIncludes, PartOutcome, Release, UserDataOptions, render};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use serde_json::{Value as J, json};
use support::oracle_batch;

/// A document of the given shape with `n` levels of nesting.
fn nested(shape: &str, n: usize) -> String {
    let flow_seq = format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let flow_map = format!("{}1{}", "{b: ".repeat(n), "}".repeat(n));
    let block_map: String = (0..n)
        .map(|i| format!("{}b:\n", "  ".repeat(i)))
        .chain(std::iter::once(format!("{}c: 1\n", "  ".repeat(n))))
        .collect();
    match shape {
        "flow-seq" => format!("#cloud-config\na: {flow_seq}\n"),
        "flow-map" => format!("#cloud-config\na: {flow_map}\n"),
        "flow-seq-empty" => format!("#cloud-config\na: {}{}\n", "[".repeat(n), "]".repeat(n)),
        "block-seq" => format!("#cloud-config\na:\n{}1\n", "- ".repeat(n)),
        "block-map" => format!("#cloud-config\n{block_map}"),
        "archive-flow-seq" => format!(
            "#cloud-config-archive\n- type: text/cloud-config\n  content: 'a: 1'\n  x: {flow_seq}\n"
        ),
        "archive-flow-map" => format!("#cloud-config-archive\n- {flow_map}\n"),
        "archive-block-seq" => format!("#cloud-config-archive\n{}1\n", "- ".repeat(n)),
        other => panic!("unknown shape {other}"),
    }
}

fn ours(input: &[u8], release: Release) -> J {
    let opts = UserDataOptions {
        release,
        ..UserDataOptions::default()
    };
    match render(input, &opts, &NoIncludes) {
        Err(e) => json!({ "error": e.to_string() }),
        Ok(f) => json!({
            "config": f.config.as_ref().map_or(J::Null, |c| {
                oracle_batch::summary(&to_typed_json(c, WalkLimits::default()).unwrap())
            }),
            "merged": f.parts.iter().map(|p| matches!(p.outcome, PartOutcome::Merged)).collect::<Vec<_>>(),
        }),
    }
}

fn theirs(doc: &J) -> J {
    match doc["error"].as_str() {
        Some(e) => json!({ "error": e }),
        None => json!({
            "config": doc["cloud_config"],
            "merged": doc["parts"].as_array().unwrap().iter().map(|p| p["merged"] == json!(true)).collect::<Vec<_>>(),
        }),
    }
}

/// Both abort, for the same Python exception class, or both give the same
/// config with the same parts merged.
fn agree(o: &J, t: &J) -> bool {
    match (o["error"].as_str(), t["error"].as_str()) {
        (Some(a), Some(b)) => b.split(':').next().is_some_and(|class| a.contains(class)),
        (None, None) => canonical(o) == canonical(t),
        _ => false,
    }
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn recursion_limit_matches_cloud_init() {
    support::shared("oracle/ci_oracle.py");
    let sweep = std::env::var("CLOUDFOLD_DEEP_YAML_SWEEP").is_ok_and(|v| v == "1");
    let shapes: &[&str] = &[
        "flow-seq",
        "flow-map",
        "flow-seq-empty",
        "block-seq",
        "block-map",
        "archive-flow-seq",
        "archive-flow-map",
        "archive-block-seq",
    ];
    let mut cases = Vec::new();
    if sweep {
        for shape in shapes {
            for n in 478..=496 {
                cases.push((format!("{shape} x{n}"), nested(shape, n)));
            }
        }
    } else {
        for (shape, n) in [
            ("flow-seq", 485),
            ("flow-seq", 486),
            ("archive-flow-seq", 488),
            ("archive-flow-seq", 489),
            ("block-map", 486),
        ] {
            cases.push((format!("{shape} x{n}"), nested(shape, n)));
        }
    }
    for &(release, oracle_release) in oracle_batch::releases(sweep) {
        let docs = oracle_batch::docs_of_named(oracle_release, &cases, true);
        let mut bad = Vec::new();
        for ((name, doc), oracle) in cases.iter().zip(&docs) {
            let (o, t) = (ours(doc.as_bytes(), release), theirs(oracle));
            if !agree(&o, &t) {
                let short = |v: &J| v.to_string().chars().take(160).collect::<String>();
                bad.push(format!("{name}: ours {}, oracle {}", short(&o), short(&t)));
            }
        }
        eprintln!(
            "deep YAML vs oracle {oracle_release}: {}/{} agree",
            cases.len() - bad.len(),
            cases.len()
        );
        oracle_batch::assert_none(&bad, 40);
    }
}
