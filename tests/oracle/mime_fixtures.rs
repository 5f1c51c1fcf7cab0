//! The MIME samples of ../shared against the live oracle (CPython's `email`). The
//! recorded corpus is in tests/integration/mime_fixtures.rs.

use crate::support::mime as mime_support;

use base64::Engine as _;
use std::io::Read as _;

/// The MIME user-data samples shipped in ../shared (cloud-init's own test emails
/// and the oracle samples), compared with the live Python oracle.
#[test]
#[ignore = "needs ../shared and python3: scripts/conformance.sh runs it"]
fn shared_samples_match_python() {
    let shared = crate::support::shared(".");
    assert!(mime_support::python_available(), "python3 is not available");
    let mut files = Vec::new();
    for (dir, pred) in [
        ("conformance/cloud-init-userdata-samples", "email"),
        ("oracle/samples", "txt"),
    ] {
        for e in std::fs::read_dir(shared.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == pred) {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut blobs: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    // The user-data vectors generated from cloud-init: raw payloads (base64).
    let vectors = shared.join("conformance/cloud-init-generated/userdata-vectors.json");
    let text = std::fs::read_to_string(&vectors).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for case in v["cases"].as_array().unwrap() {
        if let Some(b64) = case["input_b64"].as_str() {
            blobs.push(
                base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap(),
            );
        }
    }
    // cloud-init's rule: one gzip layer off, MIME iff `mime-version:` in the
    // first 4096 bytes, strict UTF-8. (cloud-init's own .email samples start
    // with a `From ` line and are read as MIME by its tests.)
    let docs: Vec<String> = blobs
        .into_iter()
        .map(|b| {
            let mut out = Vec::new();
            match flate2::read::GzDecoder::new(&b[..]).read_to_end(&mut out) {
                Ok(_) => out,
                Err(_) => b,
            }
        })
        .filter(|b| {
            b.starts_with(b"From ")
                || b[..b.len().min(4096)]
                    .to_ascii_lowercase()
                    .windows(13)
                    .any(|w| w == b"mime-version:")
        })
        .filter_map(|b| String::from_utf8(b).ok())
        .collect();
    assert!(!docs.is_empty());
    let expected = mime_support::oracle(&docs);
    for (d, e) in docs.iter().zip(&expected) {
        let ours = mime_support::describe(d);
        assert!(
            ours == *e,
            "{d:?}: {:?}",
            mime_support::first_diff(&ours, e, "")
        );
    }
    eprintln!(
        "mime shared samples: {} documents agree with Python",
        docs.len()
    );
}
