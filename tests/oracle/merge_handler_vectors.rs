//! The YAML-only cases of handler-vectors.json (../shared/conformance/cloud-init-generated): the handler's merge steps part by part.
//!
//! A minimal stand-in for the cloud-config handler around
//! [`prepare_part`]: header choice, "no part succeeded yet → reset to {}",
//! ValueError → error-listed. Payloads are loaded with the crate's loader;
//! JSON-patch cases are left to the handler's own tests.

// Test harness: a failed unwrap is a failed test.

use crate::support;

use cloudfold::merge::cloud_init::{Version, prepare_part};
use cloudfold::yaml::value::{Map, Node, Value, py_float_repr};
use cloudfold::yaml::{self, DumpOptions, LoadOptions};
use serde_json::{Map as JMap, Value as J, json};

const VECTORS: &str = "conformance/cloud-init-generated/handler-vectors.json";

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

/// `cloud-config.txt` as the 25.1 handler writes it (spec §9.5).
fn cloud_config_txt(buf: Option<&Node>, files: &[String], errors: &[String]) -> String {
    let Some(buf) = buf else { return String::new() };
    let mut lines = vec!["#cloud-config".to_owned(), String::new()];
    if !files.is_empty() {
        lines.push(format!("# from {} files", files.len()));
        for f in files {
            lines.push(format!("# {}", if f.is_empty() { "?" } else { f }));
        }
        lines.push(String::new());
    }
    for f in errors {
        lines.push(format!("# Cloud-config part ignored SCHEMA_ERROR: {f}"));
    }
    lines.push(yaml::dump(buf, &DumpOptions::cloud_init()).unwrap());
    lines.join("\n")
}

fn header(headers: &J) -> Option<&str> {
    ["Merge-Type", "X-Merge-Type"]
        .iter()
        .filter_map(|h| headers.get(*h).and_then(J::as_str))
        .find(|v| !v.is_empty())
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_handler_vectors_yaml_parts() {
    let path = support::shared(VECTORS);
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
            let loaded = yaml::load(part["payload"].as_str().unwrap(), &LoadOptions::default());
            let result = match loaded.ok().flatten() {
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
        let txt = cloud_config_txt(buf.as_ref(), &files, &errors);
        if want["cloud_config_txt"].as_str() != Some(txt.as_str()) {
            failures.push(format!(
                "{}: cloud-config.txt\n{txt}\nwant\n{}",
                case["id"],
                want["cloud_config_txt"].as_str().unwrap()
            ));
        }
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
