//! Shared test helpers: locating `../shared`, skipping loudly outside CI.

// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(dead_code)]

pub mod payload_gen;
pub mod rng;

use std::path::PathBuf;

/// `../shared/<rel>` next to the repository, or `None` (after a loud message)
/// when it is missing outside CI. In CI (`CI=true`) a missing path fails the test.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join(rel);
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
