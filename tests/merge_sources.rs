//! The 12 upstream merge cases (../shared/conformance/cloud-init-merge-sources), merged part by part as the cloud-config handler does.
//!
//! Until the crate's YAML loader lands, the files are loaded by PyYAML
//! (`yaml.safe_load`, run as a subprocess) and handed over as typed JSON.

// Test harness: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cloudfold::merge::cloud_init::{Version, prepare_part};
use cloudfold::yaml::typed_json::{WalkLimits, from_typed_json, to_typed_json};
use cloudfold::yaml::value::{Map, Node, Value, py_eq};
use serde_json::Value as J;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const CORPUS: &str = "conformance/cloud-init-merge-sources";

/// `../shared` beside the repo, or `$CLOUDFOLD_SHARED` (for worktrees).
fn shared_dir() -> PathBuf {
    match std::env::var_os("CLOUDFOLD_SHARED") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

const LOADER: &str = r#"
import base64, datetime, json, sys, yaml
def enc(v):
    if v is None or isinstance(v, (bool, int, float, str)): return v
    if isinstance(v, bytes): return {"$bytes_b64": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime): return {"$datetime": v.isoformat()}
    if isinstance(v, datetime.date): return {"$date": v.isoformat()}
    if isinstance(v, list): return [enc(x) for x in v]
    if isinstance(v, tuple): return {"$tuple": [enc(x) for x in v]}
    if isinstance(v, dict): return {key(k): enc(x) for k, x in v.items()}
    raise SystemExit("unsupported %r" % type(v))
def key(k):
    if isinstance(k, str): return "$str:" + k if k.startswith("$") else k
    if isinstance(k, bool): return "$bool:" + ("true" if k else "false")
    if isinstance(k, int): return "$int:%d" % k
    if k is None: return "$null"
    raise SystemExit("unsupported key %r" % (k,))
out = {}
for p in sys.argv[1:]:
    with open(p, encoding="utf-8") as f:
        out[p] = enc(yaml.safe_load(f))
json.dump(out, sys.stdout)
"#;

fn load_all(files: &[PathBuf]) -> BTreeMap<String, J> {
    let out = Command::new("python3")
        .arg("-c")
        .arg(LOADER)
        .args(files)
        .output()
        .expect("python3 with PyYAML");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
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
fn conformance_merge_sources() {
    let dir = shared_dir().join(CORPUS);
    if !dir.exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} is missing (CI=true)",
            dir.display()
        );
        eprintln!("SKIPPED: {} is missing", dir.display());
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let loaded = load_all(&files);
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
            let part = from_typed_json(&loaded[src.to_str().unwrap()]).unwrap();
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
        let want = from_typed_json(&loaded[expected.to_str().unwrap()]).unwrap();
        if !py_eq(&acc, &want) {
            failures.push(format!(
                "case {n}: got {}, want {}",
                to_typed_json(&acc, WalkLimits::default()).unwrap(),
                loaded[expected.to_str().unwrap()]
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
