//! The `tojson` filter: `json.dumps(value, sort_keys=True)` with `ensure_ascii`, Python floats, and `<>&'` escaped.

use super::py_error::{PyExc, py_err};
use super::py_object::{Missing, PyDict, PyList, PySeq};
use super::py_ops::{py_cmp, type_name};
use crate::python::{py_json_float, py_json_str_unit};
use minijinja::Error;
use minijinja::value::{Value, ValueKind};

/// `htmlsafe_json_dumps(value, sort_keys=True)`: a Markup string.
pub(crate) fn tojson(value: &Value, indent: Option<usize>) -> Result<Value, Error> {
    let out = json_dumps(value, indent)?;
    let out = out
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\'', "\\u0027");
    Ok(Value::from_safe_string(out))
}

fn encode_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        // A byte that was not UTF-8 is Python's lone surrogate.
        let cp = if super::jinja_part::is_escape(c) {
            u32::from(c) - 0x10_FF00 + 0xDC00
        } else {
            u32::from(c)
        };
        py_json_str_unit(out, cp);
    }
    out.push('"');
}

/// A dict key as `json.dumps` writes it (str, or int/float/bool/None converted).
fn key_text(k: &Value) -> Result<String, Error> {
    match k.kind() {
        ValueKind::String => Ok(k.as_str().unwrap_or_default().to_owned()),
        ValueKind::Bool => Ok(if k.is_true() { "true" } else { "false" }.to_owned()),
        ValueKind::None => Ok("null".to_owned()),
        ValueKind::Number => Ok(match super::py_format::int_text(k) {
            Some(t) => t,
            None => py_json_float(f64::try_from(k.clone()).unwrap_or(f64::NAN)),
        }),
        _ => py_err(
            PyExc::TypeError,
            format!(
                "keys must be str, int, float, bool or None, not {}",
                type_name(k)
            ),
        ),
    }
}

/// `json.dumps(value, sort_keys=True, indent=indent)` (ensure_ascii, Python
/// floats, `NaN`/`Infinity`); with an indent the item separator is `,`.
pub fn json_dumps(value: &Value, indent: Option<usize>) -> Result<String, Error> {
    let mut out = String::new();
    encode(value, &mut out, 0, indent)?;
    Ok(out)
}

fn newline(out: &mut String, indent: Option<usize>, level: usize) {
    if let Some(n) = indent {
        out.push('\n');
        out.push_str(&" ".repeat(n * level));
    }
}

fn encode(v: &Value, out: &mut String, depth: usize, indent: Option<usize>) -> Result<(), Error> {
    if depth > 900 {
        return py_err(
            PyExc::LookupError,
            "maximum recursion depth exceeded while encoding a JSON object",
        );
    }
    match v.kind() {
        ValueKind::None => out.push_str("null"),
        ValueKind::Bool => out.push_str(if v.is_true() { "true" } else { "false" }),
        ValueKind::Number => match super::py_format::int_text(v) {
            Some(t) => out.push_str(&t),
            None => out.push_str(&py_json_float(f64::try_from(v.clone()).unwrap_or(f64::NAN))),
        },
        ValueKind::String => encode_str(v.as_str().unwrap_or_default(), out),
        _ => {
            let pairs: Option<Vec<(Value, Value)>> =
                if let Some(d) = v.downcast_object_ref::<PyDict>() {
                    Some(d.pairs())
                } else if v.kind() == ValueKind::Map && Missing::of(v).is_none() {
                    Some(super::py_ops::pairs(v).into_iter().collect())
                } else {
                    None
                };
            if let Some(mut pairs) = pairs {
                let mut fault = None;
                pairs.sort_by(|a, b| match py_cmp(&a.0, &b.0) {
                    Ok(o) => o,
                    Err(f) => {
                        fault.get_or_insert(f);
                        std::cmp::Ordering::Equal
                    }
                });
                if let Some(f) = fault {
                    return Err(super::py_error::raise(f));
                }
                out.push('{');
                if pairs.is_empty() {
                    out.push('}');
                    return Ok(());
                }
                for (i, (k, val)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(if indent.is_some() { "," } else { ", " });
                    }
                    newline(out, indent, depth + 1);
                    encode_str(&key_text(k)?, out);
                    out.push_str(": ");
                    encode(val, out, depth + 1, indent)?;
                }
                newline(out, indent, depth);
                out.push('}');
                return Ok(());
            }
            let is_list = v.downcast_object_ref::<PyList>().is_some()
                || (v.kind() == ValueKind::Seq
                    && v.downcast_object_ref::<super::py_object::PyRange>()
                        .is_none());
            if is_list {
                out.push('[');
                let items: Vec<Value> = v.try_iter().into_iter().flatten().collect();
                if items.is_empty() {
                    out.push(']');
                    return Ok(());
                }
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(if indent.is_some() { "," } else { ", " });
                    }
                    newline(out, indent, depth + 1);
                    encode(item, out, depth + 1, indent)?;
                }
                newline(out, indent, depth);
                out.push(']');
                return Ok(());
            }
            let tn = if let Some(s) = v.downcast_object_ref::<PySeq>() {
                s.type_name()
            } else {
                type_name(v)
            };
            return py_err(
                PyExc::TypeError,
                format!("Object of type {tn} is not JSON serializable"),
            );
        }
    }
    Ok(())
}
