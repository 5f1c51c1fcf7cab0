//! The YAML-only cases of handler-vectors.json (../shared/conformance/cloud-init-generated): the handler's merge steps part by part.
//!
//! A minimal stand-in for the cloud-config handler around
//! [`prepare_part`]: header choice, "no part succeeded yet → reset to {}",
//! ValueError → error-listed. Payloads are loaded by PyYAML (`safe_load`, as
//! a subprocess) until the crate's loader lands; JSON-patch cases are left to
//! the handler's own tests.

// Test harness: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cloudfold::merge::cloud_init::{Version, prepare_part};
use cloudfold::yaml::typed_json::from_typed_json;
use cloudfold::yaml::value::{Map, Node, Value, py_float_repr};
use serde_json::{Map as JMap, Value as J, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const VECTORS: &str = "conformance/cloud-init-generated/handler-vectors.json";

/// `../shared` beside the repo, or `$CLOUDFOLD_SHARED` (for worktrees).
fn shared_dir() -> PathBuf {
    match std::env::var_os("CLOUDFOLD_SHARED") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// Loads every payload: `{"ok": typed}`, `{"none": true}` or `{"error": class}`.
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
    if isinstance(k, float): return "$float:" + repr(k)
    if k is None: return "$null"
    raise SystemExit("unsupported key %r" % (k,))
out = []
for text in json.load(sys.stdin):
    try:
        v = yaml.safe_load(text)
    except Exception as e:
        out.append({"error": type(e).__name__}); continue
    out.append({"none": True} if v is None else {"ok": enc(v)})
json.dump(out, sys.stdout)
"#;

fn load_payloads(texts: &[&str]) -> Vec<J> {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(LOADER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 with PyYAML");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(texts).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Python's `json.dumps` view of a value (keys made strings as it does).
fn plain_json(n: &Node) -> J {
    match n.value() {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => serde_json::from_str(&i.to_string()).unwrap(),
        Value::Float(f) => json!(f),
        Value::Str(s) => J::String(s.to_string_lossy().into_owned()),
        Value::Seq(s) | Value::Tuple(s) => J::Array(s.iter().map(plain_json).collect()),
        Value::Map(m) => {
            let mut out = JMap::new();
            for (k, v) in m.iter() {
                let key = match k.value() {
                    Value::Str(s) => s.to_string_lossy().into_owned(),
                    Value::Int(i) => i.to_string(),
                    Value::Bool(b) => b.to_string(),
                    Value::Null => "null".into(),
                    Value::Float(f) => py_float_repr(*f),
                    other => panic!("key {other:?}"),
                };
                out.insert(key, plain_json(v));
            }
            J::Object(out)
        }
        other => panic!("value {other:?}"),
    }
}

fn header(headers: &J) -> Option<&str> {
    ["Merge-Type", "X-Merge-Type"]
        .iter()
        .filter_map(|h| headers.get(*h).and_then(J::as_str))
        .find(|v| !v.is_empty())
}

#[test]
fn conformance_handler_vectors_yaml_parts() {
    let path = shared_dir().join(VECTORS);
    if !path.exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} is missing (CI=true)",
            path.display()
        );
        eprintln!("SKIPPED: {} is missing", path.display());
        return;
    }
    let doc: J = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let cases: Vec<&J> = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            c["parts"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["ctype"] == "text/cloud-config")
        })
        .collect();
    let texts: Vec<&str> = cases
        .iter()
        .flat_map(|c| c["parts"].as_array().unwrap().iter())
        .map(|p| p["payload"].as_str().unwrap())
        .collect();
    let mut loaded = load_payloads(&texts).into_iter();
    let mut failures = Vec::new();
    for case in &cases {
        let mut buf: Option<Node> = None;
        let (mut files, mut errors) = (Vec::<String>::new(), Vec::<String>::new());
        for part in case["parts"].as_array().unwrap() {
            if buf.is_none() || files.is_empty() {
                buf = Some(Node::synthetic(Value::Map(Map::default())));
            }
            let acc = buf.clone().unwrap();
            let filename = part["filename"].as_str().unwrap();
            let load = loaded.next().unwrap();
            let result = match load.get("ok").map(|j| from_typed_json(j).unwrap()) {
                // Empty, YAML error or non-mapping root: ValueError "empty cloud config".
                Some(root) if root.as_map().is_some() => {
                    prepare_part(&root, header(&part["headers"]), Version::V25_1)
                        .and_then(|p| p.merge_into(&acc))
                        .map_err(|e| e.is_value_error())
                }
                _ => Err(true),
            };
            match result {
                Ok(merged) => {
                    buf = Some(merged);
                    files.push(filename.replace(['\n', '\r', '\t'], " ").trim().to_owned());
                }
                Err(true) => errors.push(filename.trim().to_owned()),
                Err(false) => {}
            }
        }
        let want = &case["expected"];
        let got_buf = buf.as_ref().map_or(J::Null, plain_json);
        if got_buf != want["buf"]
            || json!(files) != want["file_names"]
            || json!(errors) != want["error_file_names"]
        {
            failures.push(format!(
                "{}: got buf {got_buf} files {files:?} errors {errors:?}; want {} {} {}",
                case["id"], want["buf"], want["file_names"], want["error_file_names"]
            ));
        }
    }
    eprintln!(
        "handler vectors (YAML parts only): {}/{} pass ({} JSON-patch cases left to the handler tests)",
        cases.len() - failures.len(),
        cases.len(),
        doc["cases"].as_array().unwrap().len() - cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
