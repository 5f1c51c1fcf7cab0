//! Shared test helpers: locating `../shared`, skipping loudly outside CI.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(dead_code)]

pub mod compose_gen;
pub mod compose_oracle;
pub mod fold_json;
pub mod jinja_gen;
pub mod keyed_gen;
pub mod nickel_gen;
pub mod oracle_batch;
pub mod payload_gen;
pub mod plain_json;
pub mod rng;
pub mod tagged_docs;

use std::path::PathBuf;

/// `../shared/<rel>` next to the repository (or under `$CLOUDFOLD_SHARED`, for
/// worktrees that do not sit beside it), or `None` (after a loud message) when it is
/// missing outside CI. In CI (`CI=true`) a missing path fails the test.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let root = std::env::var_os("CLOUDFOLD_SHARED").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("shared")
        },
        PathBuf::from,
    );
    let p = root.join(rel);
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("CI: required reference material {} is missing", p.display());
    }
    eprintln!(
        "\n*** SKIPPED: {} not found (reference material lives outside the repo; CI has it) ***\n",
        p.display()
    );
    None
}

/// How many generated cases a differential test should run.
pub fn diff_cases(default: usize) -> usize {
    std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Run every case of a recorded vector file under both releases with `check`,
/// print the agreement count, and fail listing every disagreement.
pub fn run_vector_file(
    rel: &str,
    label: &str,
    check: impl Fn(&serde_json::Value, cloudfold::userdata::Release) -> Result<(), String>,
) {
    use cloudfold::userdata::Release;
    let Some(path) = shared(rel) else { return };
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
pub fn fixture_case_dirs(area: &str, at_least: usize) -> Vec<PathBuf> {
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
