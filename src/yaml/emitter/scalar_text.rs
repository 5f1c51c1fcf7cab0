//! `scalar_text`: the tag and text a scalar value is represented with (PyYAML's SafeRepresenter).

use super::repr_graph::ScalarTag;
use crate::yaml::value::{Int, Value, py_float_repr};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use std::io::Write;

/// The tag of a scalar value; `None` for collections.
pub(super) fn scalar_tag(v: &Value) -> Option<ScalarTag> {
    Some(match v {
        Value::Null => ScalarTag::Null,
        Value::Bool(_) => ScalarTag::Bool,
        Value::Int(_) => ScalarTag::Int,
        Value::Float(_) => ScalarTag::Float,
        Value::Str(_) => ScalarTag::Str,
        Value::Bytes(_) => ScalarTag::Binary,
        Value::Date(_) | Value::DateTime(_) => ScalarTag::Timestamp,
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_) => return None,
    })
}

/// Append the text of a scalar value to `out` (nothing for collections).
pub(super) fn write_scalar(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Int(Int::Small(i)) => {
            let _ = write!(out, "{i}");
        }
        Value::Int(Int::Big(b)) => {
            let _ = write!(out, "{b}");
        }
        Value::Float(f) => float(*f, out),
        Value::Str(s) => out.extend_from_slice(s.as_wtf8()),
        Value::Bytes(b) => encodebytes(b, out),
        Value::Date(d) => {
            let _ = write!(out, "{d}");
        }
        Value::DateTime(d) => out.extend_from_slice(d.isoformat(' ').as_bytes()),
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_) => {}
    }
}

/// `repr(f)` lower-cased, with `.0` put before an exponent that lacks a
/// point (`1e+16` → `1.0e+16`) so that it reads back as a float.
fn float(f: f64, s: &mut Vec<u8>) {
    if f.is_nan() {
        return s.extend_from_slice(b".nan");
    }
    if f.is_infinite() {
        return s.extend_from_slice(if f > 0.0 { b".inf" } else { b"-.inf" });
    }
    let repr = py_float_repr(f);
    if !repr.contains('.')
        && let Some((m, e)) = repr.split_once('e')
    {
        s.extend_from_slice(m.as_bytes());
        s.extend_from_slice(b".0e");
        s.extend_from_slice(e.as_bytes());
    } else {
        s.extend_from_slice(repr.as_bytes());
    }
}

/// Python's `base64.encodebytes`: lines of 76 characters, each ending in "\n".
fn encodebytes(data: &[u8], out: &mut Vec<u8>) {
    // 57 input bytes make one 76-character line.
    let mut line = String::with_capacity(76);
    for chunk in data.chunks(57) {
        line.clear();
        B64.encode_string(chunk, &mut line);
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
}
