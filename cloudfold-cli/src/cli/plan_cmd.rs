//! `cloudfold plan`: fold the layers, simulate the boot, print its timeline (text or JSON).

use super::args::{BootArg, PlanArgs, PlanFormat};
use super::exit::{Exit, Failure};
use super::layers_cmd::{fold, release_for};
use super::render_cmd::load_instance_data;
use cloudfold::plan::{Boot, PlanOptions, plan, selects, to_json, to_text};
use cloudfold::userdata::Release;
use cloudfold::yaml::Node;

pub(super) fn run(a: &PlanArgs) -> Result<Exit, Failure> {
    let mut layers = a.layers.clone();
    if layers.etc_cloud.is_none() && layers.image.is_none() {
        // Modules run only from the lists in /etc/cloud: without one, an image's.
        let image = match release_for(&a.payload, &layers)? {
            Release::V22_4 => "debian-12",
            Release::V25_1 => "debian-13",
        };
        layers.image = Some(image.to_owned());
    }
    let instance_id = match (&a.instance_id, &a.payload.fold.instance_data) {
        (Some(id), _) => Some(id.clone()),
        (None, Some(path)) => instance_id_of(load_instance_data(path)?.raw()),
        (None, None) => None,
    };
    let layered = match fold(&a.payload, &layers)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let opts = PlanOptions {
        boot: match a.boot {
            BootArg::First => Boot::First,
            BootArg::Next => Boot::Next,
        },
        instance_id,
    };
    let p = plan(&layered, &opts);
    let select = a.select.as_deref();
    if let Some(s) = select {
        let found = p
            .stages
            .iter()
            .filter_map(|st| st.section.as_ref())
            .any(|sec| sec.modules.iter().any(|m| selects(m, s, p.release)));
        if !found {
            eprintln!(
                "error: --select {s}: no module of that name, or activated by that config key, is listed in this boot"
            );
            return Ok(Exit::Usage);
        }
    }
    let out = match a.format {
        PlanFormat::Text => to_text(&p, select).into_bytes(),
        PlanFormat::Json => {
            let mut j = to_json(&p);
            if let Some(s) = select {
                keep_selected(&mut j, &p, s);
            }
            let mut s = Vec::with_capacity(1 << 16);
            serde_json::to_writer_pretty(&mut s, &j).map_err(|e| e.to_string())?;
            s.push(b'\n');
            // The process exits right after: freeing the tree node by node
            // would only cost time (as `render` does with its tree).
            std::mem::forget(j);
            s
        }
    };
    std::mem::forget(p);
    std::mem::forget(layered);
    super::stdout::write_stdout(&out)?;
    Ok(Exit::Ok)
}

/// `v1.instance_id` of the instance data, when it is a string.
pub(super) fn instance_id_of(raw: &Node) -> Option<String> {
    raw.as_map()?
        .get_str("v1")?
        .as_map()?
        .get_str("instance_id")?
        .as_str()
        .map(str::to_owned)
}

/// `--select` in JSON: each stage's modules filtered the same way as the text.
fn keep_selected(j: &mut serde_json::Value, p: &cloudfold::plan::BootPlan, select: &str) {
    let Some(stages) = j.get_mut("stages").and_then(|s| s.as_array_mut()) else {
        return;
    };
    for (sj, st) in stages.iter_mut().zip(&p.stages) {
        let Some(sec) = &st.section else { continue };
        let keep: Vec<bool> = sec
            .modules
            .iter()
            .map(|m| selects(m, select, p.release))
            .collect();
        if let Some(mods) = sj.get_mut("modules").and_then(|m| m.as_array_mut()) {
            let mut k = keep.iter();
            mods.retain(|_| k.next().copied().unwrap_or(false));
        }
        if let Some(o) = sj.as_object_mut() {
            o.insert("consume_data".to_owned(), serde_json::Value::Null);
        }
    }
}
