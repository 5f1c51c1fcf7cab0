//! Differential: `merge --dialect compose` against the real `docker-compose config` (compose-go 2.4.8).
//!
//! Generated sets of 2–3 Compose files (tests/support/compose_gen.rs) are
//! merged by us and by Debian trixie's docker-compose (`config --format json
//! --no-normalize --no-interpolate --no-path-resolution --no-consistency`).
//! Both results are compared as JSON *models*: mappings compared without
//! regard to key order (Go prints sorted keys; we keep file order), the
//! `name` key (the project name, which compose adds) dropped, everything
//! else exact. Where compose fails, we must fail too: with "cannot override"
//! exactly when it does. `CLOUDFOLD_COMPOSE_CASES` sets the count (default
//! 100; `scripts/conformance.sh` runs 2,000), `CLOUDFOLD_COMPOSE_SEED` the
//! first seed.

use crate::support;

use support::compose_oracle::{agree, oracle, oracle_result, ours, spawn_oracle};

#[test]
#[ignore = "needs docker-compose (../shared/oracle/dialects/setup-compose.sh): scripts/conformance.sh runs it"]
fn compose_merge_agrees_with_docker_compose() {
    let bin = oracle();
    let n: u64 = std::env::var("CLOUDFOLD_COMPOSE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let seed0: u64 = std::env::var("CLOUDFOLD_COMPOSE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let tmp = std::env::temp_dir().join(format!("cloudfold-compose-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut oracle_failures = 0;
    // Two oracle processes at a time (the machine has two cores).
    let seeds: Vec<u64> = (seed0..seed0 + n).collect();
    for pair in seeds.chunks(2) {
        let mut running = Vec::new();
        for &seed in pair {
            let dir = tmp.join(seed.to_string());
            std::fs::create_dir_all(&dir).unwrap();
            let files = support::compose_gen::compose_case(seed);
            let child = spawn_oracle(&bin, &dir, &files);
            running.push((seed, files, child));
        }
        for (seed, files, child) in running {
            let theirs = oracle_result(child);
            if theirs.is_err() {
                oracle_failures += 1;
            }
            let mine = ours(&files);
            if let Err(why) = agree(&mine, &theirs) {
                failures.push(format!("seed {seed}: {why}\n{}", files.join("---\n")));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for f in &failures {
        eprintln!("{}", f.lines().next().unwrap_or_default());
    }
    eprintln!(
        "compose differential: {}/{n} cases agree with docker-compose ({oracle_failures} where it fails)",
        n as usize - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {n} disagree:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
