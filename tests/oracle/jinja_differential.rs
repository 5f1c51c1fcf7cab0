//! Differential: random jinja user-data and instance data through cloudfold and through cloud-init (the oracle).
//!
//! Compares the merged config, the parts list and cloud-init's jinja warnings
//! (`cloudinit.handlers.jinja_template`, and `run_part`'s "Failed calling
//! handler JinjaTemplatePartHandler"). 22.4 runs with Jinja2 3.1.2 (bookworm's)
//! when `~/.cache/cloudfold-oracle/jinja2-3.1.2` holds it (`pip install --target`,
//! scripts/conformance.sh does), else with the oracle's 3.1.6, said loudly.
//! A case cloudfold refuses ("cannot reproduce exactly") counts as a disagreement.
//! `CLOUDFOLD_JINJA_CASES` sets the count per release (default 300). The oracle is
//! `scripts/jinja_oracle.py`, the batch split over `CLOUDFOLD_ORACLE_PROCS` processes.

use crate::support;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::jinja::{InstanceData, JinjaRender};
use cloudfold::userdata::{NoIncludes, PartOutcome, Release, UserDataOptions, render};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use serde_json::{Value as J, json};
use support::{jinja_gen, rng::Rng};

fn ours(payload: &[u8], data: &[u8], release: Release) -> (J, bool) {
    let inst = InstanceData::from_json(data).ok().map(std::sync::Arc::new);
    let opts = UserDataOptions {
        release,
        instance_data: inst,
        ..UserDataOptions::default()
    };
    match render(payload, &opts, &NoIncludes) {
        Err(e) => (json!({"error": true, "detail": e.to_string()}), false),
        Ok(f) => {
            let mut unsupported = false;
            let cfg = f.config.as_ref().map_or(J::Null, |c| {
                to_typed_json(c, WalkLimits::default()).unwrap_or(J::Null)
            });
            let mut warnings = Vec::new();
            let parts: Vec<J> = f
                .parts
                .iter()
                .map(|p| {
                    if matches!(p.jinja.as_deref(), Some(JinjaRender::Unsupported(_) | JinjaRender::Limit(_))) {
                        unsupported = true;
                        warnings.push(J::String(format!("UNSUPPORTED {:?}", p.jinja)));
                    }
                    warnings.extend(p.jinja_logs(release).iter().map(|l| warning_json(&l.to_string())));
                    json!({
                        "content_type": p.content_type(),
                        "filename": p.filename(),
                        "handler": p.part_type.handler_name(),
                        "merged": match &p.outcome { PartOutcome::Merged => J::Bool(true), PartOutcome::Rejected(_) => J::Bool(false), _ => J::Null },
                    })
                })
                .collect();
            (
                json!({"error": false, "cloud_config": cfg, "parts": parts, "warnings": warnings}),
                unsupported,
            )
        }
    }
}

/// A warning as the oracle encodes it: a message holding lone surrogates
/// (bytes that were not UTF-8; stand-ins here) as its surrogateescape bytes.
fn warning_json(message: &str) -> J {
    if message.contains(|c: char| (0x10_FF80..=0x10_FFFF).contains(&u32::from(c))) {
        json!({"$str_surrogateescape_b64": B64.encode(cloudfold::jinja::encode_escaped(message))})
    } else {
        J::String(message.to_owned())
    }
}

/// A warning's text, surrogates as U+FFFD (for selecting by logger).
fn warning_text(w: &J) -> String {
    match w {
        J::String(s) => s.clone(),
        _ => w["$str_surrogateescape_b64"]
            .as_str()
            .and_then(|b| B64.decode(b).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default(),
    }
}

fn theirs(doc: &J) -> J {
    if !doc["error"].is_null() || doc.get("oracle_crash").is_some() {
        return json!({"error": true});
    }
    let parts: Vec<J> = doc["parts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|p| json!({"content_type": p["content_type"], "filename": p["filename"], "handler": p["handler"], "merged": p["merged"]}))
        .collect();
    let warnings: Vec<J> = doc["warnings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|w| {
            let w = warning_text(w);
            w.contains("[cloudinit.handlers.jinja_template]")
                || w.contains("Failed calling handler JinjaTemplatePartHandler")
        })
        .collect();
    json!({"error": false, "cloud_config": doc["cloud_config"], "parts": parts, "warnings": warnings})
}

/// The oracle's doc for every case, from `scripts/jinja_oracle.py` (oracle_batch.py's
/// requests and answers, its per-process set-up hoisted), the batch split over
/// `CLOUDFOLD_ORACLE_PROCS` python processes (default: one per core).
fn oracle(release: &str, jinja_dir: Option<&str>, cases: &[(Vec<u8>, Vec<u8>)]) -> Vec<J> {
    let args: Vec<&str> = jinja_dir.map_or_else(Vec::new, |d| vec!["--jinja2", d]);
    support::oracle_batch::docs_of_script_lines(
        "jinja_oracle.py",
        &args,
        release,
        cases.iter().map(|(p, d)| {
            json!({"b64": B64.encode(p), "instance_data_b64": B64.encode(d),
                   "launch_index": null, "emit_file": false, "summary": false})
        }),
    )
}

fn run(release: Release, oracle_release: &str, seed: u64) {
    support::shared("oracle/ci_oracle.py");
    let n = support::diff_cases(0).max(
        std::env::var("CLOUDFOLD_JINJA_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300),
    );
    let mut jinja_dir = None;
    if release == Release::V22_4 {
        let d = std::env::var("HOME").unwrap_or_default() + "/.cache/cloudfold-oracle/jinja2-3.1.2";
        if std::path::Path::new(&d).join("jinja2").exists() {
            jinja_dir = Some(d);
        } else if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI: Jinja2 3.1.2 for bookworm is missing at {d}");
        } else {
            eprintln!("\n*** 22.4 runs with the oracle's Jinja2 3.1.6: {d} is missing ***\n");
        }
    }
    let extra: u64 = std::env::var("CLOUDFOLD_ORACLE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut rng = Rng::new(seed ^ extra.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let cases: Vec<(Vec<u8>, Vec<u8>)> = (0..n).map(|_| jinja_gen::case(&mut rng)).collect();
    let t0 = std::time::Instant::now();
    let docs = oracle(oracle_release, jinja_dir.as_deref(), &cases);
    let oracle_s = t0.elapsed().as_secs_f64();
    let mut bad = Vec::new();
    let mut refused = 0;
    // Disagreements by class: (count, index in `bad` of the first one).
    let mut classes = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for (i, ((payload, data), doc)) in cases.iter().zip(&docs).enumerate() {
        let (o, unsupported) = ours(payload, data, release);
        refused += usize::from(unsupported);
        let t = theirs(doc);
        let o = if o["error"] == json!(true) {
            json!({"error": true})
        } else {
            o
        };
        if canonical(&o) != canonical(&t) {
            let class = class_of(&o, &t);
            let seen = classes.entry(class).or_insert((0, bad.len()));
            seen.0 += 1;
            bad.push(format!(
                "case {i}\n  payload {:?}\n  data {}\n  ours   {}\n  oracle {}",
                String::from_utf8_lossy(payload),
                String::from_utf8_lossy(data),
                canonical(&o),
                canonical(&t)
            ));
        }
    }
    eprintln!(
        "jinja differential vs oracle {oracle_release}: {}/{n} payloads agree ({refused} refused as unsupported); oracle {oracle_s:.1} s ({:.0} cases/s)",
        n - bad.len(),
        n as f64 / oracle_s.max(1e-9)
    );
    let mut by_count: Vec<_> = classes.into_iter().collect();
    by_count.sort_by_key(|(_, (count, _))| std::cmp::Reverse(*count));
    for (class, (count, _)) in &by_count {
        eprintln!("  {count:5}  {class}");
    }
    // The first example of each class, most frequent class first.
    let examples: Vec<String> = by_count
        .iter()
        .map(|(class, (count, first))| format!("[{count} x {class}] {}", bad[*first]))
        .collect();
    assert!(
        bad.is_empty(),
        "{} disagreements in {} classes; the first of each:\n{}",
        bad.len(),
        examples.len(),
        examples.join("\n\n")
    );
}

/// What a disagreement is about: the construct cloudfold refused, else the fields that differ.
fn class_of(ours: &J, theirs: &J) -> String {
    let refusal = ours["warnings"].as_array().and_then(|ws| {
        ws.iter()
            .filter_map(J::as_str)
            .find(|w| w.starts_with("UNSUPPORTED"))
    });
    if let Some(w) = refusal {
        // `UNSUPPORTED Some(Unsupported("what"))`: the what, without values quoted in it.
        let what = w.split('"').nth(1).unwrap_or(w);
        return format!("refused: {}", what.split(':').next().unwrap_or(what));
    }
    let fields: Vec<&str> = ["error", "cloud_config", "parts", "warnings"]
        .into_iter()
        .filter(|k| canonical(&ours[*k]) != canonical(&theirs[*k]))
        .collect();
    format!("differs in {}", fields.join(", "))
}

// In CI at 10,000 cases per release (scripts/conformance.sh, both tests at once): 22.4 with
// Jinja2 3.1.2 and 25.1 with 3.1.6 each agree 10,000/10,000 at their seeds (2026-11-28). The
// failure lists each class of disagreement with its first example.
#[test]
#[ignore = "needs ../shared (the extracted cloud-init) and Jinja2 3.1.2: scripts/conformance.sh runs it"]
fn conformance_jinja_differential_22_4() {
    run(Release::V22_4, "bookworm", 0x0002_2412);
}

#[test]
#[ignore = "needs ../shared (the extracted cloud-init, trixie): scripts/conformance.sh runs it"]
fn conformance_jinja_differential_25_1() {
    run(Release::V25_1, "trixie", 0x2516);
}
