//! `py_str` / `py_repr`: Python's `str(x)` and `repr(x)` of loaded values (for header texts and messages); a `str`'s repr is `crate::python`'s.

use super::{Node, PyStr, Value, py_float_repr};
use crate::python::{py_repr_bytes, py_repr_code_points, py_repr_str};
use base64::Engine;

/// `str(x)`: strings as they are, everything else as `repr`.
pub fn py_str(node: &Node) -> PyStr {
    match node.value() {
        Value::Str(s) => s.clone(),
        Value::Date(d) => PyStr::from(d.to_string()),
        Value::DateTime(d) => PyStr::from(d.isoformat(' ')),
        _ => PyStr::from(py_repr(node)),
    }
}

/// `repr(x)` of a value Python's `json.load` made (a schema keyword's value):
/// `None`/`True`/`False`, ints, float reprs, `'str'`, `[...]`, `{'k': v}`.
pub fn py_repr_json(v: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match v {
        J::Null => "None".into(),
        J::Bool(true) => "True".into(),
        J::Bool(false) => "False".into(),
        J::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (None, Some(u), _) => u.to_string(),
            (None, None, Some(f)) => py_float_repr(f),
            _ => n.to_string(),
        },
        J::String(s) => py_repr_str(s),
        J::Array(a) => format!(
            "[{}]",
            a.iter().map(py_repr_json).collect::<Vec<_>>().join(", ")
        ),
        J::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", py_repr_str(k), py_repr_json(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `repr(x)` (depth-limited; recursive containers print `[...]` as Python does).
pub fn py_repr(node: &Node) -> String {
    let mut out = String::new();
    repr_into(node, &mut out, &mut Vec::new());
    out
}

fn repr_into(node: &Node, out: &mut String, path: &mut Vec<usize>) {
    let container = matches!(
        node.value(),
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_)
    );
    if container && (path.contains(&node.id()) || path.len() > 200) {
        out.push_str(match node.value() {
            Value::Map(_) => "{...}",
            Value::Tuple(_) => "(...)",
            Value::Set(_) => "{...}",
            _ => "[...]",
        });
        return;
    }
    if container {
        path.push(node.id());
    }
    match node.value() {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&py_float_repr(*f)),
        Value::Str(s) => out.push_str(&py_repr_code_points(s.chars())),
        Value::Bytes(b) => out.push_str(&py_repr_bytes(b)),
        Value::Date(d) => out.push_str(&format!(
            "datetime.date({}, {}, {})",
            d.year, d.month, d.day
        )),
        Value::DateTime(d) => {
            out.push_str(&format!(
                "datetime.datetime({}, {}, {}, {}, {}",
                d.date.year, d.date.month, d.date.day, d.hour, d.minute
            ));
            if d.second != 0 || d.microsecond != 0 {
                out.push_str(&format!(", {}", d.second));
            }
            if d.microsecond != 0 {
                out.push_str(&format!(", {}", d.microsecond));
            }
            if let Some(off) = d.offset_minutes {
                if off == 0 {
                    out.push_str(", tzinfo=datetime.timezone.utc");
                } else {
                    let secs = i64::from(off) * 60;
                    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
                    if days != 0 {
                        out.push_str(&format!(
                            ", tzinfo=datetime.timezone(datetime.timedelta(days={days}, seconds={rem})))"
                        ));
                        return;
                    }
                    out.push_str(&format!(
                        ", tzinfo=datetime.timezone(datetime.timedelta(seconds={rem})))"
                    ));
                    return;
                }
            }
            out.push(')');
        }
        Value::Seq(s) => {
            out.push('[');
            for (i, n) in s.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(n, out, path);
            }
            out.push(']');
        }
        Value::Tuple(s) => {
            out.push('(');
            for (i, n) in s.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(n, out, path);
            }
            if s.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(k, out, path);
                out.push_str(": ");
                repr_into(v, out, path);
            }
            out.push('}');
        }
        Value::Set(m) => {
            if m.is_empty() {
                out.push_str("set()");
            } else {
                // Python's set order is by hash; insertion order is our best stand-in.
                out.push('{');
                for (i, k) in m.keys().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    repr_into(k, out, path);
                }
                out.push('}');
            }
        }
    }
    if container {
        path.pop();
    }
}

/// Base64 of bytes as Python's `base64.b64encode` (no newlines).
pub fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs() {
        let s = |p: PyStr| py_repr(&Node::new(Value::Str(p), crate::source::Span::unknown()));
        assert_eq!(s(PyStr::from("it's")), "\"it's\"");
        assert_eq!(
            s(PyStr::from_code_points([0xDC80, 0x378])),
            "'\\udc80\\u0378'"
        );
    }
}
