//! Helpers the test binaries share: locating `../shared`, generators, oracle drivers.

// Each test binary (integration, oracle) uses a subset.
#![allow(dead_code)]

#[path = "../../benches/support/cloud_config_doc.rs"]
pub(crate) mod cloud_config_doc;
pub(crate) mod compose_gen;
pub(crate) mod compose_oracle;
pub(crate) mod diff_apply;
pub(crate) mod diff_gen;
pub(crate) mod fold_json;
pub(crate) mod hiera;
pub(crate) mod jinja_gen;
pub(crate) mod keyed_gen;
pub(crate) mod layers_fold;
pub(crate) mod layers_gen;
pub(crate) mod mime;
pub(crate) mod nickel_gen;
pub(crate) mod oracle_batch;
pub(crate) mod payload_gen;
pub(crate) mod plain_json;
pub(crate) mod plan_gen;
pub(crate) mod rng;
pub(crate) mod same_tree;
pub(crate) mod schema_gen;
pub(crate) mod tagged_docs;
pub(crate) mod yaml_block_gen;
pub(crate) mod yaml_dump_decode;
pub(crate) mod yaml_events_fmt;
pub(crate) mod yaml_gen;
pub(crate) mod yaml_outcome;
pub(crate) mod yaml_readers;

use std::path::PathBuf;

/// `../shared/<rel>` next to the repository (or under `$CLOUDFOLD_SHARED`, for
/// worktrees that do not sit beside it). A missing path fails the test: the tests
/// that need it are `#[ignore]`d with the reason, so they run only when asked for
/// (`--include-ignored`, as scripts/conformance.sh does), and then a missing
/// reference must not pass.
pub(crate) fn shared(rel: &str) -> PathBuf {
    let root = std::env::var_os("CLOUDFOLD_SHARED").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("shared")
        },
        PathBuf::from,
    );
    let p = root.join(rel);
    assert!(
        p.exists(),
        "required reference material {} is missing (set CLOUDFOLD_SHARED, see README.md)",
        p.display()
    );
    p
}

/// The `cloudfold` binary of this build (the `cloudfold-cli` package), beside the test
/// executable in the target directory: `cargo test --workspace` builds it. A missing
/// one fails the test.
pub(crate) fn cloudfold_bin() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/<test>-<hash> -> target/<profile>/cloudfold
    let bin = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(|profile| profile.join("cloudfold"))
        .unwrap();
    assert!(
        bin.is_file(),
        "{} is missing: build it (cargo build -p cloudfold-cli, or cargo test --workspace) or set CLOUDFOLD_BIN",
        bin.display()
    );
    bin
}

/// How many generated cases a differential test should run.
pub(crate) fn diff_cases(default: usize) -> usize {
    std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Run every case of a recorded vector file under both releases with `check`,
/// print the agreement count, and fail listing every disagreement.
pub(crate) fn run_vector_file(
    rel: &str,
    label: &str,
    check: impl Fn(&serde_json::Value, cloudfold::userdata::Release) -> Result<(), String>,
) {
    use cloudfold::userdata::Release;
    let path = shared(rel);
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut runs = 0;
    for release in [Release::V22_4, Release::V25_1] {
        for case in cases {
            runs += 1;
            if let Err(e) = check(case, release) {
                failures.push(format!("{} [{}]: {e}", case["id"], release.as_str()));
            }
        }
    }
    eprintln!(
        "conformance {label}: {}/{runs} case runs agree",
        runs - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {runs} disagree:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The case directories of `fixtures/<area>/`, sorted; fails when fewer than `at_least`
/// are there (a fixture set that silently vanished would make its test vacuous).
pub(crate) fn fixture_case_dirs(area: &str, at_least: usize) -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(area);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= at_least,
        "fixtures missing from {}: {} case directories, expected at least {at_least}",
        root.display(),
        dirs.len()
    );
    dirs
}
