//! `build --terraform-external` against Terraform's `external` data source protocol as its documentation states it (no Terraform binary here).
//!
//! The protocol: the program reads one JSON object from stdin, the `query`
//! argument, whose values are always strings; it prints one JSON object whose
//! values are all strings on stdout, which becomes `result`; on an error it
//! prints a human-readable message on stderr and exits non-zero (stdout is then
//! ignored).

use super::tools::{bin, repo_root, run};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Value, json};
use std::io::Read;
use std::path::Path;

fn external(query: &Value) -> std::process::Output {
    let examples = repo_root().join("examples");
    run(
        Path::new(bin()),
        &["build", "--terraform-external"],
        &examples,
        query.to_string().as_bytes(),
    )
}

/// The result object: exit 0, stdout one JSON object of strings, nothing else.
fn result(query: &Value) -> serde_json::Map<String, Value> {
    let out = external(query);
    assert!(
        out.status.success(),
        "{query}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    let Value::Object(map) = value else {
        panic!("stdout is not an object")
    };
    for (k, v) in &map {
        assert!(v.is_string(), "result value {k} is not a string: {v}");
    }
    map
}

/// The default result is `cloudinit_config`'s: the Terraform-style MIME, gzip'ed,
/// base64'd; the sizes are those of the strings and bytes returned; the MIME is
/// byte for byte what `cloudfold build --style terraform` writes for the same parts.
#[test]
fn default_result_is_gzip_base64_of_the_built_mime() {
    let manifest = "merge_type: append\nparts:\n  - path: base.yaml\n  - path: extra.yaml\n";
    let r = result(&json!({ "manifest": manifest }));
    let rendered = r["rendered"].as_str().unwrap();
    assert_eq!(r["size"], rendered.len().to_string());
    let gz = B64.decode(rendered).unwrap();
    assert_eq!(r["gzip_size"], gz.len().to_string());
    let mut mime = Vec::new();
    flate2::read::GzDecoder::new(gz.as_slice())
        .read_to_end(&mut mime)
        .unwrap();
    assert_eq!(r["mime_size"], mime.len().to_string());
    let cli = run(
        Path::new(bin()),
        &[
            "build",
            "--style",
            "terraform",
            "--merge-type",
            "append",
            "base.yaml",
            "extra.yaml",
        ],
        &repo_root().join("examples"),
        b"",
    );
    assert!(cli.status.success());
    assert_eq!(mime, cli.stdout);
    assert_eq!(r["parts"], "2");
    assert_eq!(r["boundary"], "MIMEBOUNDARY");
    assert_eq!(r["warnings"], "0");

    // The same parts as JSON (`jsonencode`) with `base_dir`, plain: the MIME itself.
    let r = result(&json!({
        "manifest": json!({"merge_type": "append", "parts": [{"path": "base.yaml"}, {"path": "extra.yaml"}]}).to_string(),
        "base_dir": repo_root().join("examples").display().to_string(),
        "gzip": "false",
        "base64": "false",
    }));
    assert_eq!(r["rendered"].as_str().unwrap().as_bytes(), cli.stdout);
}

/// Terraform sends only strings: a query value of any other JSON type is an error,
/// as are stdin that is not a JSON object, unknown keys and invalid user-data. Each
/// error: non-zero exit, a message on stderr, nothing on stdout.
#[test]
fn errors_follow_the_protocol() {
    let ok_manifest = "parts: [{content: \"#!/bin/sh\\n\"}]";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "null value",
            json!({"manifest": ok_manifest, "gzip": null})
                .to_string()
                .into_bytes(),
            "is null",
        ),
        (
            "bool value",
            json!({"manifest": ok_manifest, "gzip": false})
                .to_string()
                .into_bytes(),
            "is a boolean",
        ),
        (
            "number value",
            json!({"manifest": ok_manifest, "cloud_init": 25.1})
                .to_string()
                .into_bytes(),
            "is a number",
        ),
        (
            "list value",
            json!({"manifest": ["a"]}).to_string().into_bytes(),
            "is an array",
        ),
        (
            "map value",
            json!({"manifest": {"parts": []}}).to_string().into_bytes(),
            "is an object",
        ),
        ("not JSON", b"manifest=x".to_vec(), "not JSON"),
        ("empty stdin", Vec::new(), "not JSON"),
        (
            "not an object",
            b"[\"x\"]".to_vec(),
            "must be a JSON object",
        ),
        (
            "unknown key",
            json!({"manifest": ok_manifest, "gzipped": "true"})
                .to_string()
                .into_bytes(),
            "unknown query key `gzipped`",
        ),
        ("no manifest", b"{}".to_vec(), "needs `manifest`"),
        (
            "bad flag",
            json!({"manifest": ok_manifest, "gzip": "yes"})
                .to_string()
                .into_bytes(),
            "\"true\" or \"false\"",
        ),
        (
            "raw gzip",
            json!({"manifest": ok_manifest, "base64": "false"})
                .to_string()
                .into_bytes(),
            "gzip without base64",
        ),
        (
            "invalid YAML",
            json!({"manifest": "parts: [{content: \"#cloud-config\\na: [\"}]"})
                .to_string()
                .into_bytes(),
            "part-yaml-invalid",
        ),
        (
            "missing path",
            json!({"manifest": "parts: [{path: nope.yaml}]"})
                .to_string()
                .into_bytes(),
            "nope.yaml",
        ),
    ];
    for (what, stdin, says) in cases {
        let out = run(
            Path::new(bin()),
            &["build", "--terraform-external"],
            &repo_root().join("examples"),
            &stdin,
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what}: exit 0");
        assert!(out.stdout.is_empty(), "{what}: stdout {:?}", out.stdout);
        assert!(err.contains(says), "{what}: stderr {err}");
    }
}

/// `strict = "true"` fails the plan on warnings too, and reports a part another
/// agent reads as cloud-init sees it; without it, that part is a note in `diagnostics`.
#[test]
fn strict_and_other_agents() {
    let manifest = "parts:\n  - type: application/node.eks.aws\n    content: \"---\\nkind: NodeConfig\\n\"\n  - content: \"#!/bin/sh\\n\"\n";
    let r = result(&json!({"manifest": manifest}));
    assert_eq!(r["notes"], "1");
    assert!(
        r["diagnostics"]
            .as_str()
            .unwrap()
            .contains("part-other-agent")
    );
    let out = external(&json!({"manifest": manifest, "strict": "true"}));
    assert_eq!(out.status.code(), Some(5));
    assert!(String::from_utf8_lossy(&out.stderr).contains("part-unknown-type"));
}
