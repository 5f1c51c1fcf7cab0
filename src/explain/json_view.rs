//! `JsonView`: the explanation as JSON (the `--format json` of `cloudfold explain`; README documents it).
//!
//! Serialized as it is walked, not built as a `serde_json::Value` first: a
//! large payload's explanation is tens of megabytes of JSON, and a value
//! tree of it took several times that in memory.

use super::change::{Change, Step};
use super::explanation::{Entry, Explanation, Origin, PartChange, PartSummary, Position};
use crate::yaml::typed_json::{WalkLimits, to_typed_json};
use crate::yaml::{Node, Value};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value as J;

/// The explanation as one JSON document (format described in the README),
/// serialized as it is walked: `serde_json::to_writer_pretty(w, &JsonView(&ex))`.
#[derive(Clone, Copy, Debug)]
pub struct JsonView<'a>(pub &'a Explanation);

/// The explanation as a JSON value ([`JsonView`] collected).
pub fn to_json(ex: &Explanation) -> J {
    serde_json::to_value(JsonView(ex)).unwrap_or(J::Null)
}

impl Serialize for JsonView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ex = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("format", "cloudfold-explain/1")?;
        if ex.has_config {
            m.serialize_entry("config", &EntriesView(ex))?;
        } else {
            m.serialize_entry("config", &())?;
        }
        let parts: Vec<_> = ex.parts.iter().map(PartView).collect();
        m.serialize_entry("parts", &parts)?;
        m.serialize_entry("filtered_out", &ex.filtered_out)?;
        m.end()
    }
}

/// A scalar or key as typed JSON (`null` past the walk limits).
struct Typed<'a>(&'a Node);

impl Serialize for Typed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.value() {
            // A string is itself in typed JSON: written without a copy into a
            // JSON value (one per entry: a huge list's million).
            Value::Str(t) if let Some(t) = t.as_str() => s.serialize_str(t),
            _ => to_typed_json(self.0, WalkLimits::default())
                .unwrap_or(J::Null)
                .serialize(s),
        }
    }
}

struct PosView(Position);

impl Serialize for PosView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("line", &self.0.line)?;
        m.serialize_entry("column", &self.0.column)?;
        m.end()
    }
}

struct OriginView<'a>(&'a Explanation, &'a Origin);

impl Serialize for OriginView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let OriginView(ex, o) = *self;
        let template_line = ex.part(o.part).and_then(|p| p.template_line(o));
        let mut m = s.serialize_map(Some(6 + usize::from(template_line.is_some())))?;
        m.serialize_entry("part", &o.part)?;
        m.serialize_entry("filename", &ex.part(o.part).map(|p| p.filename.as_str()))?;
        m.serialize_entry("line", &o.start.line)?;
        m.serialize_entry("column", &o.start.column)?;
        m.serialize_entry("end_line", &o.end.line)?;
        m.serialize_entry("end_column", &o.end.column)?;
        // A rendered jinja part: line/column are in the rendered text.
        if let Some(t) = template_line {
            m.serialize_entry("template_line", &t)?;
        }
        m.end()
    }
}

/// The fields a change adds when it has them: why old was kept, the
/// lengths of an index overlay.
fn change_details<M: SerializeMap>(m: &mut M, c: Change) -> Result<(), M::Error> {
    if let Some(r) = c.reason_code() {
        m.serialize_entry("reason", r)?;
    }
    if let Change::Truncated { old_len, new_len } = c {
        m.serialize_entry("old_len", &old_len)?;
        m.serialize_entry("new_len", &new_len)?;
    }
    Ok(())
}

fn origin<'a>(ex: &'a Explanation, o: &'a Option<Origin>) -> Option<OriginView<'a>> {
    o.as_ref().map(|o| OriginView(ex, o))
}

struct StepView<'a>(&'a Step);

impl Serialize for StepView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let st = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("part", &st.part)?;
        m.serialize_entry("change", st.change.code())?;
        change_details(&mut m, st.change)?;
        if let Some(p) = st.replaced_part {
            m.serialize_entry("replaced_part", &p)?;
        }
        if st.inherited {
            m.serialize_entry("inherited", &true)?;
        }
        m.end()
    }
}

/// The entries, serialized as they are walked.
struct EntriesView<'a>(&'a Explanation);

impl Serialize for EntriesView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let ex = self.0;
        s.collect_seq(ex.entries().map(|e| EntryView(ex, e)))
    }
}

struct EntryView<'a>(&'a Explanation, Entry);

impl Serialize for EntryView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let EntryView(ex, e) = self;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("path", &e.path)?;
        if let Some(k) = &e.key {
            m.serialize_entry("key", &Typed(k))?;
            m.serialize_entry("key_origin", &origin(ex, &e.key_origin))?;
        }
        if let Some(i) = e.index {
            m.serialize_entry("index", &i)?;
        }
        m.serialize_entry("type", e.value.type_name())?;
        if !matches!(
            e.value.value(),
            Value::Map(_) | Value::Seq(_) | Value::Tuple(_)
        ) {
            m.serialize_entry("value", &Typed(&e.value))?;
        }
        m.serialize_entry("origin", &origin(ex, &e.origin))?;
        m.serialize_entry("origin_kind", e.kind.code())?;
        if !e.contributions.is_empty() {
            let c: Vec<_> = e.contributions.iter().map(|o| OriginView(ex, o)).collect();
            m.serialize_entry("contributions", &c)?;
        }
        m.serialize_entry("decision", &e.placed.as_ref().map(StepView))?;
        let later: Vec<_> = e.later.iter().map(StepView).collect();
        m.serialize_entry("later", &later)?;
        m.end()
    }
}

struct ChangeView<'a>(&'a PartChange);

impl Serialize for ChangeView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("path", &c.path)?;
        m.serialize_entry("change", c.change.code())?;
        change_details(&mut m, c.change)?;
        if let Some(op) = &c.op {
            m.serialize_entry("op", op)?;
        }
        m.serialize_entry("at", &c.at.map(PosView))?;
        if let Some(p) = c.other_part {
            m.serialize_entry("other_part", &p)?;
        }
        m.end()
    }
}

struct PartView<'a>(&'a PartSummary);

impl Serialize for PartView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut m = s.serialize_map(Some(8))?;
        m.serialize_entry("part", &p.number)?;
        m.serialize_entry("filename", &p.filename)?;
        m.serialize_entry("content_type", &p.content_type)?;
        m.serialize_entry("merge_type", &p.merge_type)?;
        m.serialize_entry("mergers", &p.mergers)?;
        m.serialize_entry("status", p.status.code())?;
        m.serialize_entry("reason", &p.status.reason())?;
        let changes: Vec<_> = p.changes.iter().map(ChangeView).collect();
        m.serialize_entry("changes", &changes)?;
        m.end()
    }
}
