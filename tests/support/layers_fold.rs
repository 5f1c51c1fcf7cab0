//! Folding a generated (or recorded) layer case with cloudfold, and its answer in the shape
//! the layers oracle answers in (`scripts/layers_oracle.py`): shared by the differential and
//! the recorded regression cases.

use super::layers_gen::Case;
use cloudfold::layers::{Layered, LayersError, fold_layers};
use cloudfold::userdata::{NoIncludes, Release, UserDataOptions};
use cloudfold::yaml::typed_json::{WalkLimits, to_typed_json};
use serde_json::{Value as J, json};

pub(crate) fn fold(c: &Case, release: Release) -> Result<Layered, LayersError> {
    let opts = UserDataOptions {
        release,
        instance_data: c.instance_data.as_ref().map(|d| {
            std::sync::Arc::new(cloudfold::jinja::InstanceData::from_json(d.as_bytes()).unwrap())
        }),
        ..UserDataOptions::default()
    };
    fold_layers(&c.inputs(), &opts, &NoIncludes)
}

pub(crate) fn typed(n: &cloudfold::yaml::Node) -> String {
    serde_json::to_string(&to_typed_json(n, WalkLimits::default()).unwrap()).unwrap()
}

pub(crate) fn ours(c: &Case, release: Release) -> J {
    match fold(c, release) {
        Err(LayersError::Crash { .. }) => json!({"error": true}),
        Err(e) => json!({"unsupported": e.to_string()}),
        Ok(l) => {
            // combined-cloud-config.json: written by 25.1's init stage unless it failed
            // (json.dumps raising is such a failure).
            let combined = match cloudfold::layers::combined_cloud_config_json(&l) {
                _ if l.init_stage_error.is_some() => J::Null,
                Ok(text) => J::String(text),
                Err(cloudfold::layers::CombinedJsonError::Release) => J::Null,
                Err(_) => json!("unwritable"),
            };
            json!({
                "error": false,
                "modules": typed(&l.config),
                "init": typed(&l.init_config),
                "init_stage_error": l.init_stage_error.is_some() || combined == json!("unwritable"),
                "combined": if combined == json!("unwritable") { J::Null } else { combined },
            })
        }
    }
}

/// The oracle's answer in the shape [`ours`] gives.
pub(crate) fn theirs(d: &J) -> J {
    if !d["error"].is_null() {
        return json!({"error": true});
    }
    json!({
        "error": false,
        "modules": serde_json::to_string(&d["modules"]).unwrap(),
        "init": serde_json::to_string(&d["init"]).unwrap(),
        "init_stage_error": !d["init_stage_error"].is_null(),
        "combined": d["combined"],
    })
}
