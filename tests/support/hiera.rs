//! Running the `hiera` dialect on a recorded case (generated or fixture) and comparing with puppet's answer.

use cloudfold::merge::hiera::{HieraLayer, HieraStrategy, Hierarchy, MergeBehavior};
use cloudfold::yaml::value::{Node, Value};
use cloudfold::yaml::{LoadOptions, load};
use serde_json::Value as J;

/// The merge behaviour `puppet lookup` builds from its flags (the oracle's `merge`).
pub(crate) fn cli_behavior(merge: &J) -> Result<Option<MergeBehavior>, String> {
    match merge {
        J::Null => Ok(None),
        J::String(s) => MergeBehavior::by_name(s)
            .map(|st| Some(MergeBehavior::new(st)))
            .ok_or_else(|| format!("unknown strategy {s}")),
        J::Object(o) => {
            let name = o.get("strategy").and_then(J::as_str).unwrap_or("");
            let st = MergeBehavior::by_name(name).ok_or("unknown strategy")?;
            let mut b = MergeBehavior::new(st);
            if st == HieraStrategy::Deep {
                b.knockout_prefix = o
                    .get("knockout_prefix")
                    .and_then(J::as_str)
                    .map(str::to_owned);
                b.sort_merged_arrays = o.get("sort_merged_arrays") == Some(&J::Bool(true));
                b.merge_hash_arrays = o.get("merge_hash_arrays") == Some(&J::Bool(true));
            }
            Ok(Some(b))
        }
        _ => Err("bad merge".into()),
    }
}

/// Plain JSON of a merged value, as puppet's `--render-as json` prints it.
pub(crate) fn to_json(n: &Node) -> J {
    match n.value() {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => i
            .as_i64()
            .map(J::from)
            .unwrap_or_else(|| J::String(format!("{:?}", i.to_big()))),
        Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(J::Number)
            .unwrap_or(J::Null),
        Value::Str(s) => J::String(s.to_string_lossy().into_owned()),
        Value::Seq(s) | Value::Tuple(s) => J::Array(s.iter().map(to_json).collect()),
        Value::Map(m) => J::Object(
            m.iter()
                .map(|(k, v)| {
                    let key = match k.value() {
                        Value::Str(s) => s.to_string_lossy().into_owned(),
                        _ => cloudfold::yaml::value::py_repr(k),
                    };
                    (key, to_json(v))
                })
                .collect(),
        ),
        _ => J::String(format!("<{}>", n.type_name())),
    }
}

/// Compare cloudfold with puppet's recorded results on one case; the
/// disagreements as text.
pub(crate) fn check_case(
    files: &[(String, String)],
    merge: &J,
    expected: &[(String, J)],
) -> Vec<String> {
    let mut out = Vec::new();
    let layers: Vec<HieraLayer> = files
        .iter()
        .map(|(name, text)| HieraLayer {
            name: name.clone(),
            root: load(text, &LoadOptions::default()).ok().flatten(),
        })
        .collect();
    let h = Hierarchy::new(layers);
    let cli = match cli_behavior(merge) {
        Ok(b) => b,
        Err(e) => return vec![e],
    };
    for (key, want) in expected {
        let got = h.lookup(key, cli.as_ref());
        let want_ok = want["ok"].as_bool().unwrap_or(false);
        match got {
            Ok(Some(m)) if want_ok => {
                let ours = serde_json::to_string(&to_json(&m.value)).unwrap();
                let theirs: J = serde_json::from_str(want["json"].as_str().unwrap()).unwrap();
                let theirs = serde_json::to_string(&theirs).unwrap();
                if ours != theirs {
                    out.push(format!("{key}: cloudfold {ours}, puppet {theirs}"));
                }
            }
            Ok(Some(m)) => out.push(format!(
                "{key}: cloudfold {} ({}), puppet fails: {}",
                serde_json::to_string(&to_json(&m.value)).unwrap(),
                m.behavior,
                want["error"]
            )),
            Ok(None) => out.push(format!("{key}: cloudfold finds nothing, puppet {want}")),
            Err(e) if want_ok => out.push(format!(
                "{key}: cloudfold fails ({e}), puppet {}",
                want["json"]
            )),
            // Messages are cloudfold's own, except where a value is written into one as Ruby
            // writes it (`to_s`/`inspect`): those must be puppet's.
            Err(e) => {
                let theirs = want["error"].as_str().unwrap_or_default();
                if theirs.starts_with("Unknown merge strategy") && !e.to_string().contains(theirs) {
                    out.push(format!(
                        "{key}: cloudfold fails ({e}), puppet fails ({theirs})"
                    ));
                }
            }
        }
    }
    out
}
