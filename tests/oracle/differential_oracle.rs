//! Differential: random payloads through cloudfold and through the real cloud-init (the oracle).
//!
//! `CLOUDFOLD_ORACLE_CASES` sets the count (CI: 20,000); every disagreement is printed
//! with its payload so it can become a fixture. `CLOUDFOLD_ORACLE_SEED` varies the payloads.
//! Each release runs in its own test (so in parallel), with one streaming python process.

use crate::support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::userdata::Release;
use cloudfold::yaml::typed_json::canonical;
use serde_json::{Value as J, json};
use support::fold_json::ours;
use support::{oracle_batch, payload_gen, rng::Rng};

fn theirs(doc: &J) -> J {
    // `oracle_crash`: cloud-init raised outside `process()` (e.g. `Message.walk`
    // in the handler dispatch on an archive entry whose content is a list). A boot
    // then logs "Consuming user data failed!" and merges nothing, which cloudfold
    // reports as an error. The oracle's own JSON encoder failing is not such a case.
    let crash = doc["oracle_crash"].as_str().unwrap_or("");
    if !doc["error"].is_null() || (!crash.is_empty() && !crash.starts_with("UnicodeEncodeError")) {
        return json!({"error": true});
    }
    json!({"error": false, "cloud_config": doc["cloud_config"], "parts": doc["parts"], "cloud_config_txt": doc["cloud_config_txt"]})
}

fn run(release: Release, oracle_release: &str, n: usize, seed: u64) {
    // CLOUDFOLD_ORACLE_SEED explores other payloads (mixed into each release's seed).
    let extra: u64 = std::env::var("CLOUDFOLD_ORACLE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut rng = Rng::new(seed ^ extra.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let cases: Vec<(Vec<u8>, Option<i64>)> =
        (0..n).map(|_| payload_gen::payload(&mut rng)).collect();
    let docs = oracle_batch::docs(
        oracle_release,
        cases.iter().map(|(b, li)| oracle_batch::Request {
            payload: b,
            launch_index: *li,
            emit_file: true,
            summary: false,
        }),
    );
    let mut bad = Vec::new();
    for (i, ((input, li), doc)) in cases.iter().zip(&docs).enumerate() {
        let mut o = ours(input, release, *li);
        let t = theirs(doc);
        if o["error"] == json!(true) {
            o = json!({"error": true});
        }
        if canonical(&o) != canonical(&t) {
            let detail = ours(input, release, *li)["detail"].clone();
            bad.push(format!(
                "case {i} (launch index {li:?}) payload b64 {}\n  ours   {} {detail}\n  oracle {} {} {}",
                B64.encode(input),
                canonical(&o),
                canonical(&t),
                doc["error"],
                doc["oracle_crash"]
            ));
        }
    }
    eprintln!(
        "differential vs oracle {oracle_release}: {}/{n} payloads agree",
        n - bad.len()
    );
    oracle_batch::assert_none(&bad, 20);
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_differential_oracle_22_4() {
    support::shared("oracle/ci_oracle.py");
    let n = std::env::var("CLOUDFOLD_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    run(Release::V22_4, "bookworm", n, 0x00C1_0DF0);
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn conformance_differential_oracle_25_1() {
    support::shared("oracle/ci_oracle.py");
    let n = std::env::var("CLOUDFOLD_ORACLE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    run(Release::V25_1, "trixie", n, 0x0025_0001);
}
