//! `to_json`: the difference as one JSON document (`diff --format json`; the README documents its schema).

use super::part_cause::{PartCause, PartDelta};
use super::payload_diff::PayloadDiff;
use super::value_change::{ChangeKind, Place, ValueChange};
use crate::explain::{Origin, PartSummary};
use crate::layers::LayerOrigin;
use crate::merge::PathSeg;
use crate::yaml::Node;
use crate::yaml::typed_json::{TypedJsonError, WalkLimits, to_typed_json, to_typed_key};
use serde_json::{Map, Value as J, json};

/// The JSON document of a diff, built on demand ([`to_json`]).
#[derive(Clone, Copy, Debug)]
pub struct JsonView<'a> {
    /// The diff.
    pub diff: &'a PayloadDiff,
    /// Limits of each value's typed-JSON walk.
    pub limits: WalkLimits,
}

fn origin(parts: &[PartSummary], o: Option<Origin>) -> J {
    match o {
        Some(o) => json!({
            "part": o.part,
            "filename": o.part.checked_sub(1).and_then(|i| parts.get(i)).map(|p| p.filename.as_str()),
            "line": o.start.line,
            "column": o.start.column,
        }),
        None => J::Null,
    }
}

fn layer(o: Option<&LayerOrigin>) -> J {
    match o {
        Some(o) => json!({
            "layer": o.layer.code(),
            "file": o.label,
            "line": o.line,
            "column": o.column,
        }),
        None => J::Null,
    }
}

fn pointer(segs: &[PathSeg], limits: WalkLimits) -> Result<J, TypedJsonError> {
    segs.iter()
        .map(|s| match s {
            PathSeg::Index(i) => Ok(J::from(*i)),
            PathSeg::Key(k) => to_typed_key(k, limits).map(J::String),
        })
        .collect::<Result<Vec<J>, _>>()
        .map(J::Array)
}

fn keys(ks: &[Node], limits: WalkLimits) -> Result<J, TypedJsonError> {
    ks.iter()
        .map(|k| to_typed_key(k, limits).map(J::String))
        .collect::<Result<Vec<J>, _>>()
        .map(J::Array)
}

fn summary(p: Option<&PartSummary>) -> J {
    match p {
        Some(p) => json!({
            "number": p.number,
            "filename": p.filename,
            "content_type": p.content_type,
            "merge_type": p.merge_type,
            "mergers": p.mergers,
            "status": p.status.code(),
            "reason": p.status.reason(),
        }),
        None => J::Null,
    }
}

fn change(
    d: &PayloadDiff,
    c: &ValueChange,
    causes: &[usize],
    limits: WalkLimits,
) -> Result<J, TypedJsonError> {
    let mut m = Map::new();
    let text = |p: Option<crate::merge::Path>| p.map_or(J::Null, |p| J::String(p.to_string()));
    m.insert("op".into(), c.kind.code().into());
    m.insert("at_boot".into(), c.at_boot().into());
    m.insert(
        "not_at_boot".into(),
        c.not_at_boot.map_or(J::Null, |w| w.code().into()),
    );
    m.insert("path".into(), c.path().to_string().into());
    m.insert("old_path".into(), text(c.old_path()));
    m.insert("new_path".into(), text(c.new_path()));
    let container = match c.place {
        Place::Root => J::Null,
        _ => json!({
            "old": pointer(&c.old_parent, limits)?,
            "new": pointer(&c.new_parent, limits)?,
        }),
    };
    m.insert("container".into(), container);
    match &c.place {
        Place::Key(k) => {
            m.insert("key".into(), to_typed_key(k, limits)?.into());
            if c.in_set {
                m.insert("element".into(), to_typed_json(k, limits)?);
            }
        }
        Place::Index { old, new } => {
            m.insert("old_index".into(), (*old).into());
            m.insert("new_index".into(), (*new).into());
        }
        Place::Root | Place::Container => {}
    }
    let value = |n: &Option<Node>| n.as_ref().map_or(Ok(J::Null), |n| to_typed_json(n, limits));
    match c.kind {
        ChangeKind::Added => {
            m.insert("new".into(), value(&c.new)?);
        }
        ChangeKind::Removed => {
            m.insert("old".into(), value(&c.old)?);
        }
        ChangeKind::Changed => {
            m.insert("old".into(), value(&c.old)?);
            m.insert("new".into(), value(&c.new)?);
        }
        ChangeKind::Retyped => {
            let name = |n: &Option<Node>| n.as_ref().map_or("", Node::type_name);
            m.insert("old_type".into(), name(&c.old).into());
            m.insert("new_type".into(), name(&c.new).into());
        }
        ChangeKind::Reordered => {
            m.insert("old_keys".into(), keys(&c.old_keys, limits)?);
            m.insert("new_keys".into(), keys(&c.new_keys, limits)?);
        }
    }
    m.insert("old_origin".into(), origin(&d.old.parts, c.old_origin));
    m.insert("new_origin".into(), origin(&d.new.parts, c.new_origin));
    if d.layers.is_some() {
        m.insert("old_layer".into(), layer(c.old_layer.as_ref()));
        m.insert("new_layer".into(), layer(c.new_layer.as_ref()));
    }
    m.insert(
        "causes".into(),
        causes.iter().copied().map(J::from).collect(),
    );
    Ok(J::Object(m))
}

fn part(c: &PartCause) -> J {
    let mut m = Map::new();
    m.insert(
        "changes".into(),
        c.deltas.iter().map(|d| J::from(d.code())).collect(),
    );
    m.insert("at_boot".into(), c.at_boot.into());
    m.insert("old".into(), summary(c.old.as_ref()));
    m.insert("new".into(), summary(c.new.as_ref()));
    for d in &c.deltas {
        if let PartDelta::Content(hunks) = d {
            let hunks: Vec<J> = hunks
                .iter()
                .map(|h| {
                    json!({
                        "old_start": h.old_start,
                        "old_lines": h.old_lines,
                        "new_start": h.new_start,
                        "new_lines": h.new_lines,
                    })
                })
                .collect();
            m.insert("content".into(), J::Array(hunks));
        }
    }
    J::Object(m)
}

fn side(s: &super::FoldedSide) -> J {
    json!({
        "has_config": s.folded.config.is_some(),
        "parts": s.parts.len(),
        "cloud_config_txt": s.is_cloud_config_txt,
    })
}

/// The diff as JSON (schema `cloudfold-diff/1`, README "diff --format json"):
/// every value type-faithful (the typed JSON of `render --format json`),
/// every place as a path for people and a pointer for programs.
pub fn to_json(v: JsonView<'_>) -> Result<J, TypedJsonError> {
    let d = v.diff;
    let causes = d.causes();
    let changes = d
        .changes
        .iter()
        .enumerate()
        .map(|(i, c)| {
            change(
                d,
                c,
                causes.get(i).map(Vec::as_slice).unwrap_or_default(),
                v.limits,
            )
        })
        .collect::<Result<Vec<J>, _>>()?;
    Ok(json!({
        "format": "cloudfold-diff/1",
        "same_at_boot": d.same_at_boot(),
        "identical_payloads": d.identical_payloads,
        "config_only": d.config_only,
        "old": side(&d.old),
        "new": side(&d.new),
        "changes": changes,
        "parts": d.parts.iter().map(part).collect::<Vec<J>>(),
        "by_position": d.by_position.iter().map(|p| J::String(p.to_string())).collect::<Vec<J>>(),
    }))
}
