//! `diff` properties on generated payload pairs (B a mutation of A): `diff A A` is empty,
//! `diff A B` mirrors `diff B A`, the JSON diff applied to `render A` gives `render B`
//! (tests/oracle/diff_oracle.rs checks a sample against the real cloud-init).
//!
//! `CLOUDFOLD_DIFF_PAIRS` sets the number of pairs (default 300; CI: 10,000). With layers
//! (`diff_layered`, the same generated layer set under A and B), the same properties hold
//! of the layered configs: `CLOUDFOLD_DIFF_LAYERED_PAIRS` (default 100; CI: 1,000). And of
//! `diff --plan` (the two boot plans): `diff --plan A A` is empty, `diff --plan A B` mirrors
//! `diff --plan B A`: `CLOUDFOLD_DIFF_PLAN_PAIRS` (default 200; CI: 1,000).

use crate::support;

use cloudfold::diff::{DiffOptions, JsonView, PayloadDiff, diff, diff_layered, to_json};
use cloudfold::layers::LayerInputs;
use cloudfold::userdata::{FoldText, NoIncludes, Preload, Release, UserDataOptions};
use cloudfold::yaml::typed_json::{WalkLimits, to_typed_json};
use serde_json::{Value as J, json};
use support::diff_apply::apply;
use support::diff_gen::pair;
use support::rng::Rng;

pub(crate) fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn opts() -> UserDataOptions {
    UserDataOptions {
        release: Release::V25_1,
        preload: Preload::Auto,
        ..UserDataOptions::default()
    }
}

pub(crate) fn run(a: &[u8], b: &[u8]) -> Result<PayloadDiff, String> {
    diff(
        a.to_vec(),
        b.to_vec(),
        &opts(),
        &NoIncludes,
        &DiffOptions::default(),
        FoldText::Nothing,
    )
    .map_err(|e| e.to_string())
}

pub(crate) fn json_of(d: &PayloadDiff) -> J {
    to_json(JsonView {
        diff: d,
        limits: WalkLimits::default(),
    })
    .unwrap()
}

/// The config a diff compared on one side: the fold's, or with layers the layered one.
fn typed_config(d: &PayloadDiff, old: bool) -> J {
    if let Some(l) = &d.layers {
        let l = if old { &l.0 } else { &l.1 };
        return to_typed_json(&l.config, WalkLimits::default()).unwrap();
    }
    let side = if old { &d.old } else { &d.new };
    side.folded.config.as_ref().map_or(J::Null, |c| {
        to_typed_json(c, WalkLimits::default()).unwrap()
    })
}

fn run_layered(layers: &LayerInputs, a: &[u8], b: &[u8]) -> Result<PayloadDiff, String> {
    diff_layered(
        a.to_vec(),
        b.to_vec(),
        layers,
        &opts(),
        &NoIncludes,
        &DiffOptions::default(),
        FoldText::Nothing,
    )
    .map_err(|e| e.to_string())
}

/// A change as seen from the other side (`diff B A`), in a form to compare.
fn mirrored(c: &J) -> String {
    let op = match c["op"].as_str().unwrap() {
        "add" => "remove",
        "remove" => "add",
        o => o,
    };
    canonical_change(&json!({
        "op": op,
        "old_path": c["new_path"], "new_path": c["old_path"],
        "old": c["new"], "new": c["old"],
        "key": c["key"], "element": c["element"],
        "old_index": c["new_index"], "new_index": c["old_index"],
        "old_type": c["new_type"], "new_type": c["old_type"],
        "old_keys": c["new_keys"], "new_keys": c["old_keys"],
        "not_at_boot": c["not_at_boot"],
        "old_origin": c["new_origin"], "new_origin": c["old_origin"],
        "old_layer": c["new_layer"], "new_layer": c["old_layer"],
        "container": if c["container"].is_null() {
            J::Null
        } else {
            json!({"old": c["container"]["new"], "new": c["container"]["old"]})
        },
    }))
}

fn canonical_change(c: &J) -> String {
    let keys = [
        "op",
        "old_path",
        "new_path",
        "old",
        "new",
        "key",
        "element",
        "old_index",
        "new_index",
        "old_type",
        "new_type",
        "old_keys",
        "new_keys",
        "not_at_boot",
        "old_origin",
        "new_origin",
        "old_layer",
        "new_layer",
        "container",
    ];
    let m: serde_json::Map<String, J> = keys
        .iter()
        .map(|k| ((*k).to_owned(), c.get(*k).cloned().unwrap_or(J::Null)))
        .collect();
    J::Object(m).to_string()
}

fn mirrored_part(p: &J) -> String {
    let changes: Vec<J> = p["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| match c.as_str().unwrap() {
            "added" => J::from("removed"),
            "removed" => J::from("added"),
            o => J::from(o),
        })
        .collect();
    let content: Vec<J> = p["content"]
        .as_array()
        .map(|hs| {
            hs.iter()
                .map(|h| {
                    json!({"old_start": h["new_start"], "old_lines": h["new_lines"],
                           "new_start": h["old_start"], "new_lines": h["old_lines"]})
                })
                .collect()
        })
        .unwrap_or_default();
    json!({"changes": changes, "at_boot": p["at_boot"], "old": p["new"], "new": p["old"], "content": content})
        .to_string()
}

fn plain_part(p: &J) -> String {
    json!({"changes": p["changes"], "at_boot": p["at_boot"], "old": p["old"], "new": p["new"],
           "content": p["content"].as_array().cloned().unwrap_or_default()})
    .to_string()
}

/// JSON text: compared as text, key order counts (`Value`'s `==` ignores it).
fn ordered(v: &J) -> String {
    serde_json::to_string(v).unwrap()
}

/// Every property of one pair; the first that fails, as text. Gives the JSON diff of A -> B.
fn check_pair(a: &[u8], b: &[u8]) -> Result<J, String> {
    check_with(a, b, &run)
}

/// How a property test diffs two payloads.
type DiffFn<'a> = &'a dyn Fn(&[u8], &[u8]) -> Result<PayloadDiff, String>;

/// [`check_pair`] with the diff `run` makes.
fn check_with(a: &[u8], b: &[u8], run: DiffFn<'_>) -> Result<J, String> {
    // diff A A: nothing, exit 0.
    let same = run(a, a)?;
    if !same.changes.is_empty() || !same.parts.is_empty() || !same.same_at_boot() {
        return Err(format!("diff A A is not empty: {}", json_of(&same)));
    }
    let ab = run(a, b)?;
    let ba = run(b, a)?;
    let (jab, jba) = (json_of(&ab), json_of(&ba));
    // Mirror images.
    let mut x: Vec<String> = jab["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(mirrored)
        .collect();
    let mut y: Vec<String> = jba["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(canonical_change)
        .collect();
    x.sort();
    y.sort();
    if x != y {
        return Err(format!(
            "changes are not mirror images:\nA->B {jab:#}\nB->A {jba:#}"
        ));
    }
    let mut x: Vec<String> = jab["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(mirrored_part)
        .collect();
    let mut y: Vec<String> = jba["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(plain_part)
        .collect();
    x.sort();
    y.sort();
    if x != y {
        return Err(format!(
            "parts are not mirror images:\nA->B {jab:#}\nB->A {jba:#}"
        ));
    }
    if jab["same_at_boot"] != jba["same_at_boot"] {
        return Err("same_at_boot differs by direction".into());
    }
    // Applying the JSON diff of A -> B to render A gives render B, type for type, key for key.
    let (ra, rb) = (typed_config(&ab, true), typed_config(&ab, false));
    let got = apply(&ra, &jab).map_err(|e| format!("apply failed: {e}\n{jab:#}"))?;
    if ordered(&got) != ordered(&rb) {
        return Err(format!(
            "apply(render A, diff A B) != render B\napplied {got}\nrender B {rb}\ndiff {jab:#}"
        ));
    }
    let got = apply(&rb, &jba).map_err(|e| format!("apply failed (B->A): {e}"))?;
    if ordered(&got) != ordered(&ra) {
        return Err("apply(render B, diff B A) != render A".into());
    }
    Ok(jab)
}

#[test]
fn diff_properties_on_generated_pairs() {
    let n = env_count("CLOUDFOLD_DIFF_PAIRS", 300);
    let mut r = Rng::new(0xd1ff);
    let (mut checked, mut skipped, mut changed, mut bad) = (0, 0, 0, Vec::new());
    // How often each kind of change and of part difference came up.
    let mut kinds: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for i in 0..n {
        let (a, b) = pair(&mut r);
        match check_pair(&a, &b) {
            Ok(j) => {
                checked += 1;
                if j["same_at_boot"] == json!(false) {
                    changed += 1;
                }
                for c in j["changes"].as_array().unwrap() {
                    let k = match c["not_at_boot"].as_str() {
                        Some(why) => format!("{} ({why})", c["op"].as_str().unwrap()),
                        None => c["op"].as_str().unwrap().to_owned(),
                    };
                    *kinds.entry(k).or_default() += 1;
                }
                for p in j["parts"].as_array().unwrap() {
                    for d in p["changes"].as_array().unwrap() {
                        *kinds
                            .entry(format!("part {}", d.as_str().unwrap()))
                            .or_default() += 1;
                    }
                }
            }
            // A payload that does not fold (cloud-init would abort): nothing to compare.
            Err(e) if e.starts_with("old payload") || e.starts_with("new payload") => skipped += 1,
            Err(e) => {
                if let Ok(dir) = std::env::var("CLOUDFOLD_DIFF_DUMP") {
                    std::fs::write(format!("{dir}/pair{i}-a"), &a).unwrap();
                    std::fs::write(format!("{dir}/pair{i}-b"), &b).unwrap();
                }
                bad.push(format!(
                    "pair {i}:\nA:\n{}\nB:\n{}\n{e}",
                    String::from_utf8_lossy(&a),
                    String::from_utf8_lossy(&b)
                ))
            }
        }
    }
    eprintln!(
        "diff properties: {checked} of {n} pairs checked ({changed} differ at boot), {skipped} skipped (a side aborts), {} failed",
        bad.len()
    );
    eprintln!("diff properties: changes seen: {kinds:?}");
    assert!(
        bad.is_empty(),
        "{} pairs failed:\n{}",
        bad.len(),
        bad.iter().take(3).cloned().collect::<Vec<_>>().join("\n\n")
    );
    assert!(
        checked * 10 >= n * 9,
        "too few pairs checked: {checked} of {n}"
    );
}

/// The same properties with layers: a generated layer set (`layers_gen`, as the layers
/// differential against the real cloud-init uses) under both payloads of each pair; the
/// JSON diff applied to A's layered config gives B's. Every change read from a layer names
/// it, and a value read from user-data names its part.
#[test]
fn diff_layered_properties_on_generated_pairs() {
    let n = env_count("CLOUDFOLD_DIFF_LAYERED_PAIRS", 100);
    let mut r = Rng::new(0x1a7e);
    let (mut checked, mut skipped, mut changed, mut from_layers, mut bad) =
        (0, 0, 0, 0, Vec::new());
    for i in 0..n {
        let layers = LayerInputs {
            user_data: None,
            ..support::layers_gen::case(&mut r).inputs()
        };
        let (a, b) = pair(&mut r);
        let run = |x: &[u8], y: &[u8]| run_layered(&layers, x, y);
        match check_with(&a, &b, &run) {
            Ok(j) => {
                checked += 1;
                if j["same_at_boot"] == json!(false) {
                    changed += 1;
                }
                for c in j["changes"].as_array().unwrap() {
                    for side in ["old", "new"] {
                        let (layer, origin) =
                            (&c[format!("{side}_layer")], &c[format!("{side}_origin")]);
                        // A part origin only for values read from user-data.
                        if !origin.is_null() && layer["layer"] != json!("user-data") {
                            bad.push(format!("pair {i}: part origin outside user-data: {c}"));
                        }
                        if !layer.is_null() && layer["layer"] != json!("user-data") {
                            from_layers += 1;
                        }
                    }
                }
            }
            Err(e) if e.starts_with("old payload") || e.starts_with("new payload") => skipped += 1,
            Err(e) => bad.push(format!(
                "pair {i}:\nA:\n{}\nB:\n{}\n{e}",
                String::from_utf8_lossy(&a),
                String::from_utf8_lossy(&b)
            )),
        }
    }
    eprintln!(
        "diff properties with layers: {checked} of {n} pairs checked ({changed} differ at boot, {from_layers} values from other layers), {skipped} skipped (a side aborts or the layers crash), {} failed",
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} pairs failed:\n{}",
        bad.len(),
        bad.iter().take(3).cloned().collect::<Vec<_>>().join("\n\n")
    );
    assert!(
        checked * 10 >= n * 8,
        "too few pairs checked: {checked} of {n}"
    );
}

/// A `diff --plan` step change as seen from the other side.
fn mirrored_step(c: &J) -> J {
    let op = match c["op"].as_str().unwrap() {
        "add" => "remove",
        "remove" => "add",
        o => o,
    };
    let lines: Vec<J> = c["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let op = if l["op"] == json!("add") { "remove" } else { "add" };
            json!({"op": op, "old_line": l["new_line"], "new_line": l["old_line"], "text": l["text"]})
        })
        .collect();
    json!({"op": op, "old_index": c["new_index"], "new_index": c["old_index"],
           "old": c["new"], "new": c["old"], "lines": lines})
}

/// A `diff --plan` module change as seen from the other side.
fn mirrored_module(m: &J) -> J {
    let op = match m["op"].as_str().unwrap() {
        "starts" => "stops",
        "stops" => "starts",
        "listed" => "unlisted",
        "unlisted" => "listed",
        o => o,
    };
    json!({"op": op, "module": m["module"], "old_index": m["new_index"], "new_index": m["old_index"],
           "old": m["new"], "new": m["old"]})
}

/// Every change of a `diff --plan` JSON document as a sorted list of lines (each with its
/// stage and list), mirrored first when `mirror`.
fn plan_changes(j: &J, mirror: bool) -> Vec<String> {
    // Within a changed step, each hunk lists its removed lines first on either side: the
    // lines compare as a set.
    let step = |c: &J| {
        let mut c = if mirror { mirrored_step(c) } else { c.clone() };
        if let Some(lines) = c["lines"].as_array_mut() {
            lines.sort_by_key(ordered);
        }
        c
    };
    let mut out = Vec::new();
    for s in j["stages"].as_array().unwrap() {
        let st = s["stage"].as_str().unwrap();
        for list in ["section_changes", "consume_data"] {
            for c in s[list].as_array().unwrap() {
                out.push(format!("{st} {list} {}", ordered(&step(c))));
            }
        }
        for m in s["modules"].as_array().unwrap() {
            let m = if mirror {
                mirrored_module(m)
            } else {
                m.clone()
            };
            out.push(format!("{st} module {}", ordered(&m)));
        }
        for c in s["commands"].as_array().unwrap() {
            for ch in c["changes"].as_array().unwrap() {
                out.push(format!("{st} {} {}", c["module"], ordered(&step(ch))));
            }
        }
    }
    for c in j["notes"].as_array().unwrap() {
        out.push(format!("notes {}", ordered(&step(c))));
    }
    out.sort();
    out
}

/// `diff --plan`'s properties: the boot plans of A and A do not differ, and `diff --plan A B`
/// mirrors `diff --plan B A` (adds and removes, starts and stops swapped), each plan made under
/// the Debian 13 image's /etc/cloud as `diff --plan` makes it. `CLOUDFOLD_DIFF_PLAN_PAIRS`
/// (default 200; CI: 1,000).
#[test]
fn diff_plan_properties_on_generated_pairs() {
    use cloudfold::diff::{Budget, diff_plans, plan_diff_json};
    use cloudfold::layers::{ImageProfile, fold_layers};
    use cloudfold::plan::{BootPlan, PlanOptions, plan};
    let n = env_count("CLOUDFOLD_DIFF_PLAN_PAIRS", 200);
    let etc = ImageProfile::Debian13.etc_cloud(Release::V25_1);
    let boot = |payload: &[u8]| -> Option<BootPlan> {
        let inputs = LayerInputs {
            etc: Some(etc.clone()),
            user_data: Some(payload.to_vec()),
            ..LayerInputs::default()
        };
        let l = fold_layers(&inputs, &opts(), &NoIncludes).ok()?;
        Some(plan(&l, &PlanOptions::default()))
    };
    let mut r = Rng::new(0x91a7);
    let (mut checked, mut skipped, mut differ, mut bad) = (0, 0, 0, Vec::new());
    let mut kinds: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let start = std::time::Instant::now();
    for i in 0..n {
        let (a, b) = pair(&mut r);
        let (Some(pa), Some(pa2), Some(pb)) = (boot(&a), boot(&a), boot(&b)) else {
            skipped += 1;
            continue;
        };
        let budget = || Budget::new(cloudfold::diff::DEFAULT_MAX_ALIGN_WORK);
        let same = diff_plans(&pa, &pa2, &mut budget());
        let ab = plan_diff_json(&diff_plans(&pa, &pb, &mut budget()), &pa);
        let ba = plan_diff_json(&diff_plans(&pb, &pa, &mut budget()), &pb);
        checked += 1;
        let err = if !same.is_empty() {
            Some(format!("diff --plan A A is not empty: {same:?}"))
        } else if ab["same"] != ba["same"] {
            Some("`same` differs by direction".to_owned())
        } else if plan_changes(&ab, true) != plan_changes(&ba, false) {
            Some(format!("not mirror images:\nA->B {ab:#}\nB->A {ba:#}"))
        } else {
            None
        };
        if ab["same"] == json!(false) {
            differ += 1;
        }
        for line in plan_changes(&ab, false) {
            let mut w = line.split(' ');
            let (stage, list) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
            let op = line
                .split("\"op\":\"")
                .nth(1)
                .and_then(|t| t.split('"').next())
                .unwrap_or("");
            let list = if list.starts_with('"') {
                "commands"
            } else {
                list
            };
            *kinds.entry(format!("{stage} {list} {op}")).or_default() += 1;
        }
        if let Some(e) = err {
            bad.push(format!(
                "pair {i}:\nA:\n{}\nB:\n{}\n{e}",
                String::from_utf8_lossy(&a),
                String::from_utf8_lossy(&b)
            ));
        }
    }
    eprintln!(
        "diff --plan properties: {checked} of {n} pairs checked ({differ} plans differ), {skipped} skipped (a side does not fold), {} failed, {:.1} s",
        bad.len(),
        start.elapsed().as_secs_f64()
    );
    eprintln!("diff --plan properties: changes seen: {kinds:?}");
    assert!(
        bad.is_empty(),
        "{} pairs failed:\n{}",
        bad.len(),
        bad.iter().take(3).cloned().collect::<Vec<_>>().join("\n\n")
    );
    assert!(
        checked * 10 >= n * 8,
        "too few pairs checked: {checked} of {n}"
    );
    assert!(
        differ * 4 >= checked,
        "too few plans differ: {differ} of {checked}"
    );
}
