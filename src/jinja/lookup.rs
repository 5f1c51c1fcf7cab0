//! `getattr`/`getitem`: Jinja2's `Environment.getattr` and `getitem` over every template value, and Python's `iter()` for loops.
//!
//! `a.b` tries Python's attribute (a method of str, dict, list…), then the
//! item; `a[b]` the item, then (for a str key) the attribute; a miss is an
//! undefined that knows its name and the object it was looked up on
//! (`CI_MISSING_JINJA_VAR/b`; "'int object' has no attribute 'b'"). The
//! compiled template calls these for every lookup (`program.rs`).

use super::py_error::{PyExc, py_err};
use super::py_object::{
    BigInt, BoundMethod, DICT_METHODS, LIST_METHODS, Missing, PyDict, PyList, PyRange, PySeq,
};
use super::py_ops::{as_int, type_name};
use minijinja::value::{Value, ValueKind};
use minijinja::{Error, ErrorKind};

/// The methods (and data attributes, handled apart) Python's `str` has.
const STR_METHODS: &[&str] = &[
    "capitalize",
    "casefold",
    "center",
    "count",
    "encode",
    "endswith",
    "expandtabs",
    "find",
    "format",
    "format_map",
    "index",
    "isalnum",
    "isalpha",
    "isascii",
    "isdecimal",
    "isdigit",
    "isidentifier",
    "islower",
    "isnumeric",
    "isprintable",
    "isspace",
    "istitle",
    "isupper",
    "join",
    "ljust",
    "lower",
    "lstrip",
    "maketrans",
    "partition",
    "removeprefix",
    "removesuffix",
    "replace",
    "rfind",
    "rindex",
    "rjust",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "swapcase",
    "title",
    "translate",
    "upper",
    "zfill",
];

/// Methods of `int` (and `bool`).
const INT_METHODS: &[&str] = &[
    "as_integer_ratio",
    "bit_count",
    "bit_length",
    "conjugate",
    "from_bytes",
    "to_bytes",
];

/// Methods of `float`.
const FLOAT_METHODS: &[&str] = &[
    "as_integer_ratio",
    "conjugate",
    "fromhex",
    "hex",
    "is_integer",
];

/// Methods of `tuple`.
const TUPLE_METHODS: &[&str] = &["count", "index"];

/// Jinja2's `object_type_repr`: "None", "int object", "markupsafe.Markup object".
pub(crate) fn owner_label(v: &Value) -> String {
    if v.is_none() {
        return "None".to_owned();
    }
    match type_name(v) {
        "Markup" => "markupsafe.Markup object".to_owned(),
        "UndefinedJinjaVariable" => "cloudinit.templater.UndefinedJinjaVariable object".to_owned(),
        t => format!("{t} object"),
    }
}

/// A MiniJinja dict (a dict literal): its map type, with `preserve_order`.
fn is_plain_map(v: &Value) -> bool {
    v.downcast_object_ref::<indexmap::IndexMap<Value, Value>>()
        .is_some()
}

/// A `namespace()` object: MiniJinja's only other map (its type is private).
pub(crate) fn is_namespace(v: &Value) -> bool {
    v.kind() == ValueKind::Map && v.downcast_object_ref::<PyDict>().is_none() && !is_plain_map(v)
}

/// The Python methods of a value's type, if it is one cloudfold models.
fn methods_of(v: &Value) -> &'static [&'static str] {
    match v.kind() {
        ValueKind::String => STR_METHODS,
        ValueKind::Bool => INT_METHODS,
        ValueKind::Number if v.is_integer() => INT_METHODS,
        ValueKind::Number => FLOAT_METHODS,
        _ if v.downcast_object_ref::<BigInt>().is_some() => INT_METHODS,
        _ if v.downcast_object_ref::<PyDict>().is_some() || is_plain_map(v) => DICT_METHODS,
        _ if v.is_tuple() => TUPLE_METHODS,
        _ if v.downcast_object_ref::<PyList>().is_some()
            || (v.kind() == ValueKind::Seq
                && v.as_object()
                    .is_some_and(|o| o.downcast_ref::<PyRange>().is_none())) =>
        {
            LIST_METHODS
        }
        _ => &[],
    }
}

/// Python's index into a sequence of `len` items (negative from the end).
fn seq_index(key: &Value, len: usize) -> Option<usize> {
    if !matches!(key.kind(), ValueKind::Number | ValueKind::Bool) {
        return None;
    }
    let i = as_int(key)?;
    let len = i128::try_from(len).ok()?;
    let i = if i < 0 { i + len } else { i };
    if (0..len).contains(&i) {
        usize::try_from(i).ok()
    } else {
        None
    }
}

/// Python's attribute of `obj` (a method, a number's `real`…), if it has it.
fn py_attr(obj: &Value, name: &str) -> Option<Value> {
    if let Some(v) = super::group_tuple::field(obj, name) {
        return Some(v);
    }
    if methods_of(obj).contains(&name) {
        return Some(BoundMethod::value(obj.clone(), name));
    }
    let number = matches!(obj.kind(), ValueKind::Number | ValueKind::Bool);
    if number {
        let float = obj.kind() == ValueKind::Number && !obj.is_integer();
        return match name {
            "real" if float => Some(obj.clone()),
            "imag" if float => Some(Value::from(0.0)),
            "real" | "numerator" => as_int(obj)
                .and_then(|i| i64::try_from(i).ok())
                .map(Value::from),
            "imag" => Some(Value::from(0)),
            "denominator" => Some(Value::from(1)),
            _ => None,
        };
    }
    None
}

/// Python's `getattr(obj, name)` alone (the `attr` filter): no item fallback.
pub(crate) fn attribute(obj: &Value, name: &str) -> Value {
    if let Some(m) = Missing::of(obj) {
        super::py_error::note(super::py_error::RenderFault::undefined(m.message()));
        return obj.clone();
    }
    if let Some(v) = py_attr(obj, name) {
        return v;
    }
    // MiniJinja's `loop` and namespace objects: their values are attributes.
    let python_container = matches!(obj.kind(), ValueKind::Map | ValueKind::Seq)
        && !is_namespace(obj)
        || obj.downcast_object_ref::<PyDict>().is_some()
        || obj.downcast_object_ref::<PyList>().is_some()
        || obj.downcast_object_ref::<PyRange>().is_some()
        || obj.downcast_object_ref::<PySeq>().is_some()
        || obj.downcast_object_ref::<BigInt>().is_some();
    if !python_container
        && let Some(v) = obj.as_object().and_then(|o| o.get_value_by_str(name))
        && !v.is_undefined()
        && Missing::of(&v).is_none()
    {
        return v;
    }
    Missing::attr(&Value::from(name), &owner_label(obj))
}

/// Jinja2's `Environment.getattr(obj, name)`.
pub(crate) fn getattr(obj: &Value, name: &str) -> Result<Value, Error> {
    if obj.is_undefined() {
        // MiniJinja's own undefined: its lookup error (explained by the engine).
        return Err(Error::from(ErrorKind::UndefinedError));
    }
    if let Some(v) = py_attr(obj, name) {
        return Ok(v);
    }
    if let Some(o) = obj.as_object() {
        // cloudfold's objects answer Python's way themselves (a miss is a
        // named undefined); MiniJinja's (a dict literal, `loop`, a namespace)
        // answer with the item or nothing.
        if let Some(v) = o.get_value_by_str(name)
            && !v.is_undefined()
        {
            return Ok(v);
        }
    }
    Ok(Missing::attr(&Value::from(name), &owner_label(obj)))
}

/// Jinja2's `Environment.getitem(obj, key)`.
pub(crate) fn getitem(obj: &Value, key: &Value) -> Result<Value, Error> {
    if obj.is_undefined() {
        return Err(Error::from(ErrorKind::UndefinedError));
    }
    let ours = Missing::of(obj).is_some()
        || obj.downcast_object_ref::<PyDict>().is_some()
        || obj.downcast_object_ref::<PyList>().is_some()
        || obj.downcast_object_ref::<PySeq>().is_some()
        || obj.downcast_object_ref::<PyRange>().is_some();
    if ours && let Some(o) = obj.as_object() {
        // Their `get_value` is Python's `obj[key]`, then the attribute.
        return Ok(o
            .get_value(key)
            .unwrap_or_else(|| Missing::attr(key, &owner_label(obj))));
    }
    let item = match obj.kind() {
        ValueKind::String => {
            let text = obj.as_str().unwrap_or_default();
            seq_index(key, text.chars().count())
                .and_then(|i| text.chars().nth(i))
                .map(|c| Value::from(c.to_string()))
        }
        ValueKind::Seq if obj.as_object().is_some() => {
            let items: Vec<Value> = obj.try_iter().into_iter().flatten().collect();
            seq_index(key, items.len()).and_then(|i| items.get(i).cloned())
        }
        ValueKind::Map => obj
            .as_object()
            .and_then(|o| o.get_value(key))
            .filter(|v| !v.is_undefined()),
        _ => obj
            .as_object()
            .and_then(|o| o.get_value(key))
            .filter(|v| !v.is_undefined()),
    };
    if let Some(v) = item {
        return Ok(v);
    }
    match key.as_str() {
        Some(name) if key.kind() == ValueKind::String => {
            if let Some(v) = py_attr(obj, name) {
                return Ok(v);
            }
            Ok(Missing::attr(key, &owner_label(obj)))
        }
        _ => Ok(Missing::attr(key, &owner_label(obj))),
    }
}

/// Whether Python's `iter(x)` accepts the value (`None`, numbers and methods it does not).
pub(crate) fn is_iterable(v: &Value) -> bool {
    match v.kind() {
        ValueKind::None | ValueKind::Bool | ValueKind::Number => false,
        _ => {
            v.downcast_object_ref::<BigInt>().is_none()
                && v.downcast_object_ref::<BoundMethod>().is_none()
        }
    }
}

/// Python's `iter(x)` as a `for` loop calls it: the value, or the `TypeError`.
pub(crate) fn iterable(v: Value) -> Result<Value, Error> {
    if v.kind() == ValueKind::String {
        // Its characters as a list: MiniJinja's string iterator has no
        // length, so its `loop.last` would never be true.
        let chars = v.as_str().unwrap_or_default().chars();
        return Ok(PyList::value(chars.map(Value::from).collect()));
    }
    if is_iterable(&v) {
        return Ok(v);
    }
    py_err(
        PyExc::TypeError,
        format!("'{}' object is not iterable", type_name(&v)),
    )
}
