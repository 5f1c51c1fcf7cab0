//! `compose` dialect fixtures: spec examples, observed quirks and past disagreements, with docker-compose's recorded answers.
//!
//! Each directory of fixtures/merge-compose/ holds f1.yml, f2.yml, … and
//! expected.json, recorded from the real docker-compose by
//! scripts/compose_fixtures.py (`{"model": …}` or `{"error": …}`). No oracle
//! is needed to run this test.

use crate::support;

use serde_json::Value as J;
use support::compose_oracle::{agree, ours};

#[test]
fn compose_fixtures_match_docker_compose() {
    let dirs = support::fixture_case_dirs("merge-compose", 25);
    let mut failures = Vec::new();
    for dir in &dirs {
        let mut files = Vec::new();
        for i in 1.. {
            match std::fs::read_to_string(dir.join(format!("f{i}.yml"))) {
                Ok(t) => files.push(t),
                Err(_) => break,
            }
        }
        let expected: J =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let theirs = match (expected.get("model"), expected.get("error")) {
            (Some(m), _) => Ok(m.clone()),
            (None, Some(e)) => Err(e.as_str().unwrap().to_string()),
            _ => panic!(
                "{}: expected.json has neither model nor error",
                dir.display()
            ),
        };
        if let Err(why) = agree(&ours(&files), &theirs) {
            failures.push(format!(
                "{}: {why}",
                dir.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    eprintln!(
        "compose fixtures: {}/{} agree with docker-compose",
        dirs.len() - failures.len(),
        dirs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
