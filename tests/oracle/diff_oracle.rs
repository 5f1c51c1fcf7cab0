//! `diff` against the real cloud-init, on a sample of generated pairs (B a mutation of A):
//! both payloads' renders agree with cloud-init 25.1 (config, parts, `cloud-config.txt`), and
//! each payload against the `cloud-config.txt` cloud-init wrote for it shows "no change at boot".
//!
//! `CLOUDFOLD_DIFF_ORACLE_PAIRS` sets the sample (default 40; CI: 500).

use crate::support;

use cloudfold::diff::{DiffOptions, JsonView, PayloadDiff, diff, to_json};
use cloudfold::userdata::{FoldText, NoIncludes, Release, UserDataOptions};
use cloudfold::yaml::typed_json::WalkLimits;
use serde_json::{Value as J, json};
use support::diff_gen::pair;
use support::rng::Rng;

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run(a: &[u8], b: &[u8]) -> Result<PayloadDiff, String> {
    let opts = UserDataOptions {
        release: Release::V25_1,
        ..UserDataOptions::default()
    };
    diff(
        a.to_vec(),
        b.to_vec(),
        &opts,
        &NoIncludes,
        &DiffOptions::default(),
        FoldText::Nothing,
    )
    .map_err(|e| e.to_string())
}

fn json_of(d: &PayloadDiff) -> J {
    to_json(JsonView {
        diff: d,
        limits: WalkLimits::default(),
    })
    .unwrap()
}

/// The oracle's answer in the shape of [`support::fold_json::ours`] (`{"error": true}` when
/// cloud-init aborts or its dispatch raises).
fn theirs(doc: &J) -> J {
    let crash = doc["oracle_crash"].as_str().unwrap_or("");
    if !doc["error"].is_null() || (!crash.is_empty() && !crash.starts_with("UnicodeEncodeError")) {
        return json!({"error": true});
    }
    json!({"error": false, "cloud_config": doc["cloud_config"], "parts": doc["parts"], "cloud_config_txt": doc["cloud_config_txt"]})
}

/// On a sample of pairs: both payloads folded by the real cloud-init agree with cloudfold's
/// render (config, parts, cloud-config.txt), and each payload diffed against the
/// cloud-config.txt cloud-init wrote for it shows no change at boot.
#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn oracle_renders_and_cloud_config_txt() {
    use cloudfold::yaml::typed_json::canonical;
    use support::oracle_batch::{Request, assert_none, docs};
    support::shared("oracle/ci_oracle.py");
    let n = env_count("CLOUDFOLD_DIFF_ORACLE_PAIRS", 40);
    let mut r = Rng::new(0x0ac1_e000);
    let pairs: Vec<(Vec<u8>, Vec<u8>)> = (0..n).map(|_| pair(&mut r)).collect();
    let payloads: Vec<&[u8]> = pairs
        .iter()
        .flat_map(|(a, b)| [a.as_slice(), b.as_slice()])
        .collect();
    let answers = docs(
        "trixie",
        payloads.iter().map(|p| Request {
            payload: p,
            launch_index: None,
            emit_file: true,
            summary: false,
        }),
    );
    let (mut agree, mut txt_checked, mut no_file, mut aborted) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    for (i, (p, doc)) in payloads.iter().zip(&answers).enumerate() {
        let mut o = support::fold_json::ours(p, Release::V25_1, None);
        if o["error"] == json!(true) {
            o = json!({"error": true});
        }
        let t = theirs(doc);
        if canonical(&o) != canonical(&t) {
            bad.push(format!(
                "payload {i}: render disagrees with cloud-init\n{}\n  ours   {}\n  oracle {}",
                String::from_utf8_lossy(p),
                canonical(&o),
                canonical(&t)
            ));
            continue;
        }
        agree += 1;
        if t["error"] == json!(true) {
            aborted += 1;
            continue;
        }
        // No cloud-config part: cloud-init writes no cloud-config.txt.
        let txt = doc["cloud_config_txt"].as_str().unwrap_or_default();
        if txt.is_empty() {
            no_file += 1;
            continue;
        }
        txt_checked += 1;
        if let Ok(dir) = std::env::var("CLOUDFOLD_DIFF_DUMP") {
            std::fs::write(format!("{dir}/payload{i}"), p).unwrap();
            std::fs::write(format!("{dir}/payload{i}.txt"), txt).unwrap();
        }
        match run(p, txt.as_bytes()) {
            Ok(d) if d.same_at_boot() && d.new.is_cloud_config_txt => {}
            Ok(d) => bad.push(format!(
                "payload {i} against its cloud-config.txt: not \"no change at boot\"\n{}\n--- txt\n{txt}\n{}",
                String::from_utf8_lossy(p),
                json_of(&d)
            )),
            Err(e) => bad.push(format!("payload {i} against its cloud-config.txt: {e}")),
        }
    }
    eprintln!(
        "diff oracle sample: {n} pairs, {} payloads: {agree} renders agree with cloud-init 25.1 ({aborted} abort in both); {txt_checked} payloads against their cloud-config.txt ({no_file} without one), {} failures",
        payloads.len(),
        bad.len()
    );
    assert_none(&bad, 5);
}
