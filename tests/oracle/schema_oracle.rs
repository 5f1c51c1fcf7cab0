//! cloudfold's schema facts (`src/validate/schema/facts/`) against the real
//! `schema-cloud-config-v1.json` of each release where the oracle setup extracts
//! cloud-init (so they cannot drift), and cloudfold's schema check against cloud-init's
//! own validator (`cloudinit.config.schema.validate_cloudconfig_schema`, driven by
//! scripts/schema_oracle.py) on generated configs.

use crate::support::schema_gen::SchemaGen;
use cloudfold::userdata::Release;
use cloudfold::validate::{JsonSchema, SchemaFacts};
use cloudfold::yaml::{LoadOptions, load};
use serde_json::{Value as J, json};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SCHEMA: &str =
    "usr/lib/python3/dist-packages/cloudinit/config/schemas/schema-cloud-config-v1.json";

/// Each release: its `--cloud-init` name and the oracle's extraction directory.
const RELEASES: [(Release, &str, &str); 2] = [
    (Release::V22_4, "22.4", "cloud-init-root"),
    (Release::V25_1, "25.1", "cloud-init-root-trixie"),
];

/// The oracle's extraction of one release (these tests are ignored unless asked for, so
/// a missing one fails them).
fn extraction(dir: &str) -> PathBuf {
    let cache = std::env::var_os("CI_ORACLE_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("cloudfold-oracle"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/cloudfold-oracle"))
        })
        .unwrap_or_default();
    let root = cache.join(dir);
    assert!(
        root.join(SCHEMA).is_file(),
        "{} is missing (run ../shared/oracle/setup.sh --trixie)",
        root.join(SCHEMA).display()
    );
    root
}

/// The schema without its documentation, as scripts/schema_facts.py writes it: what
/// the facts must equal.
fn facts_of(v: &J) -> J {
    const DOC: &[&str] = &[
        "description",
        "default",
        "examples",
        "label",
        "hidden",
        "title",
        "$schema",
        "markdownDescription",
    ];
    let Some(o) = v.as_object() else {
        return v.clone();
    };
    let annotated =
        o.get("deprecated") == Some(&J::Bool(true)) || o.get("changed") == Some(&J::Bool(true));
    let mut out = serde_json::Map::new();
    for (k, x) in o {
        if DOC.contains(&k.as_str()) && !(k == "description" && annotated) {
            continue;
        }
        let kept = match (k.as_str(), x) {
            ("properties" | "patternProperties" | "$defs" | "definitions", J::Object(m)) => {
                J::Object(m.iter().map(|(n, s)| (n.clone(), facts_of(s))).collect())
            }
            ("oneOf" | "anyOf" | "allOf" | "items" | "prefixItems", J::Array(a)) => {
                J::Array(a.iter().map(facts_of).collect())
            }
            ("items" | "additionalProperties" | "additionalItems" | "not", J::Object(_)) => {
                facts_of(x)
            }
            _ => x.clone(),
        };
        out.insert(k.clone(), kept);
    }
    J::Object(out)
}

/// The first JSON pointer where `a` and `b` differ.
fn first_difference(a: &J, b: &J, at: &str) -> Option<String> {
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(p, q, &here) {
                            return Some(d);
                        }
                    }
                    (p, q) => return Some(format!("{here}: {p:?} vs {q:?}")),
                }
            }
            None
        }
        (J::Array(x), J::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("{at}: {a} vs {b}")),
    }
}

/// The committed facts of each release are the real schema's, so they cannot drift.
#[test]
#[ignore = "needs the extracted cloud-init 22.4 and 25.1 (../shared/oracle/setup.sh --trixie): scripts/conformance.sh runs it"]
fn schema_facts_match_the_real_schema() {
    for (release, name, dir) in RELEASES {
        let root = extraction(dir);
        let real: J =
            serde_json::from_str(&std::fs::read_to_string(root.join(SCHEMA)).unwrap()).unwrap();
        let ours = SchemaFacts::of(release).to_json().unwrap();
        let want = facts_of(&real);
        assert!(
            ours == want,
            "src/validate/schema/facts/cloud-init-{name}.schema differs from {} at {}; regenerate it with scripts/schema_facts.py",
            root.join(SCHEMA).display(),
            first_difference(&ours, &want, "").unwrap_or_default()
        );
        // Not a copy of the file: documentation is left out.
        let text = SchemaFacts::of(release).text();
        assert!(text.len() * 2 < std::fs::metadata(root.join(SCHEMA)).unwrap().len() as usize);
        eprintln!(
            "schema facts {name}: equal to the real schema ({} lines, {} bytes)",
            text.lines().count(),
            text.len()
        );
    }
}

/// cloud-init's findings for each config, from its own validator (scripts/schema_oracle.py,
/// one process): `(errors, deprecations)` as `[path, message]` pairs.
fn cloud_init_findings(root: &Path, configs: &[J]) -> Vec<(Vec<J>, Vec<J>)> {
    let mut child = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/schema_oracle.py"
        ))
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feed: Vec<String> = configs
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"id": i, "config": c}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for l in feed {
            if writeln!(stdin, "{l}").is_err() {
                break;
            }
        }
    });
    let mut out = vec![None; configs.len()];
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let v: J = serde_json::from_str(&line.unwrap()).unwrap();
        let i = v["id"].as_u64().unwrap() as usize;
        let list = |k: &str| v[k].as_array().cloned().unwrap_or_default();
        out[i] = Some((list("errors"), list("deprecations")));
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "scripts/schema_oracle.py failed: {status}"
    );
    out.into_iter()
        .map(|o| o.expect("schema_oracle.py answered every config"))
        .collect()
}

/// A `[path, message]` finding as compared: "X is valid under each of SCHEMAS" (a value
/// two `oneOf` branches accept) repeats the branches' schemas, documentation included,
/// which cloudfold's facts leave out; the message is compared up to them.
fn comparable(f: &J) -> J {
    match f[1]
        .as_str()
        .and_then(|m| m.split_once(" is valid under each of "))
    {
        Some((value, _)) => json!([f[0], format!("{value} is valid under each of ...")]),
        None => f.clone(),
    }
}

/// Generated configs (tests/support/schema_gen.rs: values from the schema, then broken)
/// through cloudfold's schema check and cloud-init's validator: the same errors and
/// deprecations, path and message each. `CLOUDFOLD_SCHEMA_CASES` per release (default
/// 300; scripts/conformance.sh: 2,000).
fn differential(release: Release, name: &str, dir: &str, seed: u64) {
    let root = extraction(dir);
    let n: usize = std::env::var("CLOUDFOLD_SCHEMA_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let started = std::time::Instant::now();
    let facts = SchemaFacts::of(release).to_json().unwrap();
    let schema = JsonSchema::builtin(release).unwrap();
    let mut g = SchemaGen::new(&facts, seed);
    // Even cases as generated (meant to be valid), odd ones broken 1-3 times.
    let configs: Vec<J> = (0..n)
        .map(|i| {
            let mut c = g.config();
            if !c.is_object() {
                c = json!({});
            }
            if i % 2 == 1 {
                for _ in 0..1 + g.r.below(3) {
                    g.mutate(&mut c);
                }
            }
            if !c.is_object() {
                c = json!({});
            }
            c
        })
        .collect();
    let generated = started.elapsed().as_secs_f64();
    let oracle_started = std::time::Instant::now();
    let theirs = cloud_init_findings(&root, &configs);
    let oracle_secs = oracle_started.elapsed().as_secs_f64();
    let mut bad = Vec::new();
    let (mut with_errors, mut with_deps, mut errors, mut deps) = (0, 0, 0, 0);
    for (i, (config, (their_errs, their_deps))) in configs.iter().zip(&theirs).enumerate() {
        let text = serde_json::to_string_pretty(config).unwrap();
        let node = load(&text, &LoadOptions::default()).unwrap().unwrap();
        let issues = schema.check(&node);
        let ours = |deprecated: bool| -> Vec<J> {
            let mut v: Vec<J> = issues
                .iter()
                .filter(|i| i.deprecated == deprecated)
                .map(|i| comparable(&json!([i.cloud_init_path, i.message])))
                .collect();
            v.sort_by_key(J::to_string);
            v
        };
        let sorted = |v: &[J]| {
            let mut v: Vec<J> = v.iter().map(comparable).collect();
            v.sort_by_key(J::to_string);
            v
        };
        let (want_errs, want_deps) = (sorted(their_errs), sorted(their_deps));
        with_errors += usize::from(!want_errs.is_empty());
        with_deps += usize::from(!want_deps.is_empty());
        errors += want_errs.len();
        deps += want_deps.len();
        let (got_errs, got_deps) = (ours(false), ours(true));

        if got_errs != want_errs || got_deps != want_deps {
            bad.push(format!(
                "config {i}: {}\n  errors ours       {}\n  errors cloud-init {}\n  deprecations ours       {}\n  deprecations cloud-init {}",
                config,
                J::Array(got_errs),
                J::Array(want_errs),
                J::Array(got_deps),
                J::Array(want_deps)
            ));
        }
    }
    eprintln!(
        "schema {name} vs cloud-init's validator: {}/{n} configs agree ({with_errors} with errors, {with_deps} with deprecations; {errors} errors and {deps} deprecations compared, path and message) in {:.1}s: generating {generated:.1}s, cloud-init's validator {oracle_secs:.1}s",
        n - bad.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
}

#[test]
#[ignore = "needs the extracted cloud-init 22.4 and 25.1 (../shared/oracle/setup.sh --trixie) and python3 with jsonschema: scripts/conformance.sh runs it"]
fn conformance_schema_differential_22_4() {
    differential(Release::V22_4, "22.4", "cloud-init-root", 0x5C4E_0224);
}

#[test]
#[ignore = "needs the extracted cloud-init 22.4 and 25.1 (../shared/oracle/setup.sh --trixie) and python3 with jsonschema: scripts/conformance.sh runs it"]
fn conformance_schema_differential_25_1() {
    differential(
        Release::V25_1,
        "25.1",
        "cloud-init-root-trixie",
        0x5C4E_0251,
    );
}
