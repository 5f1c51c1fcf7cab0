//! Conformance: the recorded cloud-config handler vectors (multi-part merging, `cloud-config.txt` bytes).

use crate::support;

use cloudfold::source::SourceId;
use cloudfold::userdata::{
    Body, CloudConfigHandler, HeaderValue, Leaf, Origin, Release, UserDataOptions,
};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use serde_json::Value as J;

fn check_case(case: &J, release: Release) -> Result<(), String> {
    let mut expected = case["expected"].clone();
    if release == Release::V22_4
        && let Some(d) = case.get("expected_22_4_2_differs").and_then(J::as_object)
    {
        for (k, v) in d {
            expected[k] = v.clone();
        }
    }
    let opts = UserDataOptions {
        release,
        ..UserDataOptions::default()
    };
    let mut handler = CloudConfigHandler::new(&opts);
    for (i, p) in case["parts"].as_array().unwrap().iter().enumerate() {
        let headers = p["headers"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| {
                (
                    k.clone().into(),
                    HeaderValue::Text(v.as_str().unwrap_or_default().to_owned()),
                )
            })
            .collect();
        let leaf = Leaf {
            headers,
            content_type: p["ctype"].as_str().unwrap().to_owned(),
            body: Body::Bytes(p["payload"].as_str().unwrap().as_bytes().to_vec().into()),
            filename: Some(p["filename"].as_str().unwrap().to_owned()),
            origin: Origin::Whole,
        };
        let _ = handler.handle(&leaf, SourceId(i as u32));
    }
    let txt = handler.cloud_config_txt().map_err(|e| e.to_string())?;
    let want = expected["cloud_config_txt"].as_str().unwrap_or("");
    if txt != want {
        return Err(format!(
            "cloud-config.txt:\n--- got\n{txt}\n--- expected\n{want}"
        ));
    }
    let names: Vec<J> = handler
        .file_names()
        .iter()
        .map(|s| J::String(s.clone()))
        .collect();
    if J::Array(names) != expected["file_names"] {
        return Err(format!(
            "file_names {:?}, expected {}",
            handler.file_names(),
            expected["file_names"]
        ));
    }
    if release == Release::V25_1 {
        let names: Vec<J> = handler
            .error_file_names()
            .iter()
            .map(|s| J::String(s.clone()))
            .collect();
        if J::Array(names) != expected["error_file_names"] {
            return Err(format!(
                "error_file_names {:?}, expected {}",
                handler.error_file_names(),
                expected["error_file_names"]
            ));
        }
    }
    match handler.config() {
        Some(cfg) => {
            let ours =
                canonical(&to_typed_json(cfg, WalkLimits::default()).map_err(|e| e.to_string())?);
            if !ours.contains("\"$int:") && ours != canonical(&expected["buf"]) {
                return Err(format!(
                    "buf {ours}, expected {}",
                    canonical(&expected["buf"])
                ));
            }
        }
        None if !expected["buf"].is_null() => {
            return Err(format!("no buf, expected {}", expected["buf"]));
        }
        None => {}
    }
    Ok(())
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_handler_vectors() {
    support::run_vector_file(
        "conformance/cloud-init-generated/handler-vectors.json",
        "handler",
        check_case,
    );
}
