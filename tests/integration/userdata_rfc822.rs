//! message/rfc822 parts against the real cloud-init: each fixture under
//! fixtures/userdata-rfc822/ (recorded by scripts/rfc822_fixtures.py for 22.4
//! and 25.1, with and without launch indexes) folds to exactly the parts,
//! config and cloud-config.txt cloud-init produced — parts inside a message
//! handled once per enclosing message, the retyped message document, the
//! originals of expanded gzip/include/archive parts met again.

use crate::support;

use cloudfold::userdata::{
    Fetched, IncludeResolver, Limits, NoIncludes, Release, UserDataOptions, render,
};
use cloudfold::yaml::typed_json::canonical;
use serde_json::{Value as J, json};
use std::path::{Path, PathBuf};
use support::fold_json::ours_with;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/userdata-rfc822")
}

/// Serves `http://example.invalid/NAME.inc` from the fixture directory.
struct FixtureIncludes;

impl IncludeResolver for FixtureIncludes {
    fn fetch(&self, url: &str) -> Fetched {
        match url
            .strip_prefix("http://example.invalid/")
            .and_then(|name| std::fs::read(dir().join(name)).ok())
        {
            Some(b) => Fetched::Content(b),
            None => Fetched::Failed(format!("no fixture for {url}")),
        }
    }
}

#[test]
fn rfc822_fixtures_match_cloud_init() {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    names.sort();
    assert!(names.len() >= 10);
    let (mut runs, mut bad) = (0, Vec::new());
    for path in &names {
        let input = std::fs::read(path).unwrap();
        let expected: J =
            serde_json::from_slice(&std::fs::read(path.with_extension("expected.json")).unwrap())
                .unwrap();
        for run in expected.as_array().unwrap() {
            let release: Release = run["release"].as_str().unwrap().parse().unwrap();
            let li = run["launch_index"].as_i64();
            let mut o = ours_with(&input, release, li, &FixtureIncludes);
            if o["error"] == json!(true) {
                o = json!({"error": true});
            }
            runs += 1;
            if canonical(&o) != canonical(&run["result"]) {
                bad.push(format!(
                    "{} {release:?} launch index {li:?}\n  ours   {}\n  oracle {}",
                    path.display(),
                    canonical(&o),
                    canonical(&run["result"])
                ));
            }
        }
    }
    eprintln!("rfc822 fixtures: {}/{runs} runs agree", runs - bad.len());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A chain of n messages hands its leaf n+1 times and each message once per
/// enclosing one: (n+1)(n+2)/2 parts, all counted against `max_parts`.
#[test]
fn repeated_parts_count_against_the_part_limit() {
    let n = 40;
    let doc = format!(
        "MIME-Version: 1.0\n{}Content-Type: text/cloud-config\n\n#cloud-config\na: 1\n",
        "Content-Type: message/rfc822\n\n".repeat(n)
    );
    let handled = (n + 1) * (n + 2) / 2;
    let with = |max_parts| UserDataOptions {
        limits: Limits {
            max_parts,
            ..Limits::default()
        },
        ..UserDataOptions::default()
    };
    let f = render(doc.as_bytes(), &with(handled), &NoIncludes).unwrap();
    assert_eq!(f.parts.len(), handled);
    // The leaf: once for itself, once per enclosing message.
    assert_eq!(
        f.parts
            .iter()
            .filter(|p| p.content_type() == "text/cloud-config")
            .map(|p| p.occurrence)
            .max(),
        Some(n + 1)
    );
    let e = render(doc.as_bytes(), &with(handled - 1), &NoIncludes).unwrap_err();
    assert!(e.to_string().contains("--max-parts"), "{e}");
}
