//! Python's `==`, ordering and `-` over template values (used by sort, min, max, unique, dict keys; `a - b`).

use super::py_error::{PyExc, RenderFault};
use super::py_object::{Missing, PyDict, PyList};
use minijinja::value::{Value, ValueKind};
use std::cmp::Ordering;

/// The value as a float, if it is a number or a bool.
pub(crate) fn as_f64(v: &Value) -> Option<f64> {
    match v.kind() {
        ValueKind::Bool => Some(if v.is_true() { 1.0 } else { 0.0 }),
        ValueKind::Number => f64::try_from(v.clone()).ok(),
        _ => None,
    }
}

/// The value as an integer, if it is an int or a bool.
pub(crate) fn as_int(v: &Value) -> Option<i128> {
    match v.kind() {
        ValueKind::Bool => Some(i128::from(v.is_true())),
        ValueKind::Number if v.is_integer() => i128::try_from(v.clone()).ok(),
        _ => None,
    }
}

/// The items of a list-like value (PyList, MiniJinja list, tuple).
pub(crate) fn list_items(v: &Value) -> Option<Vec<Value>> {
    if let Some(l) = v.downcast_object_ref::<PyList>() {
        return Some(l.items());
    }
    if matches!(v.kind(), ValueKind::Seq) {
        return v.try_iter().ok().map(Iterator::collect);
    }
    None
}

/// Python `a == b`.
pub(crate) fn py_eq(a: &Value, b: &Value) -> bool {
    match (a.kind(), b.kind()) {
        (ValueKind::String, ValueKind::String) => a.as_str() == b.as_str(),
        (ValueKind::None, ValueKind::None) => true,
        (ValueKind::Number | ValueKind::Bool, ValueKind::Number | ValueKind::Bool) => {
            match (as_int(a), as_int(b)) {
                (Some(x), Some(y)) => x == y,
                _ => as_f64(a) == as_f64(b),
            }
        }
        _ => {
            if Missing::of(a).is_some() || Missing::of(b).is_some() {
                return Missing::of(a).is_some() && Missing::of(b).is_some();
            }
            if let (Some(x), Some(y)) = (
                a.downcast_object_ref::<PyDict>(),
                b.downcast_object_ref::<PyDict>(),
            ) {
                let (x, y) = (x.snapshot(), y.snapshot());
                return x.len() == y.len()
                    && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| py_eq(v, w)));
            }
            if a.is_tuple() != b.is_tuple() {
                return false;
            }
            if let (Some(x), Some(y)) = (list_items(a), list_items(b)) {
                return x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| py_eq(p, q));
            }
            a == b
        }
    }
}

/// Python's `<` family: an order, or the `TypeError` Python raises.
pub(crate) fn py_cmp(a: &Value, b: &Value) -> Result<Ordering, RenderFault> {
    // An undefined's `__lt__` raises (the left one's, else the reflected right's).
    if let Some(m) = Missing::of(a).or_else(|| Missing::of(b)) {
        return Err(RenderFault::undefined(m.message()));
    }
    match (a.kind(), b.kind()) {
        (ValueKind::String, ValueKind::String) => {
            Ok(a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")))
        }
        (ValueKind::Number | ValueKind::Bool, ValueKind::Number | ValueKind::Bool) => {
            match (as_int(a), as_int(b)) {
                (Some(x), Some(y)) => Ok(x.cmp(&y)),
                _ => Ok(as_f64(a).partial_cmp(&as_f64(b)).unwrap_or(Ordering::Equal)),
            }
        }
        _ => {
            if let (Some(x), Some(y)) = (list_items(a), list_items(b))
                && a.is_tuple() == b.is_tuple()
            {
                for (p, q) in x.iter().zip(&y) {
                    if !py_eq(p, q) {
                        return py_cmp(p, q);
                    }
                }
                return Ok(x.len().cmp(&y.len()));
            }
            Err(RenderFault::Py(
                PyExc::TypeError,
                format!(
                    "'<' not supported between instances of '{}' and '{}'",
                    type_name(a),
                    type_name(b)
                ),
            ))
        }
    }
}

/// Lexicographic order of two lists (for `custom_cmp`).
pub(crate) fn py_cmp_seq(a: &[Value], b: &[Value]) -> Option<Ordering> {
    for (p, q) in a.iter().zip(b) {
        if !py_eq(p, q) {
            return py_cmp(p, q).ok();
        }
    }
    Some(a.len().cmp(&b.len()))
}

/// Python's `type(x).__name__`.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::None => "NoneType",
        ValueKind::Bool => "bool",
        ValueKind::Number => {
            if v.is_integer() {
                "int"
            } else {
                "float"
            }
        }
        ValueKind::String => {
            if v.is_safe() {
                "Markup"
            } else {
                "str"
            }
        }
        ValueKind::Bytes => "bytes",
        _ => {
            if Missing::of(v).is_some() {
                "UndefinedJinjaVariable"
            } else if v.downcast_object_ref::<PyDict>().is_some() || v.kind() == ValueKind::Map {
                "dict"
            } else if v.is_tuple() {
                "tuple"
            } else if let Some(s) = v.downcast_object_ref::<super::py_object::PySeq>() {
                s.type_name()
            } else if v
                .downcast_object_ref::<super::py_object::PyRange>()
                .is_some()
            {
                "range"
            } else if v
                .downcast_object_ref::<super::py_object::BigInt>()
                .is_some()
            {
                "int"
            } else if v.kind() == ValueKind::Seq {
                "list"
            } else if v
                .downcast_object_ref::<super::py_object::BoundMethod>()
                .is_some()
            {
                "builtin_function_or_method"
            } else {
                "object"
            }
        }
    }
}

/// The (key, value) pairs of a map-like value (none for anything else).
pub(crate) fn pairs(v: &Value) -> Vec<(Value, Value)> {
    v.as_object()
        .and_then(|o| o.try_iter_pairs())
        .map(Iterator::collect)
        .unwrap_or_default()
}

/// Python's `a - b` as a template computes it: cloud-init's undefined raises
/// its "Jinja tried subtraction" `TypeError` on the left (`__sub__`), any
/// undefined raises `UndefinedError` on the right (`__rsub__`), numbers
/// subtract, anything else is `TypeError: unsupported operand type(s)`.
pub(crate) fn py_sub(a: &Value, b: &Value) -> Result<Value, RenderFault> {
    if let Some(m) = Missing::of(a) {
        if m.is_plain_undefined() {
            return Err(RenderFault::undefined(m.message()));
        }
        let other = super::py_format::py_str(b)?.replace(super::MISSING_JINJA_PREFIX, "");
        let this = m.name_text();
        return Err(RenderFault::type_error(format!(
            "Undefined jinja variable: \"{this}-{other}\". Jinja tried subtraction. Perhaps you meant \"{this}_{other}\"?"
        )));
    }
    if let Some(m) = Missing::of(b) {
        return Err(RenderFault::undefined(m.message()));
    }
    let numeric = |v: &Value| matches!(v.kind(), ValueKind::Number | ValueKind::Bool);
    if numeric(a) && numeric(b) {
        if let (Some(x), Some(y)) = (as_int(a), as_int(b)) {
            return x
                .checked_sub(y)
                .map(Value::from)
                .ok_or_else(|| RenderFault::unsupported("an integer subtraction beyond 128 bits"));
        }
        if let (Some(x), Some(y)) = (as_f64(a), as_f64(b)) {
            return Ok(Value::from(x - y));
        }
    }
    if a.downcast_object_ref::<super::py_object::BigInt>()
        .is_some()
        || b.downcast_object_ref::<super::py_object::BigInt>()
            .is_some()
    {
        return Err(RenderFault::unsupported(
            "arithmetic on an integer beyond 128 bits",
        ));
    }
    Err(RenderFault::type_error(format!(
        "unsupported operand type(s) for -: '{}' and '{}'",
        type_name(a),
        type_name(b)
    )))
}

/// The type Python's `hash()` rejects the value for ("unhashable type: 'list'"),
/// if it does: lists, dicts and dict views, and tuples holding one.
pub(crate) fn unhashable(v: &Value) -> Option<&'static str> {
    if Missing::of(v).is_some() {
        return None;
    }
    if v.is_tuple() {
        return list_items(v)?.iter().find_map(unhashable);
    }
    if let Some(s) = v.downcast_object_ref::<super::py_object::PySeq>() {
        return s.has_len().then(|| s.type_name());
    }
    if v.downcast_object_ref::<PyDict>().is_some() || v.downcast_object_ref::<PyList>().is_some() {
        return Some(type_name(v));
    }
    let container = matches!(v.kind(), ValueKind::Map | ValueKind::Seq)
        && v.downcast_object_ref::<super::py_object::PyRange>()
            .is_none()
        && !super::lookup::is_namespace(v);
    container.then(|| type_name(v))
}
