//! `diff_layered`: what a change to user-data does to the config the modules see, under the same layers (/etc/cloud, vendor-data, datasource, kernel command line…).

use super::alignment::Budget;
use super::config_walk::diff_configs;
use super::diff_error::{DiffError, Side};
use super::diff_options::DiffOptions;
use super::payload_diff::{PayloadDiff, diff, origin_with};
use crate::explain::{Origin, Position};
use crate::layers::{LayerInputs, LayerKind, LayerOrigin, Layered, fold_layers, origin_of};
use crate::source::{Mark, Span};
use crate::userdata::{FoldText, IncludeResolver, UserDataOptions};

/// Fold `old` and `new` as [`diff`] does (for their parts), and each as the
/// user-data under the same `layers` (their `user_data` is ignored) as
/// [`fold_layers`] does; the changes are those of the two layered configs,
/// what the modules see: a value the user-data stops setting may still come
/// from a layer, and the reverse. Each value's origin is its part (as in
/// [`diff`]) when it was read from user-data, and its layer, file and
/// line:column in `super::ValueChange::old_layer` / `new_layer`.
///
/// ```
/// use cloudfold::diff::{diff_layered, ChangeKind, DiffOptions};
/// use cloudfold::layers::{ConfigFile, LayerInputs};
/// use cloudfold::userdata::{FoldText, NoIncludes, UserDataOptions};
/// let layers = LayerInputs {
///     run_cloud_cfg: Some(ConfigFile::new("/run/cloud-init/cloud.cfg", b"hostname: from-run\n".to_vec())),
///     ..LayerInputs::default()
/// };
/// let old = b"#cloud-config\nhostname: mine\n".to_vec();
/// let new = b"#cloud-config\n{}\n".to_vec();
/// let d = diff_layered(old, new, &layers, &UserDataOptions::default(), &NoIncludes, &DiffOptions::default(), FoldText::Nothing).unwrap();
/// // The hostname is not removed: the layer below now gives it.
/// let c = d.changes.iter().find(|c| c.path().to_string() == "$.hostname").unwrap();
/// assert_eq!(c.kind, ChangeKind::Changed);
/// assert_eq!(c.new_layer.as_ref().unwrap().label, "/run/cloud-init/cloud.cfg");
/// assert_eq!(c.old_origin.unwrap().part, 1);
/// ```
pub fn diff_layered(
    old: Vec<u8>,
    new: Vec<u8>,
    layers: &LayerInputs,
    opts: &UserDataOptions,
    includes: &(dyn IncludeResolver + Sync),
    dopts: &DiffOptions,
    text: FoldText,
) -> Result<PayloadDiff, DiffError> {
    let fold = |side: Side, payload: &[u8]| {
        let inputs = LayerInputs {
            user_data: Some(payload.to_vec()),
            ..layers.clone()
        };
        fold_layers(&inputs, opts, includes).map_err(|error| DiffError::Layers { side, error })
    };
    let lo = fold(Side::Old, &old)?;
    let ln = if old == new {
        lo.clone()
    } else {
        fold(Side::New, &new)?
    };
    let mut d = diff(old, new, opts, includes, dopts, text)?;
    let (found, _) = diff_configs(
        Some(&lo.config),
        Some(&ln.config),
        dopts.max_nodes,
        Budget::new(dopts.max_align_work),
    )?;
    let mut changes = found.changes;
    for c in &mut changes {
        c.old_layer = origin_with(c, true, |s| origin_of(&lo, s));
        c.new_layer = origin_with(c, false, |s| origin_of(&ln, s));
        c.old_origin = origin_with(c, true, |s| part_origin(&lo, s));
        c.new_origin = origin_with(c, false, |s| part_origin(&ln, s));
    }
    d.changes = changes;
    d.by_position = found.by_position;
    d.layers = Some(Box::new((lo, ln)));
    Ok(d)
}

/// Where a span was read, as a user-data part and line:column (`None`: not
/// read from a user-data part).
fn part_origin(l: &Layered, span: Span) -> Option<Origin> {
    let info = l.sources.get(span.source)?;
    let part = info.part.filter(|_| info.layer == LayerKind::UserData)?;
    // As `origin_of` places it (a JSON patch part's shift included).
    let at = |m: Mark| {
        let column = if m.line == 0 {
            m.column + info.shift.1
        } else {
            m.column
        };
        Position {
            line: m.line + info.shift.0 + 1,
            column: column + 1,
        }
    };
    Some(Origin {
        part,
        start: at(span.start),
        end: at(span.end),
    })
}

/// `LayerOrigin` in a few words: `label:line:column`.
pub(crate) fn layer_place(o: &LayerOrigin) -> String {
    format!("{}:{}:{}", o.label, o.line, o.column)
}
