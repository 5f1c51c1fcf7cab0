//! Jinja2 3.1's 39 tests (`is defined`, `is divisibleby(3)`, …), as `jinja2/tests.py` defines them.

use super::JinjaVersion;
use super::args::Args;
use super::py_error::{PyExc, py_err, unsupported};
use super::py_object::{Missing, PyDict, PyList, PyRange, PySeq};
use super::py_ops::{as_f64, as_int, py_cmp, py_eq, type_name};
use minijinja::value::{Value, ValueKind};
use minijinja::{Error, State};
use std::cmp::Ordering;

/// The names of Jinja2 3.1's default tests.
pub const TESTS: [&str; 39] = [
    "odd",
    "even",
    "divisibleby",
    "defined",
    "undefined",
    "filter",
    "test",
    "none",
    "boolean",
    "false",
    "true",
    "integer",
    "float",
    "lower",
    "upper",
    "string",
    "mapping",
    "number",
    "sequence",
    "iterable",
    "callable",
    "sameas",
    "escaped",
    "in",
    "==",
    "eq",
    "equalto",
    "!=",
    "ne",
    ">",
    "gt",
    "greaterthan",
    "ge",
    ">=",
    "<",
    "lt",
    "lessthan",
    "<=",
    "le",
];

fn py_mod(value: &Value, num: &Value) -> Result<Option<f64>, Error> {
    if let Some(m) = Missing::of(value) {
        return py_err(PyExc::UndefinedError, m.message());
    }
    match (as_int(value), as_int(num)) {
        (Some(_), Some(0)) => py_err(
            PyExc::ZeroDivisionError,
            "integer division or modulo by zero",
        ),
        (Some(a), Some(b)) => {
            let mut r = a % b;
            if r != 0 && (r < 0) != (b < 0) {
                r += b;
            }
            Ok(Some(r as f64))
        }
        _ => match (as_f64(value), as_f64(num)) {
            (Some(a), Some(b)) => {
                if b == 0.0 {
                    return py_err(PyExc::ZeroDivisionError, "float modulo");
                }
                let r = a % b;
                Ok(Some(if r != 0.0 && (r < 0.0) != (b < 0.0) {
                    r + b
                } else {
                    r
                }))
            }
            // `str % x` is string formatting: without a `%` in the text,
            // the argument is left over.
            _ if value.kind() == ValueKind::String
                && !value.as_str().unwrap_or_default().contains('%') =>
            {
                py_err(
                    PyExc::TypeError,
                    "not all arguments converted during string formatting",
                )
            }
            _ if value.kind() == ValueKind::String => {
                unsupported("the odd/even/divisibleby test on a string holding '%'")
            }
            _ => py_err(
                PyExc::TypeError,
                format!(
                    "unsupported operand type(s) for %: '{}' and '{}'",
                    type_name(value),
                    type_name(num)
                ),
            ),
        },
    }
}

fn compare(value: &Value, other: &Value, want: &[Ordering], op: &str) -> Result<bool, Error> {
    if Missing::of(value).is_some() || Missing::of(other).is_some() {
        let m = Missing::of(value)
            .or(Missing::of(other))
            .map(Missing::message)
            .unwrap_or_default();
        return py_err(PyExc::UndefinedError, m);
    }
    match py_cmp(value, other) {
        Ok(o) => Ok(want.contains(&o)),
        Err(_) => py_err(
            PyExc::TypeError,
            format!(
                "'{op}' not supported between instances of '{}' and '{}'",
                type_name(value),
                type_name(other)
            ),
        ),
    }
}

/// Run the Jinja2 test `name` on `value`.
pub(crate) fn test(
    _state: &State<'_, '_>,
    name: &str,
    value: &Value,
    args: &[Value],
    _version: JinjaVersion,
) -> Result<bool, Error> {
    let a = Args::new(name, args);
    let other = || -> Result<Value, Error> {
        let v = a.bind(&[("other", true)])?;
        Ok(v.into_iter().next().flatten().unwrap_or_default())
    };
    match name {
        "odd" | "even" => {
            a.none()?;
            let r = py_mod(value, &Value::from(2))?.unwrap_or(0.0);
            Ok(if name == "odd" { r == 1.0 } else { r == 0.0 })
        }
        "divisibleby" => {
            let v = a.bind(&[("num", true)])?;
            let num = v.into_iter().next().flatten().unwrap_or_default();
            Ok(py_mod(value, &num)?.unwrap_or(1.0) == 0.0)
        }
        "defined" => Ok(!Missing::is_undefined(value)),
        "undefined" => Ok(Missing::is_undefined(value)),
        // `value in environment.filters` (a dict: the value is hashed).
        "filter" | "test" if super::py_ops::unhashable(value).is_some() => py_err(
            PyExc::TypeError,
            format!(
                "unhashable type: '{}'",
                super::py_ops::unhashable(value).unwrap_or_default()
            ),
        ),
        "filter" => Ok(value
            .as_str()
            .is_some_and(|s| super::filters::FILTERS.contains(&s))),
        "test" => Ok(value.as_str().is_some_and(|s| TESTS.contains(&s))),
        "none" => Ok(value.is_none()),
        "boolean" => Ok(value.kind() == ValueKind::Bool),
        "false" => Ok(value.kind() == ValueKind::Bool && !value.is_true()),
        "true" => Ok(value.kind() == ValueKind::Bool && value.is_true()),
        "integer" => Ok((value.kind() == ValueKind::Number && value.is_integer())
            || value
                .downcast_object_ref::<super::py_object::BigInt>()
                .is_some()),
        "float" => Ok(value.kind() == ValueKind::Number && !value.is_integer()),
        "lower" | "upper" => {
            let s = super::methods::text_of(value)?;
            let r = super::methods::str_method(&s, &format!("is{name}"), &[])?;
            Ok(r.is_true())
        }
        "string" => Ok(value.kind() == ValueKind::String),
        "mapping" => {
            Ok(value.downcast_object_ref::<PyDict>().is_some() || value.kind() == ValueKind::Map)
        }
        "number" => Ok(matches!(value.kind(), ValueKind::Number | ValueKind::Bool)
            || value
                .downcast_object_ref::<super::py_object::BigInt>()
                .is_some()),
        // `len(x); x.__getitem__`: an undefined has both.
        "sequence" => Ok(value.kind() == ValueKind::String
            || Missing::of(value).is_some()
            || value.downcast_object_ref::<PyList>().is_some()
            || value.downcast_object_ref::<PyDict>().is_some()
            || value.downcast_object_ref::<PyRange>().is_some()
            || (matches!(value.kind(), ValueKind::Seq | ValueKind::Map)
                && Missing::of(value).is_none())),
        "iterable" => Ok(matches!(
            value.kind(),
            ValueKind::String | ValueKind::Seq | ValueKind::Map | ValueKind::Iterable
        )),
        // Jinja2's Undefined has `__call__` (it raises when called).
        "callable" => Ok(Missing::of(value).is_some()
            || value.is_undefined()
            || matches!(value.kind(), ValueKind::Plain)
                && value
                    .downcast_object_ref::<super::py_object::BigInt>()
                    .is_none()),
        "sameas" => {
            let o = other()?;
            // `is`: singletons and small ints are shared in CPython.
            // Nothing but None is None; nothing but True is True (and False).
            Ok(match (value.kind(), o.kind()) {
                (ValueKind::None, ValueKind::None) => true,
                (ValueKind::Bool, ValueKind::Bool) => value.is_true() == o.is_true(),
                (ValueKind::None | ValueKind::Bool, _) | (_, ValueKind::None | ValueKind::Bool) => {
                    false
                }
                _ => {
                    return unsupported(
                        "the sameas test on values other than None, True and False",
                    );
                }
            })
        }
        "escaped" => Ok(value.is_safe()),
        "in" => {
            let seq = a
                .bind(&[("seq", true)])?
                .into_iter()
                .next()
                .flatten()
                .unwrap_or_default();
            contains(&seq, value)
        }
        "==" | "eq" | "equalto" => Ok(py_eq(value, &other()?)),
        "!=" | "ne" => Ok(!py_eq(value, &other()?)),
        ">" | "gt" | "greaterthan" => compare(value, &other()?, &[Ordering::Greater], ">"),
        ">=" | "ge" => compare(
            value,
            &other()?,
            &[Ordering::Greater, Ordering::Equal],
            ">=",
        ),
        "<" | "lt" | "lessthan" => compare(value, &other()?, &[Ordering::Less], "<"),
        "<=" | "le" => compare(value, &other()?, &[Ordering::Less, Ordering::Equal], "<="),
        _ => py_err(
            PyExc::TemplateRuntimeError,
            format!("No test named '{name}'."),
        ),
    }
}

/// Python's `value in seq`.
pub(crate) fn contains(seq: &Value, value: &Value) -> Result<bool, Error> {
    if seq.kind() == ValueKind::String {
        return match value.as_str() {
            Some(v) if value.kind() == ValueKind::String => {
                Ok(seq.as_str().unwrap_or_default().contains(v))
            }
            _ => py_err(
                PyExc::TypeError,
                format!(
                    "'in <string>' requires string as left operand, not {}",
                    type_name(value)
                ),
            ),
        };
    }
    let keyed = seq.downcast_object_ref::<PySeq>().map(|s| s.kind)
        == Some(super::py_object::SeqKind::DictKeys);
    if seq.downcast_object_ref::<PyDict>().is_some() || keyed {
        // A dict (and its keys view) hashes what it looks for.
        if let Some(t) = super::py_ops::unhashable(value) {
            return py_err(PyExc::TypeError, format!("unhashable type: '{t}'"));
        }
    }
    if let Some(d) = seq.downcast_object_ref::<PyDict>() {
        return Ok(d.get(value).is_some());
    }
    if let Some(s) = seq.downcast_object_ref::<PySeq>() {
        return Ok(s.items.iter().any(|x| py_eq(x, value)));
    }
    match seq.kind() {
        ValueKind::Seq | ValueKind::Map | ValueKind::Iterable => Ok(seq
            .try_iter()
            .into_iter()
            .flatten()
            .any(|x| py_eq(&x, value))),
        _ => py_err(
            PyExc::TypeError,
            format!("argument of type '{}' is not iterable", type_name(seq)),
        ),
    }
}
