//! `to_json`: the explanation as JSON (the `--format json` of `cloudfold explain`; README documents it).

// `j["key"] = …` only panics when `j` is not an object or null; every `j`
// here is built by `json!({…})` a line above.
#![allow(clippy::indexing_slicing)]

use super::change::Step;
use super::explanation::{Entry, Explanation, Origin, PartChange, Position};
use crate::yaml::Node;
use crate::yaml::typed_json::{WalkLimits, to_typed_json};
use serde_json::{Value as J, json};

fn typed(n: &Node) -> J {
    to_typed_json(n, WalkLimits::default()).unwrap_or(J::Null)
}

fn pos(p: Position) -> J {
    json!({"line": p.line, "column": p.column})
}

fn origin(ex: &Explanation, o: &Origin) -> J {
    json!({
        "part": o.part,
        "filename": ex.part(o.part).map(|p| p.filename.as_str()),
        "line": o.start.line,
        "column": o.start.column,
        "end_line": o.end.line,
        "end_column": o.end.column,
    })
}

fn step(s: &Step) -> J {
    let mut j = json!({"part": s.part, "change": s.change.code()});
    if let Some(r) = s.change.reason_code() {
        j["reason"] = json!(r);
    }
    if let super::Change::Truncated { old_len, new_len } = s.change {
        j["old_len"] = json!(old_len);
        j["new_len"] = json!(new_len);
    }
    if let Some(p) = s.replaced_part {
        j["replaced_part"] = json!(p);
    }
    if s.inherited {
        j["inherited"] = json!(true);
    }
    j
}

fn entry(ex: &Explanation, e: &Entry) -> J {
    let mut j = json!({"path": e.path});
    if let Some(k) = &e.key {
        j["key"] = typed(k);
        j["key_origin"] = e.key_origin.as_ref().map_or(J::Null, |o| origin(ex, o));
    }
    if let Some(i) = e.index {
        j["index"] = json!(i);
    }
    j["type"] = json!(e.value.type_name());
    if !matches!(
        e.value.value(),
        crate::yaml::Value::Map(_) | crate::yaml::Value::Seq(_) | crate::yaml::Value::Tuple(_)
    ) {
        j["value"] = typed(&e.value);
    }
    j["origin"] = e.origin.as_ref().map_or(J::Null, |o| origin(ex, o));
    j["origin_kind"] = json!(e.kind.code());
    if !e.contributions.is_empty() {
        j["contributions"] = J::Array(e.contributions.iter().map(|o| origin(ex, o)).collect());
    }
    j["decision"] = e.placed.as_ref().map_or(J::Null, step);
    j["later"] = J::Array(e.later.iter().map(step).collect());
    j
}

fn change(c: &PartChange) -> J {
    let mut j = json!({"path": c.path, "change": c.change.code()});
    if let Some(r) = c.change.reason_code() {
        j["reason"] = json!(r);
    }
    if let super::Change::Truncated { old_len, new_len } = c.change {
        j["old_len"] = json!(old_len);
        j["new_len"] = json!(new_len);
    }
    if let Some(op) = &c.op {
        j["op"] = json!(op);
    }
    j["at"] = c.at.map_or(J::Null, pos);
    if let Some(p) = c.other_part {
        j["other_part"] = json!(p);
    }
    j
}

/// The explanation as one JSON document (format described in the README).
pub fn to_json(ex: &Explanation) -> J {
    json!({
        "format": "cloudfold-explain/1",
        "config": if ex.has_config {
            J::Array(ex.entries.iter().map(|e| entry(ex, e)).collect())
        } else {
            J::Null
        },
        "parts": ex.parts.iter().map(|p| json!({
            "part": p.number,
            "filename": p.filename,
            "content_type": p.content_type,
            "merge_type": p.merge_type,
            "mergers": p.mergers,
            "status": p.status.code(),
            "reason": p.status.reason(),
            "changes": p.changes.iter().map(change).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "filtered_out": ex.filtered_out,
    })
}
