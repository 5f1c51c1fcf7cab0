//! `JsonRenderer`: diagnostics as JSON objects (code, severity, part, line, column, path, message, help, labels).

use super::{Diagnostic, Label, SourceMap};
use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::{Map, Value, json};

/// Renders diagnostics for machines.
///
/// Each diagnostic is an object:
/// `{"code", "severity", "message", "part", "part_name", "source", "line", "column",
/// "path", "help", "notes", "labels"}` where `part` (1-based, cloud-init's
/// numbering) and `part_name` (the part's filename) are the part the diagnostic
/// is about ([`Diagnostic::part`], else the primary label's), `source` (the
/// display name), `line` and `column` (1-based,
/// columns in code points as PyYAML counts them) and `path` (`$.runcmd[2]`) are
/// those of the primary label, `null` when unknown; `labels` lists every label,
/// primary first, each `{"primary", "part", "part_name", "source", "line",
/// "column", "end_line", "end_column", "path", "message"}`.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonRenderer;

impl JsonRenderer {
    /// A renderer.
    pub fn new() -> Self {
        JsonRenderer
    }

    /// One diagnostic as a JSON object.
    pub fn to_value(&self, d: &Diagnostic, sources: &SourceMap) -> Value {
        let primary = d.primary.as_ref().map(|l| label(l, true, sources));
        let field = |name: &str| {
            primary
                .as_ref()
                .and_then(|p| p.get(name).cloned())
                .unwrap_or(Value::Null)
        };
        let mut o = Map::new();
        o.insert("code".into(), json!(d.code));
        o.insert("severity".into(), json!(d.severity.as_str()));
        o.insert("message".into(), json!(d.message));
        // The part a diagnostic is about, else the part its label is in.
        match &d.part {
            Some(p) => {
                o.insert("part".into(), json!(p.number));
                o.insert("part_name".into(), json!(p.name));
            }
            None => {
                o.insert("part".into(), field("part"));
                o.insert("part_name".into(), field("part_name"));
            }
        }
        for name in ["source", "line", "column", "path"] {
            o.insert(name.into(), field(name));
        }
        o.insert("help".into(), json!(d.help));
        o.insert("notes".into(), json!(d.notes));
        let labels: Vec<Value> = primary
            .clone()
            .into_iter()
            .chain(d.secondary.iter().map(|l| label(l, false, sources)))
            .collect();
        o.insert("labels".into(), Value::Array(labels));
        Value::Object(o)
    }

    /// All diagnostics as a JSON array.
    pub fn to_array(&self, diags: &[Diagnostic], sources: &SourceMap) -> Value {
        Value::Array(diags.iter().map(|d| self.to_value(d, sources)).collect())
    }

    /// All diagnostics as the same JSON array as [`JsonRenderer::to_array`],
    /// serialized one object at a time: tens of thousands of diagnostics held as
    /// one `Value` took ten times the memory of the text they print.
    pub fn array_view<'a>(&self, diags: &'a [Diagnostic], sources: &'a SourceMap) -> ArrayView<'a> {
        ArrayView { diags, sources }
    }
}

/// Diagnostics that serialize as [`JsonRenderer::to_array`]'s array, each
/// object built only while it is written ([`JsonRenderer::array_view`]).
#[derive(Clone, Copy, Debug)]
pub struct ArrayView<'a> {
    diags: &'a [Diagnostic],
    sources: &'a SourceMap,
}

impl Serialize for ArrayView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = JsonRenderer;
        let mut seq = s.serialize_seq(Some(self.diags.len()))?;
        for d in self.diags {
            seq.serialize_element(&r.to_value(d, self.sources))?;
        }
        seq.end()
    }
}

fn label(l: &Label, primary: bool, sources: &SourceMap) -> Value {
    let file = l.source().and_then(|id| sources.get(id));
    let located = l.source().is_some();
    let pos = |v: u32| if located { json!(v + 1) } else { Value::Null };
    json!({
        "primary": primary,
        "part": file.and_then(|f| f.part),
        "part_name": file.and_then(|f| f.filename.clone()),
        "source": file.map(|f| f.name.clone()),
        "line": pos(l.span.start.line),
        "column": pos(l.span.start.column),
        "end_line": pos(l.span.end.line),
        "end_column": pos(l.span.end.column),
        "path": l.path,
        "message": l.message,
    })
}
