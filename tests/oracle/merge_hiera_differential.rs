//! Differential test of the `hiera` dialect against the real `puppet lookup` (Debian's puppet 7.23).
//!
//! `scripts/hiera_oracle.py gen` generates hierarchies (1–4 files of nested
//! data with knockout strings, `lookup_options`, every strategy and deep
//! option) and asks puppet, through `../shared/oracle/dialects/hiera_oracle.rb`
//! in one Ruby process, for every key; each answer (value, or failure) must
//! be ours. `CLOUDFOLD_HIERA_CASES` sets the count (default 300; CI's
//! conformance run uses 1,500), `CLOUDFOLD_HIERA_SEED` the seed.
//! Disagreeing cases are written to `target/hiera-disagreements.json` for
//! `scripts/hiera_oracle.py promote`; `CLOUDFOLD_HIERA_CASES_FILE=FILE`
//! re-checks a recorded case file without running puppet.

use crate::support;
use crate::support::hiera as hiera_support;

use serde_json::Value as J;
use std::path::PathBuf;
use std::process::Command;

/// The Hiera oracle is there; a missing one fails the test.
fn oracle_ready() {
    let shared = support::shared(".");
    let have = |cmd: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {cmd}"))
            .output()
            .is_ok_and(|o| o.status.success())
    };
    assert!(
        shared.join("oracle/dialects/hiera_oracle.rb").exists() && have("puppet") && have("ruby"),
        "the Hiera oracle is missing (run ../shared/oracle/dialects/setup-hiera.sh)"
    );
}

#[test]
#[ignore = "needs ../shared and puppet (../shared/oracle/dialects/setup-hiera.sh): scripts/conformance.sh runs it"]
fn hiera_matches_puppet_lookup() {
    oracle_ready();
    let count: usize = std::env::var("CLOUDFOLD_HIERA_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("CLOUDFOLD_HIERA_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20261122);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = root
        .join("target")
        .join(format!("hiera-cases-{seed}-{count}.json"));
    let started = std::time::Instant::now();
    // CLOUDFOLD_HIERA_CASES_FILE re-checks recorded cases without puppet.
    let out = match std::env::var_os("CLOUDFOLD_HIERA_CASES_FILE") {
        Some(f) => PathBuf::from(f),
        None => {
            let status = Command::new("python3")
                .arg(root.join("scripts/hiera_oracle.py"))
                .args([
                    "gen",
                    "--seed",
                    &seed.to_string(),
                    "--count",
                    &count.to_string(),
                ])
                .arg("--out")
                .arg(&out)
                .status()
                .unwrap();
            assert!(status.success(), "hiera_oracle.py gen failed");
            out
        }
    };
    let oracle_time = started.elapsed();
    let doc: J = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let mut keys = 0;
    let mut failures = 0;
    let mut bad_cases = Vec::new();
    let mut report = Vec::new();
    for case in doc["cases"].as_array().unwrap() {
        let files: Vec<(String, String)> = case["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["name"].as_str().unwrap().to_owned(),
                    f["text"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let expected: Vec<(String, J)> = case["keys"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|k| {
                let k = k.as_str().unwrap();
                case["results"].get(k).map(|r| (k.to_owned(), r.clone()))
            })
            .collect();
        keys += expected.len();
        failures += expected
            .iter()
            .filter(|(_, r)| r["ok"] == J::Bool(false))
            .count();
        let diffs = hiera_support::check_case(&files, &case["merge"], &expected);
        if !diffs.is_empty() {
            report.push(format!(
                "{} (merge {}):\n  {}\n  files: {}",
                case["name"],
                case["merge"],
                diffs.join("\n  "),
                files
                    .iter()
                    .map(|(n, t)| format!("{n}: {}", t.trim_end()))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ));
            bad_cases.push(case.clone());
        }
    }
    let n = doc["cases"].as_array().unwrap().len();
    eprintln!(
        "hiera vs puppet: {n} cases, {keys} lookups ({failures} failing in puppet), {} disagreeing cases; oracle {:.1}s",
        bad_cases.len(),
        oracle_time.as_secs_f64()
    );
    if !bad_cases.is_empty() {
        let dump = serde_json::json!({ "cases": bad_cases });
        std::fs::write(
            root.join("target/hiera-disagreements.json"),
            serde_json::to_string(&dump).unwrap(),
        )
        .unwrap();
        for r in report.iter().take(15) {
            eprintln!("{r}\n");
        }
        panic!("{} cases disagree with puppet", bad_cases.len());
    }
}
