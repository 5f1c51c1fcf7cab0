//! Differential: generated layers through the `nickel` dialect and through the real `nickel export`.
//!
//! The oracle is nickel-lang-cli, installed by `../shared/oracle/dialects/setup-nickel.sh`
//! into `~/.cache/cloudfold-oracle/nickel` (`$CLOUDFOLD_ORACLE_CACHE`, or `$CLOUDFOLD_NICKEL`
//! naming the binary). `CLOUDFOLD_NICKEL_CASES` sets the count (CI: 2,000 via
//! scripts/conformance.sh), `CLOUDFOLD_NICKEL_SEED` varies them. Cases we expect to
//! succeed run 40 to one `nickel export` (a record of all of them; a failing batch is
//! split); cases we expect to fail run one each. Every disagreement is printed with its
//! layers so it can become a fixture (scripts/nickel_fixtures.py).

use crate::support;

use cloudfold::merge::NoObserver;
use cloudfold::merge::nickel::merge_layers;
use cloudfold::yaml::typed_json::canonical;
use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::nickel_gen::{self, GV};
use support::plain_json::plain_json;
use support::rng::Rng;

/// Our answer: the merged value, or `None` for a failed merge.
fn ours(layers: &[GV]) -> Option<J> {
    let texts: Vec<String> = layers.iter().map(nickel_gen::to_yaml).collect();
    let (roots, maps) = support::tagged_docs::load_docs(&texts);
    merge_layers(&roots, &maps, &mut NoObserver)
        .ok()
        .map(|n| plain_json(&n))
}

fn nickel_bin() -> PathBuf {
    if let Ok(p) = std::env::var("CLOUDFOLD_NICKEL") {
        return PathBuf::from(p);
    }
    let cache = std::env::var("CLOUDFOLD_ORACLE_CACHE").map_or_else(
        |_| {
            PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/cloudfold-oracle")
        },
        PathBuf::from,
    );
    let p = cache.join("nickel/bin/nickel");
    assert!(
        p.exists(),
        "the nickel oracle {} is missing (run ../shared/oracle/dialects/setup-nickel.sh)",
        p.display()
    );
    p
}

/// `nickel export` of `{ "c<i>" = layer & layer …, … }` for these cases.
fn export(bin: &Path, dir: &Path, cases: &[(usize, &Vec<GV>)]) -> Option<J> {
    let mut fields = Vec::new();
    for (i, layers) in cases {
        let mut imports = Vec::new();
        for (j, l) in layers.iter().enumerate() {
            let f = format!("c{i}_{j}.ncl");
            std::fs::write(dir.join(&f), nickel_gen::to_nickel(l) + "\n").unwrap();
            imports.push(format!("(import \"{f}\")"));
        }
        fields.push(format!("\"c{i}\" = {}", imports.join(" & ")));
    }
    let main = format!("main{}.ncl", cases.first().map_or(0, |c| c.0));
    std::fs::write(dir.join(&main), format!("{{ {} }}\n", fields.join(",\n"))).unwrap();
    let out = Command::new(bin)
        .args(["export", "--format", "json", &main])
        .current_dir(dir)
        .output()
        .unwrap();
    if !out.status.success() {
        return None;
    }
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

/// The oracle's answer for each case, splitting failing batches.
fn theirs(bin: &Path, dir: &Path, cases: &[(usize, &Vec<GV>)], out: &mut Vec<(usize, Option<J>)>) {
    match export(bin, dir, cases) {
        Some(J::Object(m)) => {
            for (i, _) in cases {
                out.push((*i, m.get(&format!("c{i}")).cloned()));
            }
        }
        _ if cases.len() == 1 => out.push((cases[0].0, None)),
        _ => {
            let (a, b) = cases.split_at(cases.len() / 2);
            theirs(bin, dir, a, out);
            theirs(bin, dir, b, out);
        }
    }
}

fn yaml_layers(layers: &[GV]) -> String {
    layers
        .iter()
        .enumerate()
        .map(|(j, l)| format!("  f{}.yaml: {}", j + 1, nickel_gen::to_yaml(l)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
#[ignore = "needs nickel (../shared/oracle/dialects/setup-nickel.sh): scripts/conformance.sh runs it"]
fn conformance_nickel_differential() {
    let bin = nickel_bin();
    let n: usize = std::env::var("CLOUDFOLD_NICKEL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("CLOUDFOLD_NICKEL_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut rng = Rng::new(0x04E1_C4E1 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let cases: Vec<Vec<GV>> = (0..n).map(|_| nickel_gen::case(&mut rng)).collect();
    let ours: Vec<Option<J>> = cases.iter().map(|c| ours(c)).collect();
    let dir = std::env::temp_dir().join(format!("cloudfold-nickel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Expected successes in batches, expected failures alone; two workers.
    let mut jobs: Vec<Vec<(usize, &Vec<GV>)>> = Vec::new();
    let ok: Vec<(usize, &Vec<GV>)> = (0..n)
        .filter(|&i| ours[i].is_some())
        .map(|i| (i, &cases[i]))
        .collect();
    for chunk in ok.chunks(40) {
        jobs.push(chunk.to_vec());
    }
    for i in (0..n).filter(|&i| ours[i].is_none()) {
        jobs.push(vec![(i, &cases[i])]);
    }
    let mut answers: Vec<(usize, Option<J>)> = Vec::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|w| {
                let jobs = &jobs;
                let (bin, dir) = (&bin, &dir);
                s.spawn(move || {
                    let mut out = Vec::new();
                    for job in jobs.iter().skip(w).step_by(2) {
                        theirs(bin, dir, job, &mut out);
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            answers.extend(h.join().unwrap());
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    answers.sort_by_key(|a| a.0);
    assert_eq!(answers.len(), n);
    let mut bad = Vec::new();
    let failures = ours.iter().filter(|o| o.is_none()).count();
    for (i, t) in answers {
        let o = &ours[i];
        let same = match (o, &t) {
            (Some(a), Some(b)) => canonical(a) == canonical(b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            bad.push(format!(
                "case {i}:\n{}\n  ours   {}\n  nickel {}",
                yaml_layers(&cases[i]),
                o.as_ref().map_or("error".into(), canonical),
                t.as_ref().map_or("error".into(), canonical)
            ));
        }
    }
    eprintln!(
        "differential vs nickel: {}/{n} cases agree ({failures} expected failures)",
        n - bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
