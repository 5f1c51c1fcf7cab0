//! Conformance: the recorded user-data vectors (whole processing, both releases).

use crate::support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::userdata::{
    HeaderValue, NoIncludes, Payload, Release, RenderError, UserDataOptions, int_from_str, render,
};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use serde_json::{Value as J, json};

const EXCLUDED: &[&str] = &[
    "content-type",
    "mime-version",
    "content-disposition",
    "content-transfer-encoding",
    "launch-index",
];

fn header_json(v: &HeaderValue) -> J {
    match v {
        HeaderValue::Text(t) => J::String(t.clone()),
        HeaderValue::Value(n) => to_typed_json(n, WalkLimits::default()).unwrap_or(J::Null),
    }
}

fn check_case(case: &J, release: Release) -> Result<(), String> {
    let input = B64.decode(case["input_b64"].as_str().unwrap()).unwrap();
    let launch_index = match &case["launch_index"] {
        J::Null => None,
        J::Number(n) => n.as_i64(),
        J::String(s) => int_from_str(s).and_then(|i| i.as_i64()),
        _ => None,
    };
    let mut expected = case["expected"].clone();
    if release == Release::V22_4
        && let Some(d) = case.get("expected_22_4_2_differs").and_then(J::as_object)
    {
        for (k, v) in d {
            if k == "processing_error" {
                expected[k] = v.clone();
            } else {
                expected["cloud_config"][k] = v.clone();
            }
        }
    }
    let opts = UserDataOptions {
        release,
        launch_index,
        ..UserDataOptions::default()
    };
    let got = render(&input, &opts, &NoIncludes);
    if expected.get("processing_error").is_some() {
        return match got {
            Err(RenderError::Process(_)) => Ok(()),
            Err(e) => Err(format!("expected a processing error, got {e}")),
            Ok(_) => Err("expected a processing error, got a fold".into()),
        };
    }
    let folded = got.map_err(|e| format!("unexpected error: {e}"))?;
    let exp_parts = expected["parts"].as_array().unwrap();
    if exp_parts.len() != folded.parts.len() {
        return Err(format!(
            "{} parts, expected {}",
            folded.parts.len(),
            exp_parts.len()
        ));
    }
    for (i, (p, e)) in folded.parts.iter().zip(exp_parts).enumerate() {
        let li: Vec<J> = p
            .leaf
            .get_all("Launch-Index")
            .map(|v| J::String(v.to_py_str().to_string_lossy().into_owned()))
            .collect();
        let mut extra = serde_json::Map::new();
        for (n, v) in &p.leaf.headers {
            if EXCLUDED.contains(&n.to_ascii_lowercase().as_str()) || extra.contains_key(n.as_ref())
            {
                continue;
            }
            let first = p.leaf.get(n).unwrap_or(v);
            extra.insert(n.to_string(), header_json(first));
        }
        let payload = match p.leaf.payload() {
            Payload::Text(t) => match t.as_str() {
                Some(s) => json!({"text": s}),
                None => {
                    json!({"text_surrogateescaped_b64": B64.encode(t.to_utf8_surrogateescape().unwrap_or_default())})
                }
            },
            Payload::Bytes(b) => json!({"bytes_b64": B64.encode(b)}),
            Payload::None => J::Null,
        };
        let ours = json!({
            "content_type": p.content_type(),
            "filename": p.filename(),
            "launch_index_headers": li,
            "extra_headers": extra,
            "payload": payload,
        });
        if canonical(&ours) != canonical(e) {
            return Err(format!(
                "part {}: got {}\n   expected {}",
                i + 1,
                canonical(&ours),
                canonical(e)
            ));
        }
    }
    let ecc = &expected["cloud_config"];
    let txt = ecc["cloud_config_txt"].as_str().unwrap_or("");
    if folded.cloud_config_txt != txt {
        return Err(format!(
            "cloud-config.txt:\n--- got\n{}\n--- expected\n{}",
            folded.cloud_config_txt, txt
        ));
    }
    let fnames: Vec<J> = folded
        .file_names
        .iter()
        .map(|s| J::String(s.clone()))
        .collect();
    if J::Array(fnames) != ecc["file_names"] {
        return Err(format!(
            "file_names {:?}, expected {}",
            folded.file_names, ecc["file_names"]
        ));
    }
    if release == Release::V25_1 {
        let enames: Vec<J> = folded
            .error_file_names
            .iter()
            .map(|s| J::String(s.clone()))
            .collect();
        if J::Array(enames) != ecc["error_file_names"] {
            return Err(format!(
                "error_file_names {:?}, expected {}",
                folded.error_file_names, ecc["error_file_names"]
            ));
        }
    }
    if let Some(cfg) = &folded.config {
        let ours = to_typed_json(cfg, WalkLimits::default()).map_err(|e| e.to_string())?;
        // JSON cannot hold non-string keys; those cases are covered by cloud_config_txt.
        if !canonical(&ours).contains("\"$int:") && canonical(&ours) != canonical(&ecc["buf"]) {
            return Err(format!(
                "buf {}, expected {}",
                canonical(&ours),
                canonical(&ecc["buf"])
            ));
        }
    } else if !ecc["buf"].is_null() {
        return Err(format!("no config, expected {}", ecc["buf"]));
    }
    Ok(())
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_userdata_vectors() {
    support::run_vector_file(
        "conformance/cloud-init-generated/userdata-vectors.json",
        "userdata",
        check_case,
    );
}
