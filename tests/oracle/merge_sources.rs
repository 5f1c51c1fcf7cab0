//! The 12 upstream merge cases (../shared/conformance/cloud-init-merge-sources), merged part by part as the cloud-config handler does.
//!
//! Files are loaded with the crate's loader (`yaml.safe_load`).

// Test harness: a failed unwrap is a failed test.

use crate::support;

use cloudfold::merge::cloud_init::{Version, prepare_part};
use cloudfold::yaml::typed_json::{WalkLimits, to_typed_json};
use cloudfold::yaml::value::{Map, Node, Value, py_eq};
use cloudfold::yaml::{self, LoadOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const CORPUS: &str = "conformance/cloud-init-merge-sources";

fn load_file(path: &Path) -> Node {
    let text = std::fs::read_to_string(path).unwrap();
    yaml::load(&text, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .unwrap_or_else(|| panic!("{} is empty", path.display()))
}

/// N of `sourceN-M.yaml` / `expectedN.yaml`.
fn case_number(name: &str) -> Option<u32> {
    let rest = name
        .strip_prefix("source")
        .or_else(|| name.strip_prefix("expected"))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_merge_sources() {
    let dir = support::shared(CORPUS);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut cases: BTreeMap<u32, (Vec<&PathBuf>, Option<&PathBuf>)> = BTreeMap::new();
    for f in &files {
        let name = f.file_name().unwrap().to_str().unwrap();
        let n = case_number(name).unwrap_or_else(|| panic!("bad corpus file name {name}"));
        let entry = cases.entry(n).or_default();
        if name.starts_with("source") {
            entry.0.push(f);
        } else {
            entry.1 = Some(f);
        }
    }
    assert_eq!(cases.len(), 12);
    let mut failures = Vec::new();
    for (n, (sources, expected)) in &cases {
        let expected = expected.unwrap_or_else(|| panic!("case {n} has no expected file"));
        // Parts in lexicographic order of their full path.
        let mut acc = Node::synthetic(Value::Map(Map::default()));
        for src in sources {
            let part = load_file(src);
            assert!(
                part.as_map().is_some(),
                "{} is not a mapping",
                src.display()
            );
            match prepare_part(&part, None, Version::V25_1).and_then(|p| p.merge_into(&acc)) {
                Ok(merged) => acc = merged,
                Err(e) => failures.push(format!("case {n}: {} failed: {e}", src.display())),
            }
        }
        let want = load_file(expected);
        if !py_eq(&acc, &want) {
            failures.push(format!(
                "case {n}: got {}, want {}",
                to_typed_json(&acc, WalkLimits::default()).unwrap(),
                to_typed_json(&want, WalkLimits::default()).unwrap()
            ));
        }
    }
    eprintln!(
        "merge sources: {}/{} cases pass",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
