//! Boot plans against the real cloud-init (`scripts/plan_oracle.py` runs the extracted
//! cloud-init's consume_data and its Modules runner over a throw-away root, twice, with every
//! module's handle recorded and subp stubbed): generated payloads in, the ordered (stage,
//! module, frequency, runs, reason) list, every script run (boothooks, bootcmd, run-parts in
//! order, with their texts), every write_files write and users_groups' users compared, for the
//! first boot and the next. Also: the module metadata table equals the cc_*.py sources.
//!
//! `CLOUDFOLD_PLAN_CASES` sets the count per release (default 60; conformance.sh sets the CI
//! count). `CLOUDFOLD_ORACLE_SEED` varies the cases; `CLOUDFOLD_PLAN_FROM=K` keeps cases K.. only.

use crate::support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::layers::{EtcCloud, EtcEntry, LayerInputs, fold_layers};
use cloudfold::plan::{Action, Boot, BootPlan, ModuleTable, PartEffect, PlanOptions, Stage, plan};
use cloudfold::userdata::{NoIncludes, Release, UserDataOptions};
use serde_json::{Value as J, json};

use std::process::Command;
use support::oracle_batch;
use support::plan_gen::{self, PlanCase};
use support::rng::Rng;

fn oracle(release: &str, cases: &[PlanCase]) -> Vec<J> {
    let feed = cases
        .iter()
        .enumerate()
        .map(|(i, c)| c.to_json(i).to_string());
    oracle_batch::driver_docs("plan_oracle.py", release, &[], feed.collect())
}

fn inputs(c: &PlanCase) -> LayerInputs {
    let mut etc = EtcCloud::new();
    for (rel, data) in c.layers.etc.iter().flatten() {
        etc.insert(
            rel,
            data.as_ref()
                .map_or(EtcEntry::Dir, |d| EtcEntry::File(d.clone())),
        );
    }
    LayerInputs {
        etc: Some(etc),
        user_data: c.layers.user.clone(),
        vendor_data: c.layers.vendor.clone(),
        vendor_data2: c.layers.vendor2.clone(),
        ..LayerInputs::default()
    }
}

/// Our two boots as the oracle's events, or why the case is not comparable.
fn ours(c: &PlanCase) -> Result<Vec<Vec<J>>, String> {
    let opts = UserDataOptions {
        release: c.release,
        instance_data: c.layers.instance_data.as_ref().map(|d| {
            std::sync::Arc::new(cloudfold::jinja::InstanceData::from_json(d.as_bytes()).unwrap())
        }),
        ..UserDataOptions::default()
    };
    let layered = fold_layers(&inputs(c), &opts, &NoIncludes).map_err(|e| e.to_string())?;
    Ok([Boot::First, Boot::Next]
        .into_iter()
        .map(|boot| {
            let p = plan(
                &layered,
                &PlanOptions {
                    boot,
                    instance_id: Some(c.iid.clone()),
                },
            );
            events(&p)
        })
        .collect())
}

fn s(x: &str) -> J {
    J::String(x.to_owned())
}

/// A plan as the oracle's event list (see scripts/plan_oracle.py).
pub(crate) fn events(p: &BootPlan) -> Vec<J> {
    let mut out = Vec::new();
    let mut init_ok = true;
    for st in &p.stages {
        if let Some(c) = &st.consume {
            for part in &c.parts {
                if let PartEffect::RunsBoothook { path, text } = &part.effect {
                    out.push(json!(["boothook", path, text]));
                }
            }
            match &c.stopped {
                Some(_) => {
                    out.push(json!(["consume", "failed"]));
                    init_ok = false;
                }
                None => out.push(json!(["consume", c.frequency.as_str()])),
            }
        }
        let Some(sec) = &st.section else { continue };
        if st.stage == Stage::Init && !init_ok {
            continue;
        }
        for m in sec.modules.iter().filter(|m| m.runs) {
            let key = sec.key;
            if m.module.as_deref() == Some("cc_users_groups") {
                let users = m.actions.iter().find_map(|a| match a {
                    Action::Users(u) => Some(u),
                    _ => None,
                });
                let groups = m
                    .actions
                    .iter()
                    .find_map(|a| match a {
                        Action::Groups(g) => Some(g.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                match users {
                    Some(u) => out.push(json!([
                        "users",
                        key,
                        m.name,
                        u.iter()
                            .map(|u| json!([u.name, u.default, u.settings]))
                            .collect::<Vec<_>>(),
                        groups
                            .iter()
                            .map(|(g, ms)| json!([g, ms]))
                            .collect::<Vec<_>>()
                    ])),
                    None => out.push(json!(["users", key, m.name, null, "error"])),
                }
            }
            for a in &m.actions {
                match a {
                    Action::RunShell { script } => {
                        out.push(json!(["exec", key, m.name, ["/bin/sh", "<tmp>"], script]));
                    }
                    Action::RunParts {
                        prefix, entries, ..
                    } => {
                        for e in entries.iter().filter(|e| e.runs) {
                            let mut argv: Vec<J> = prefix.iter().map(|x| s(x)).collect();
                            argv.push(s(&e.path));
                            out.push(json!(["exec", key, m.name, argv, e.text]));
                        }
                    }
                    Action::WriteFile(f) => {
                        let (u, g) = if p.release == Release::V25_1 {
                            (f.owner.clone(), f.group.clone())
                        } else {
                            (None, None)
                        };
                        out.push(json!([
                            "write",
                            key,
                            m.name,
                            f.path,
                            f.permissions,
                            if f.append { "ab" } else { "wb" },
                            B64.encode(&f.content),
                            u,
                            g
                        ]));
                    }
                    _ => {}
                }
            }
        }
        out.push(json!(["section", sec.key, sec.error.is_some()]));
        for m in &sec.modules {
            out.push(json!([
                "module",
                sec.key,
                m.name,
                m.frequency.map(|f| f.as_str()),
                m.runs,
                m.skip.as_ref().map(|s| s.code())
            ]));
        }
    }
    out
}

/// The oracle's events with exception texts reduced to their presence.
fn theirs(boot: &J) -> Vec<J> {
    boot.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let a = e.as_array().unwrap();
            match a[0].as_str().unwrap() {
                "consume" if a[1].as_str().unwrap().starts_with("failed") => {
                    json!(["consume", "failed"])
                }
                "section" => json!(["section", a[1], !a[2].is_null()]),
                "users" if a[3].is_null() => json!(["users", a[1], a[2], null, "error"]),
                _ => e.clone(),
            }
        })
        .collect()
}

fn count() -> usize {
    std::env::var("CLOUDFOLD_PLAN_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

fn all_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    for r in [Release::V22_4, Release::V25_1] {
        for m in &ModuleTable::of(r).modules {
            for k in &m.activate_by {
                if !keys.contains(k) {
                    keys.push(k);
                }
            }
        }
    }
    keys
}

fn differential(release: Release, oracle_release: &str, seed: u64) {
    support::shared("oracle/ci_oracle.py");
    let n = count();
    let extra: u64 = std::env::var("CLOUDFOLD_ORACLE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut r = Rng::new(seed ^ extra.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let keys = all_keys();
    // CLOUDFOLD_PLAN_FROM=K: only cases K.. of the same sequence (to re-run a reported case).
    let from: usize = std::env::var("CLOUDFOLD_PLAN_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let cases: Vec<PlanCase> = (0..n)
        .map(|_| plan_gen::case(&mut r, release, &keys))
        .skip(from)
        .collect();
    if let Ok(path) = std::env::var("CLOUDFOLD_PLAN_DUMP") {
        let lines: Vec<String> = cases
            .iter()
            .enumerate()
            .map(|(i, c)| c.to_json(i).to_string())
            .collect();
        std::fs::write(
            format!("{path}.{}", release.as_str()),
            lines.join("\n") + "\n",
        )
        .unwrap();
    }
    let t = std::time::Instant::now();
    let docs = oracle(oracle_release, &cases);
    let t_oracle = t.elapsed();
    let t = std::time::Instant::now();
    let mut bad = Vec::new();
    let mut compared = 0usize;
    let mut per_profile: std::collections::BTreeMap<&str, usize> =
        std::collections::BTreeMap::new();
    let (mut modules, mut execs, mut writes) = (0usize, 0usize, 0usize);
    for (i, (c, d)) in cases
        .iter()
        .zip(&docs)
        .enumerate()
        .map(|(i, x)| (i + from, x))
    {
        if let Some(e) = d["error"].as_str() {
            bad.push(format!(
                "case {i}: the oracle failed: {e}\n  case {}",
                c.describe()
            ));
            continue;
        }
        let mine = match ours(c) {
            Ok(m) => m,
            Err(e) => {
                bad.push(format!("case {i}: cloudfold: {e}\n  case {}", c.describe()));
                continue;
            }
        };
        compared += 1;
        *per_profile.entry(c.profile.name()).or_insert(0usize) += 1;
        for (b, (m, t)) in mine.iter().zip(d["boots"].as_array().unwrap()).enumerate() {
            let t = theirs(t);
            for e in &t {
                match e[0].as_str() {
                    Some("module") => modules += 1,
                    Some("exec" | "boothook") => execs += 1,
                    Some("write") => writes += 1,
                    _ => {}
                }
            }
            if *m != t {
                let at = m
                    .iter()
                    .zip(&t)
                    .position(|(a, b)| a != b)
                    .unwrap_or(m.len().min(t.len()));
                bad.push(format!(
                    "case {i} boot {b} ({}): first difference at event {at}:\n  ours   {}\n  theirs {}\n  case {}",
                    c.profile.name(),
                    m.get(at).map_or("<end>".into(), J::to_string),
                    t.get(at).map_or("<end>".into(), J::to_string),
                    c.describe()
                ));
                break;
            }
        }
    }
    let profiles: Vec<String> = per_profile
        .iter()
        .map(|(p, n)| format!("{p} {n}"))
        .collect();
    println!(
        "plan differential {}: {} payloads ({compared} compared, by profile {}; 2 boots each: {modules} module entries, {execs} scripts run, {writes} files written), {} disagreements (oracle {:.1} s, cloudfold {:.2} s)",
        release.as_str(),
        cases.len(),
        profiles.join(", "),
        bad.len(),
        t_oracle.as_secs_f64(),
        t.elapsed().as_secs_f64()
    );
    for b in bad.iter().take(8) {
        println!("{b}\n");
    }
    assert!(bad.is_empty(), "{} disagreements", bad.len());
    // Each release's image profiles (debian-12 or debian-13, and ubuntu) are all compared.
    if cases.len() >= 20 {
        for p in plan_gen::profiles(release) {
            assert!(
                per_profile.contains_key(p.name()),
                "no case compared with the {} profile",
                p.name()
            );
        }
    }
}

#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn plan_differential_22_4() {
    differential(Release::V22_4, "bookworm", 0x91a2_0022);
}

#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn plan_differential_25_1() {
    differential(Release::V25_1, "trixie", 0x91a2_0025);
}

/// src/plan/data's module table equals every cc_*.py's `meta` (frequency, distros,
/// activate_by_schema_keys), modules.py's renamed/removed lists and the distro modules, as
/// scripts/cc_meta.py imports them from the extracted cloud-init.
#[test]
#[ignore = "needs ../shared (the extracted cloud-init): scripts/conformance.sh runs it"]
fn module_table_equals_the_sources() {
    support::shared("oracle/ci_oracle.py");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/cc_meta.py");
    let mut checked = 0;
    for (release, name) in [(Release::V22_4, "bookworm"), (Release::V25_1, "trixie")] {
        let out = Command::new("python3")
            .args([script, "--release", name])
            .output()
            .expect("python3");
        assert!(
            out.status.success(),
            "cc_meta.py: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let real: J = serde_json::from_slice(&out.stdout).unwrap();
        let t = ModuleTable::of(release);
        let real_mods = real["modules"].as_object().unwrap();
        assert_eq!(
            t.modules.len(),
            real_mods.len(),
            "module count at {}",
            release.as_str()
        );
        for (cc, m) in real_mods {
            let ours = t
                .find(cc)
                .unwrap_or_else(|| panic!("{cc} missing at {}", release.as_str()));
            assert_eq!(ours.frequency.as_str(), m["frequency"], "{cc} frequency");
            assert_eq!(json!(ours.distros), m["distros"], "{cc} distros");
            // cloud-init tests the keys as a frozenset; some lists come from a set (cc_ubuntu_pro's
            // deprecated keys), in hash order: compared as sets.
            let mut keys: Vec<String> = m["activate_by_schema_keys"]
                .as_array()
                .map(|a| a.iter().map(|k| k.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            keys.sort();
            let mut mine: Vec<String> = ours.activate_by.iter().map(|k| (*k).to_owned()).collect();
            mine.sort();
            assert_eq!(mine, keys, "{cc} activate_by_schema_keys");
            assert_eq!(m["handle"], true, "{cc} has a handle");
            checked += 1;
        }
        assert_eq!(json!(t.removed), real["removed"]);
        let renamed: serde_json::Map<String, J> = t
            .renamed
            .iter()
            .map(|(a, b)| ((*a).to_owned(), s(b)))
            .collect();
        assert_eq!(J::Object(renamed), real["renamed"]);
        assert_eq!(json!(t.distros), real["distros"]);
    }
    println!("module table: {checked} modules equal their meta in the cc_*.py sources");
}
