//! Layered configuration against the real cloud-init (`scripts/layers_oracle.py` runs the
//! extracted cloud-init's own Init / ConfigMerger / _consume_vendordata / Modules over a
//! throw-away root): random layers in, the config the modules see compared key order and all.
//! Also: each image profile equals the packaged file it stands for.
//!
//! `CLOUDFOLD_LAYERS_CASES` sets the count per release (default 100; conformance.sh: 2,500,
//! so 5,000 per run). `CLOUDFOLD_ORACLE_SEED` varies the cases. The tests need `../shared`
//! (ignored with the reason in a plain `cargo test`; scripts/conformance.sh runs them).

use crate::support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::layers::{ImageProfile, Layered};
use cloudfold::userdata::Release;
use cloudfold::yaml::typed_json::{WalkLimits, to_typed_json};
use serde_json::Value as J;

use std::process::Command;
use support::layers_fold::{fold, ours, theirs};
use support::layers_gen::{self, Case};
use support::oracle_batch;
use support::rng::Rng;

/// The oracle's answer for every case, in order, from one python process.
fn oracle(release: &str, cases: &[Case]) -> Vec<J> {
    let ci_oracle = support::shared("oracle/ci_oracle.py");
    let feed = cases
        .iter()
        .enumerate()
        .map(|(i, c)| c.to_json(i).to_string());
    oracle_batch::driver_docs(
        "layers_oracle.py",
        release,
        &[("CLOUDFOLD_ORACLE", ci_oracle.as_os_str())],
        feed.collect(),
    )
}

/// The seed mixed from a test's own and `CLOUDFOLD_ORACLE_SEED` (0 when unset).
fn extra_seed() -> u64 {
    std::env::var("CLOUDFOLD_ORACLE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The first `n` cases of a test's stream (each case draws from the one generator in turn,
/// so case i is reproduced by generating the i before it).
fn cases(n: usize, seed: u64) -> Vec<Case> {
    let mut r = Rng::new(seed ^ extra_seed().wrapping_mul(0x2545_F491_4F6C_DD1D));
    (0..n).map(|_| layers_gen::case(&mut r)).collect()
}

fn count() -> usize {
    std::env::var("CLOUDFOLD_LAYERS_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

/// `CLOUDFOLD_LAYERS_ONLY=405,1020`: run only these case indexes (of the same stream).
fn only() -> Option<Vec<usize>> {
    let v = std::env::var("CLOUDFOLD_LAYERS_ONLY").ok()?;
    Some(v.split(',').filter_map(|i| i.trim().parse().ok()).collect())
}

fn differential(release: Release, oracle_release: &str, seed: u64, test: &str) {
    support::shared("oracle/ci_oracle.py");
    let n = count();
    let picked: Vec<(usize, Case)> = match only() {
        Some(ix) => {
            let all = cases(ix.iter().max().map_or(0, |m| m + 1), seed);
            ix.iter().map(|&i| (i, all[i].clone())).collect()
        }
        None => cases(n, seed).into_iter().enumerate().collect(),
    };
    let cs: Vec<Case> = picked.iter().map(|(_, c)| c.clone()).collect();
    let t = std::time::Instant::now();
    let docs = oracle(oracle_release, &cs);
    let t_oracle = t.elapsed();
    let t = std::time::Instant::now();
    let mut bad = Vec::new();
    for ((i, c), d) in picked.iter().zip(&docs) {
        let (a, b) = (ours(c, release), theirs(d));
        if a != b {
            bad.push(format!(
                "case {i} of seed {seed:#x} (CLOUDFOLD_ORACLE_SEED={extra}) at cloud-init {rel}\n  \
                 rerun: CLOUDFOLD_ORACLE_SEED={extra} CLOUDFOLD_LAYERS_ONLY={i} cargo test --profile ci \
                 --test oracle -- --include-ignored --nocapture layers_oracle::{test}\n  \
                 record: put the inputs below in fixtures/layers/<name>/ (see Case::from_dir) with \
                 the oracle's answer as expected-{rel}.json\n  \
                 ours   {a}\n  theirs {b}\n  warnings {}\n  \
                 inputs (JSON, exact bytes, base64; scripts/layers_oracle.py reads this line): {}\n  \
                 inputs (readable):{}",
                d["warnings"],
                c.to_json(*i),
                c.describe(),
                extra = extra_seed(),
                rel = release.as_str(),
            ));
        }
    }
    let t_ours = t.elapsed();
    println!(
        "layers differential {}: {} cases, {} disagreements (oracle {:.1} s, cloudfold {:.2} s)",
        release.as_str(),
        cs.len(),
        bad.len(),
        t_oracle.as_secs_f64(),
        t_ours.as_secs_f64()
    );
    for b in bad.iter().take(20) {
        println!("{b}\n");
    }
    assert!(bad.is_empty(), "{} disagreements", bad.len());
}

#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn differential_22_4() {
    differential(Release::V22_4, "bookworm", 0x1a7e_0022, "differential_22_4");
}

#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn differential_25_1() {
    differential(Release::V25_1, "trixie", 0x1a7e_0025, "differential_25_1");
}

/// The recorded cases (`fixtures/layers/*/`, one a past disagreement each) still give what
/// the real cloud-init gives: their `expected-<release>.json` (the driver's answer line, which
/// tests/integration's `layers_regressions` compares cloudfold with, offline) re-made by the
/// oracle now.
#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn recorded_cases_match_the_oracle() {
    let dirs = support::layers_gen::recorded_cases();
    let mut checked = 0;
    for (rel, oracle_release) in [("22.4", "bookworm"), ("25.1", "trixie")] {
        let with: Vec<&(String, Case)> = dirs
            .iter()
            .filter(|(d, _)| {
                std::path::Path::new(d)
                    .join(format!("expected-{rel}.json"))
                    .exists()
            })
            .collect();
        let cs: Vec<Case> = with.iter().map(|(_, c)| c.clone()).collect();
        let docs = oracle(oracle_release, &cs);
        for ((dir, _), d) in with.iter().zip(&docs) {
            let stored: J = serde_json::from_slice(
                &std::fs::read(std::path::Path::new(dir).join(format!("expected-{rel}.json")))
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(
                theirs(d),
                theirs(&stored),
                "{dir}: expected-{rel}.json is not what cloud-init {rel} gives now: {d}"
            );
            checked += 1;
        }
    }
    println!("layers recorded cases: {checked} answers equal the oracle's");
    assert!(checked > 0);
}

/// Each image profile, loaded as cloudfold loads it, equals the real file loaded by
/// PyYAML (values and key order): the packaged files from the oracle's extraction and, for
/// ubuntu, upstream `config/cloud.cfg.tmpl` rendered by cloud-init's own templater
/// (`scripts/profile_sources.py`, which takes the template from Debian's source package).
#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn image_profiles_equal_their_sources() {
    let ci_oracle = support::shared("oracle/ci_oracle.py");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/profile_sources.py");
    let mut checked = 0;
    for (release, oracle_release) in [(Release::V22_4, "bookworm"), (Release::V25_1, "trixie")] {
        let out = Command::new("python3")
            .args([script, "--release", oracle_release])
            .env("CLOUDFOLD_ORACLE", &ci_oracle)
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "profile_sources.py: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let real: J = serde_json::from_slice(&out.stdout).unwrap();
        let mut profiles: Vec<(String, ImageProfile)> =
            vec![("ubuntu".into(), ImageProfile::Ubuntu)];
        let deb = if release == Release::V22_4 {
            ImageProfile::Debian12
        } else {
            ImageProfile::Debian13
        };
        profiles.push(("debian".into(), deb));
        for (key, profile) in profiles {
            for (rel, text) in profile.files(release) {
                let want = &real[&key][rel];
                assert!(
                    !want.is_null(),
                    "{key} {rel}: no source from profile_sources.py"
                );
                let ours = cloudfold::yaml::load(text, &cloudfold::yaml::LoadOptions::default())
                    .unwrap()
                    .unwrap();
                let ours =
                    serde_json::to_string(&to_typed_json(&ours, WalkLimits::default()).unwrap())
                        .unwrap();
                assert_eq!(
                    ours,
                    serde_json::to_string(want).unwrap(),
                    "{} {rel} at {}",
                    profile.name(),
                    release.as_str()
                );
                checked += 1;
            }
        }
        let builtin = cloudfold::yaml::load(
            cloudfold::layers::builtin_config(release),
            &cloudfold::yaml::LoadOptions::default(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            serde_json::to_string(&to_typed_json(&builtin, WalkLimits::default()).unwrap())
                .unwrap(),
            serde_json::to_string(&real["builtin"]).unwrap(),
            "CFG_BUILTIN at {}",
            release.as_str()
        );
        checked += 1;
    }
    println!("image profiles: {checked} files equal their sources");
}

#[allow(dead_code)]
fn b64(b: &[u8]) -> String {
    B64.encode(b)
}

type Reread = (
    cloudfold::yaml::Node,
    std::collections::HashMap<(u32, u32), Vec<cloudfold::yaml::Node>>,
);

/// Every node of a source's text, re-loaded, by 1-based (line, column) of its start.
fn reread(l: &Layered, id: cloudfold::source::SourceId, release: Release) -> Option<Reread> {
    let info = l.sources.get(id)?;
    if info.shift != (0, 0) {
        return None;
    }
    let text = info.text.text().to_string_lossy().into_owned();
    let opts = cloudfold::yaml::LoadOptions {
        source: id,
        python_unicode_tag: release == Release::V22_4,
        ..cloudfold::yaml::LoadOptions::default()
    };
    let root = cloudfold::yaml::load(&text, &opts).ok()??;
    let mut idx: std::collections::HashMap<(u32, u32), Vec<cloudfold::yaml::Node>> =
        std::collections::HashMap::new();
    let mut stack = vec![root.clone()];
    let mut seen = std::collections::HashSet::new();
    while let Some(n) = stack.pop() {
        if !seen.insert(n.id()) {
            continue;
        }
        let s = n.span();
        idx.entry((s.start.line + 1, s.start.column + 1))
            .or_default()
            .push(n.clone());
        match n.value() {
            cloudfold::yaml::Value::Map(m) => {
                for (k, v) in m.iter() {
                    stack.push(k.clone());
                    stack.push(v.clone());
                }
            }
            cloudfold::yaml::Value::Seq(s) | cloudfold::yaml::Value::Tuple(s) => {
                stack.extend(s.iter().cloned())
            }
            _ => {}
        }
    }
    Some((root, idx))
}

fn kind(n: &cloudfold::yaml::Node) -> &'static str {
    match n.value() {
        cloudfold::yaml::Value::Map(_) => "map",
        cloudfold::yaml::Value::Seq(_) | cloudfold::yaml::Value::Tuple(_) => "seq",
        _ => "leaf",
    }
}

/// explain_layers' origins are checked, not trusted: each reported origin (the winner and
/// every shadowed value) is re-read from its source's text at the reported line:column and
/// must hold the value (a leaf: equal, same type; a container: a container of the same kind),
/// and a shadowed origin must be the value at the entry's key path in that source.
/// `CLOUDFOLD_LAYERS_PROVENANCE_CASES` sets the count per release (default 200; CI 1,100).
#[test]
fn explain_provenance_is_reread() {
    let n: usize = std::env::var("CLOUDFOLD_LAYERS_PROVENANCE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut checked = 0usize;
    let mut cases_run = 0usize;
    for (release, seed) in [
        (Release::V22_4, 0x9e0_0022u64),
        (Release::V25_1, 0x9e0_0025),
    ] {
        for (ci, c) in cases(n, seed).iter().enumerate() {
            let Ok(l) = fold(c, release) else { continue };
            cases_run += 1;
            let ex = cloudfold::layers::explain_layers(&l, 1_000_000).unwrap();
            let mut cache: std::collections::HashMap<cloudfold::source::SourceId, Option<Reread>> =
                std::collections::HashMap::new();
            for e in &ex.entries {
                let mut origins: Vec<(&cloudfold::layers::LayerOrigin, bool)> =
                    e.origin.iter().map(|o| (o, true)).collect();
                origins.extend(e.shadowed.iter().map(|o| (o, false)));
                for (o, winner) in origins {
                    let Some((root, idx)) = cache
                        .entry(o.source)
                        .or_insert_with(|| reread(&l, o.source, release))
                        .as_ref()
                    else {
                        continue;
                    };
                    let at = idx.get(&(o.line, o.column));
                    let ok = at.is_some_and(|nodes| {
                        nodes.iter().any(|n| {
                            if !winner || (e.built && kind(&e.value) == "leaf") {
                                return true;
                            }
                            if kind(n) != kind(&e.value) {
                                return false;
                            }
                            kind(n) != "leaf"
                                || (n.type_name() == e.value.type_name()
                                    && cloudfold::yaml::value::py_eq(n, &e.value))
                        })
                    });
                    assert!(
                        ok,
                        "case {ci} at {}: {} {} does not hold the value {:?} (built: {}, winner: {winner}, found: {:?})\n{}",
                        release.as_str(),
                        e.path,
                        o,
                        e.value,
                        e.built,
                        at,
                        c.describe()
                    );
                    if !winner {
                        // The shadowed value is the one at the entry's key path.
                        let keys: Vec<&cloudfold::yaml::Node> = ex_keys(&ex.entries, e);
                        let mut cur = Some(root);
                        for k in keys {
                            cur = cur.and_then(|x| x.as_map()).and_then(|m| m.get(k));
                        }
                        let cur = cur
                            .unwrap_or_else(|| panic!("case {ci}: {} not in {}", e.path, o.label));
                        assert_eq!(
                            (cur.span().start.line + 1, cur.span().start.column + 1),
                            (o.line, o.column),
                            "case {ci}: {}",
                            e.path
                        );
                    }
                    checked += 1;
                }
            }
        }
    }
    println!(
        "layers explain provenance: {cases_run} cases, {checked} origins re-read, all hold their values"
    );
    assert!(checked > 0);
}

/// The keys from the root to a keyed entry (its ancestors are the closest shallower entries).
fn ex_keys<'a>(
    entries: &'a [cloudfold::layers::LayerEntry],
    e: &'a cloudfold::layers::LayerEntry,
) -> Vec<&'a cloudfold::yaml::Node> {
    let pos = entries.iter().position(|x| std::ptr::eq(x, e)).unwrap();
    let mut keys = vec![e.key.as_ref().unwrap()];
    let mut depth = e.depth;
    for x in entries[..pos].iter().rev() {
        if depth == 0 {
            break;
        }
        if x.depth == depth - 1 {
            keys.push(x.key.as_ref().unwrap());
            depth -= 1;
        }
    }
    keys.reverse();
    keys
}
