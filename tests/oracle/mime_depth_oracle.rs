//! Deep MIME nesting against the oracle: cloudfold raises Python's `RecursionError`
//! (and so aborts the fold) at exactly the nesting levels where cloud-init does.
//!
//! By default both sides of each edge under 25.1. `CLOUDFOLD_DEEP_MIME_SWEEP` sweeps
//! every level from 975 to 983 of ten shapes: `=1` under both releases, `=trixie` or
//! `=bookworm` under that release with the other release at its edges (CI's
//! conformance run: the oracle takes seconds per document, so one release is swept).
//!
//! Nested message/rfc822 parts are handed to the handlers once per enclosing
//! message (quadratic in the depth): where that exceeds cloudfold's part limit
//! (`--max-parts`) below Python's recursion level, cloudfold stops with its
//! explicit limit error while cloud-init goes on; that counts as agreeing.

use crate::support;

use cloudfold::userdata::{NoIncludes, Release, UserDataOptions, render};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use serde_json::Value as J;
use support::oracle_batch;

const LEAF: &str = "Content-Type: text/cloud-config\n\n#cloud-config\na: 1\n";

/// `levels` containers of the given shape around a cloud-config leaf.
fn nested(shape: &str, levels: usize) -> String {
    let (mut head, mut tail) = (String::new(), String::new());
    let mut i = 0;
    while i < levels {
        let mp = |extra: &str| {
            format!(
                "Content-Type: multipart/mixed; boundary=\"b{i}\"\nMIME-Version: 1.0\n\n{extra}--b{i}\n"
            )
        };
        match shape {
            "multipart" => head.push_str(&mp("")),
            "sibling-first" => {
                head.push_str(&mp(&format!("--b{i}\nContent-Type: text/plain\n\nhi\n")))
            }
            "preamble" => head.push_str(&mp("preamble\n")),
            "rfc822" => head.push_str("Content-Type: message/rfc822\nMIME-Version: 1.0\n\n"),
            "alternating" if i % 2 == 1 => head.push_str("Content-Type: message/rfc822\n\n"),
            "alternating" => head.push_str(&mp("")),
            "unclosed" => head.push_str(&mp("")),
            "digest" => {
                // A digest's part without headers is a message/rfc822: two levels.
                head.push_str(&format!(
                    "Content-Type: multipart/digest; boundary=\"b{i}\"\n\n--b{i}\n\n"
                ));
                tail.insert_str(0, &format!("--b{i}--\n"));
                i += 2;
                continue;
            }
            "no-boundary-innermost" | "rfc822-innermost" | "delivery-status-innermost" => {
                head.push_str(&mp(""));
            }
            other => panic!("unknown shape {other}"),
        }
        // Multiparts get their close boundary (except the unclosed shape).
        let closed = match shape {
            "rfc822" | "unclosed" => false,
            "alternating" => i % 2 == 0,
            _ => true,
        };
        if closed {
            tail.insert_str(0, &format!("--b{i}--\n"));
        }
        i += 1;
    }
    let inner = match shape {
        "no-boundary-innermost" => "Content-Type: multipart/mixed\n\nno boundary here\n",
        "rfc822-innermost" => "Content-Type: message/rfc822\n\n",
        "delivery-status-innermost" => "Content-Type: message/delivery-status\n\nA: b\n\nC: d\n",
        _ => LEAF,
    };
    format!("{head}{inner}{tail}")
}

fn ours(input: &[u8], release: Release) -> J {
    let opts = UserDataOptions {
        release,
        ..UserDataOptions::default()
    };
    match render(input, &opts, &NoIncludes) {
        Err(e) => J::String(format!("error: {e}")),
        Ok(f) => f.config.as_ref().map_or(J::Null, |c| {
            to_typed_json(c, WalkLimits::default()).unwrap_or(J::Null)
        }),
    }
}

fn theirs(doc: &J) -> J {
    match doc["error"].as_str() {
        Some(e) => J::String(format!("error: {e}")),
        None => doc["cloud_config"].clone(),
    }
}

#[test]
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn recursion_limit_matches_cloud_init() {
    support::shared("oracle/ci_oracle.py");
    const SHAPES: [&str; 10] = [
        "multipart",
        "sibling-first",
        "preamble",
        "rfc822",
        "alternating",
        "unclosed",
        "digest",
        "no-boundary-innermost",
        "rfc822-innermost",
        "delivery-status-innermost",
    ];
    let sweep = std::env::var("CLOUDFOLD_DEEP_MIME_SWEEP").unwrap_or_default();
    let mut edges = Vec::new();
    // Each side of both edges (a multipart with a boundary; any part).
    for (shape, n) in [
        ("multipart", 977),
        ("multipart", 978),
        ("no-boundary-innermost", 977),
        ("rfc822", 981),
        ("rfc822", 982),
    ] {
        edges.push((format!("{shape} x{n}"), nested(shape, n)));
    }
    let mut swept = Vec::new();
    for shape in SHAPES {
        for n in 975..=983 {
            swept.push((format!("{shape} x{n}"), nested(shape, n)));
        }
    }
    for cases in [&mut edges, &mut swept] {
        cases.push(("multipart x300".into(), nested("multipart", 300)));
        // Deep enough to repeat parts 861 times, under the part limit: exact.
        cases.push(("rfc822 x40".into(), nested("rfc822", 40)));
    }
    for &(release, oracle_release) in oracle_batch::releases(!sweep.is_empty()) {
        let cases = if sweep == "1" || sweep == oracle_release {
            &swept
        } else {
            &edges
        };
        let docs = oracle_batch::docs_of_named(oracle_release, cases, false);
        let (mut raised, mut bad) = (0, Vec::new());
        for ((name, doc), oracle) in cases.iter().zip(&docs) {
            let (o, t) = (ours(doc.as_bytes(), release), theirs(oracle));
            let agree = match (&o, &t) {
                (J::String(a), J::String(b)) => {
                    a.contains("RecursionError") && b.contains("RecursionError")
                }
                (J::String(a), _) if a.contains("--max-parts") => {
                    name.contains("rfc822")
                        || name.contains("alternating")
                        || name.contains("digest")
                }
                _ => canonical(&o) == canonical(&t),
            };
            if t.as_str().is_some_and(|e| e.contains("RecursionError")) {
                raised += 1;
            }
            if !agree {
                bad.push(format!("{name}: ours {o}, oracle {t}"));
            }
        }
        eprintln!(
            "deep MIME vs oracle {oracle_release}: {}/{} agree ({raised} raise RecursionError)",
            cases.len() - bad.len(),
            cases.len()
        );
        oracle_batch::assert_none(&bad, 40);
    }
}
