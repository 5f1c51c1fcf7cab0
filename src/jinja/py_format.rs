//! Python's `str()` and `repr()` of template values: what Jinja2 writes for `{{ x }}`.
//!
//! Floats and strings go through the crate's one Python-emulation home
//! (`crate::python`'s `py_float_repr` and `py_repr_code_points`, table-driven from CPython).

use super::py_error::RenderFault;
use super::py_object::{BigInt, BoundMethod, Missing, PyDict, PyList, PyRange, PySeq, SeqKind};
use crate::python::{py_float_repr, py_repr_code_points};
use minijinja::value::{ObjectRepr, Value, ValueKind};

/// `repr()` of a Python str.
pub(crate) fn py_repr_text(s: &str) -> String {
    // Stand-ins for bytes that were not UTF-8 are Python's lone surrogates.
    py_repr_code_points(s.chars().map(|c| {
        if super::jinja_part::is_escape(c) {
            u32::from(c) - 0x10_FF00 + 0xDC00
        } else {
            u32::from(c)
        }
    }))
}

/// `str(x)` as Jinja2 writes `{{ x }}` (no autoescape).
pub fn py_str(v: &Value) -> Result<String, RenderFault> {
    match v.kind() {
        ValueKind::String => Ok(v.as_str().unwrap_or_default().to_owned()),
        // MiniJinja's own undefined: `loop.previtem` on the first item — Jinja2
        // makes it with a hint and no name, which cloud-init's subclass prints
        // `CI_MISSING_JINJA_VAR/None`. (Inline ifs without else get Jinja2's
        // plain Undefined instead: `template_scan`; failed lookups are named
        // undefineds: `lookup.rs`.)
        ValueKind::Undefined => Ok(format!("{}None", super::MISSING_JINJA_PREFIX)),
        _ => match Missing::of(v) {
            Some(m) => Ok(m.text()),
            None => py_repr(v),
        },
    }
}

/// [`py_str`], a fault written as nothing (for MiniJinja's `Display`, which
/// cannot fail; the fault is recorded for the render).
pub(crate) fn py_str_lossy(v: &Value) -> String {
    match py_str(v) {
        Ok(s) => s,
        Err(f) => {
            super::py_error::note(f);
            String::new()
        }
    }
}

/// `repr(x)`.
pub fn py_repr(v: &Value) -> Result<String, RenderFault> {
    let mut out = String::new();
    repr_into(v, &mut out, 0)?;
    Ok(out)
}

/// Python's float `repr` (also its `str`).
pub(super) fn float_text(f: f64) -> String {
    py_float_repr(f)
}

/// An integer's decimal text, if the value is an integer.
pub(crate) fn int_text(v: &Value) -> Option<String> {
    if v.kind() != ValueKind::Number || !v.is_integer() {
        return None;
    }
    i128::try_from(v.clone())
        .map(|i| i.to_string())
        .ok()
        .or_else(|| u128::try_from(v.clone()).map(|i| i.to_string()).ok())
}

fn repr_into(v: &Value, out: &mut String, depth: usize) -> Result<(), RenderFault> {
    if depth > 900 {
        // CPython's repr recursion limit.
        return Err(RenderFault::Py(
            super::py_error::PyExc::LookupError,
            "maximum recursion depth exceeded while getting the repr of an object".into(),
        ));
    }
    match v.kind() {
        ValueKind::None => out.push_str("None"),
        ValueKind::Bool => out.push_str(if v.is_true() { "True" } else { "False" }),
        ValueKind::Number => match int_text(v) {
            Some(t) => out.push_str(&t),
            None => out.push_str(&float_text(f64::try_from(v.clone()).unwrap_or(f64::NAN))),
        },
        ValueKind::String => {
            let s = v.as_str().unwrap_or_default();
            if v.is_safe() {
                out.push_str("Markup(");
                out.push_str(&py_repr_text(s));
                out.push(')');
            } else {
                out.push_str(&py_repr_text(s));
            }
        }
        // `Undefined.__repr__` names no variable.
        ValueKind::Undefined => out.push_str("Undefined"),
        ValueKind::Bytes => {
            return Err(RenderFault::unsupported("a bytes value"));
        }
        _ => object_repr(v, out, depth)?,
    }
    Ok(())
}

fn items_into<'a>(
    items: impl Iterator<Item = &'a Value>,
    out: &mut String,
    depth: usize,
) -> Result<(), RenderFault> {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        repr_into(item, out, depth + 1)?;
    }
    Ok(())
}

fn object_repr(v: &Value, out: &mut String, depth: usize) -> Result<(), RenderFault> {
    if Missing::of(v).is_some() {
        // `Undefined.__repr__`.
        out.push_str("Undefined");
        return Ok(());
    }
    if let Some(d) = v.downcast_object_ref::<PyDict>() {
        out.push('{');
        for (i, (k, val)) in d.pairs().iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            repr_into(k, out, depth + 1)?;
            out.push_str(": ");
            repr_into(val, out, depth + 1)?;
        }
        out.push('}');
        return Ok(());
    }
    if let Some(l) = v.downcast_object_ref::<PyList>() {
        out.push('[');
        items_into(l.items().iter(), out, depth)?;
        out.push(']');
        return Ok(());
    }
    if let Some(s) = v.downcast_object_ref::<PySeq>() {
        return match s.kind {
            SeqKind::Generator | SeqKind::ReverseIterator => {
                Err(RenderFault::unsupported(format!(
                    "a {} object (a filter such as map, select or reverse returns one; Python prints it with its memory address — add `|list`)",
                    s.type_name()
                )))
            }
            _ => {
                out.push_str(s.type_name());
                out.push_str("([");
                items_into(s.items.iter(), out, depth)?;
                out.push_str("])");
                Ok(())
            }
        };
    }
    if let Some(r) = v.downcast_object_ref::<PyRange>() {
        out.push_str(&if r.step == 1 {
            format!("range({}, {})", r.start, r.stop)
        } else {
            format!("range({}, {}, {})", r.start, r.stop, r.step)
        });
        return Ok(());
    }
    if let Some(b) = v.downcast_object_ref::<BigInt>() {
        out.push_str(&b.0.to_string());
        return Ok(());
    }
    if let Some(m) = v.downcast_object_ref::<BoundMethod>() {
        out.push_str(&m.repr());
        return Ok(());
    }
    let Some(obj) = v.as_object() else {
        return Err(RenderFault::unsupported("a value of an unknown kind"));
    };
    if v.is_tuple() {
        let items: Vec<Value> = obj.try_iter().into_iter().flatten().collect();
        out.push('(');
        items_into(items.iter(), out, depth)?;
        if items.len() == 1 {
            out.push(',');
        }
        out.push(')');
        return Ok(());
    }
    match obj.repr() {
        // MiniJinja's own list and dict (template literals).
        ObjectRepr::Seq if v.kind() == ValueKind::Seq => {
            let items: Vec<Value> = obj.try_iter().into_iter().flatten().collect();
            out.push('[');
            items_into(items.iter(), out, depth)?;
            out.push(']');
            Ok(())
        }
        ObjectRepr::Map => {
            if super::lookup::is_namespace(v) {
                return Err(RenderFault::unsupported("printing a namespace object"));
            }
            out.push('{');
            for (i, (k, val)) in super::py_ops::pairs(v).into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                repr_into(&k, out, depth + 1)?;
                out.push_str(": ");
                repr_into(&val, out, depth + 1)?;
            }
            out.push('}');
            Ok(())
        }
        _ => Err(RenderFault::unsupported(format!(
            "printing a {} object (Python prints its type and memory address)",
            v.kind()
        ))),
    }
}
