//! Python methods on template values (`s.split()`, `d.items()`, `l.index(x)`): Jinja2 calls the real ones.

use super::args::Args;
use super::py_error::{PyExc, py_err, unsupported};
use super::py_format::py_str;
use super::py_object::{DictKey, LIST_METHODS, Missing, PyDict, PyList, PySeq, SeqKind};
use super::py_ops::{py_eq, type_name};
use crate::python::py_is_space as is_py_space;
use crate::python::{
    py_capitalize, py_casefold, py_isalnum, py_isalpha, py_isdecimal, py_isdigit, py_islower,
    py_isnumeric, py_istitle, py_isupper, py_lower, py_swapcase, py_title, py_upper,
};
use minijinja::value::{Value, ValueKind};
use minijinja::{Error, State};
use std::sync::Arc;

/// Methods of `dict`.
pub(crate) fn dict_method(
    state: &mut State<'_, '_>,
    d: &Arc<PyDict>,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    let a = Args::new(method, args);
    match method {
        "items" => {
            a.none()?;
            Ok(PySeq::value(
                SeqKind::DictItems,
                d.pairs()
                    .into_iter()
                    .map(|(k, v)| super::py_object::py_tuple(vec![k, v]))
                    .collect(),
            ))
        }
        "keys" => {
            a.none()?;
            Ok(PySeq::value(SeqKind::DictKeys, d.keys()))
        }
        "values" => {
            a.none()?;
            Ok(PySeq::value(SeqKind::DictValues, d.values()))
        }
        "get" => {
            let (key, default) = a.two_opt()?;
            hashable(&key)?;
            Ok(d.get(&key)
                .unwrap_or_else(|| default.unwrap_or(Value::from(()))))
        }
        "copy" => {
            a.none()?;
            Ok(PyDict::from_entries(d.snapshot()).into_value())
        }
        "clear" => {
            a.none()?;
            d.lock().clear();
            Ok(Value::from(()))
        }
        "pop" => {
            let (key, default) = a.two_opt()?;
            hashable(&key)?;
            // `shift_remove`: the other entries keep their order, as in Python.
            let found = d.lock().shift_remove(&DictKey(key.clone()));
            match (found, default) {
                (Some(v), _) => Ok(v),
                (None, Some(dflt)) => Ok(dflt),
                (None, None) => key_error(&key),
            }
        }
        "popitem" => {
            a.none()?;
            let last = d.lock().pop();
            match last {
                Some((k, v)) => Ok(super::py_object::py_tuple(vec![k.0, v])),
                None => key_error(&Value::from("popitem(): dictionary is empty")),
            }
        }
        "setdefault" => {
            let (key, default) = a.two_opt()?;
            hashable(&key)?;
            let existing = d.get(&key);
            match existing {
                Some(v) => Ok(v),
                None => {
                    grow(1)?;
                    let v = default.unwrap_or(Value::from(()));
                    d.lock().insert(DictKey(key), v.clone());
                    Ok(v)
                }
            }
        }
        "update" => {
            let (pos, kw) = a.pos_and_kw();
            if pos.len() > 1 {
                return py_err(
                    PyExc::TypeError,
                    format!("update expected at most 1 argument, got {}", pos.len()),
                );
            }
            let mut new = match pos.first() {
                Some(other) => update_pairs(other)?,
                None => Vec::new(),
            };
            new.extend(kw.into_iter().map(|(k, v)| (Value::from(k), v)));
            grow(new.len())?;
            let mut entries = d.lock();
            for (k, v) in new {
                entries.insert(DictKey(k), v);
            }
            Ok(Value::from(()))
        }
        "fromkeys" => {
            let (keys, value) = a.two_opt()?;
            let keys = super::filters::iterate(&keys)?;
            for k in &keys {
                hashable(k)?;
            }
            grow(keys.len())?;
            let value = value.unwrap_or(Value::from(()));
            Ok(PyDict::from_pairs(keys.into_iter().map(|k| (k, value.clone()))).into_value())
        }
        // Not a method: Jinja2's getattr falls back to the item, and calls it.
        _ => match d.get_str(method) {
            Some(v) => call_value(state, &v, args),
            None => py_err(
                PyExc::UndefinedError,
                format!("'dict object' has no attribute '{method}'"),
            ),
        },
    }
}

/// Python's `KeyError(key)`: its text is the key's `repr()`.
fn key_error<T>(key: &Value) -> Result<T, Error> {
    py_err(
        PyExc::LookupError,
        super::py_format::py_repr(key).unwrap_or_default(),
    )
}

/// Python hashes a dict key before anything else: a list or dict raises.
fn hashable(key: &Value) -> Result<(), Error> {
    match super::py_ops::unhashable(key) {
        Some(t) => py_err(PyExc::TypeError, format!("unhashable type: '{t}'")),
        None => Ok(()),
    }
}

/// Count `n` items a template adds to its lists and dicts against the
/// render's budget (a list doubling itself by `extend` in a loop would
/// otherwise outgrow memory within the step limit).
fn grow(n: usize) -> Result<(), Error> {
    super::py_error::grow(n).map_err(|limit| {
        Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!(
                "the template adds more than {limit} items to lists and dicts (--max-template-steps)"
            ),
        )
    })
}

/// The pairs `dict.update(other)` adds: a dict's items, else an iterable of
/// two-item sequences.
fn update_pairs(other: &Value) -> Result<Vec<(Value, Value)>, Error> {
    if let Some(m) = Missing::of(other) {
        // `dict.update` looks for `other.keys` first: an undefined raises.
        return py_err(PyExc::UndefinedError, m.message());
    }
    if let Some(o) = other.downcast_object_ref::<PyDict>() {
        return Ok(o.pairs());
    }
    if other.kind() == ValueKind::Map && !super::lookup::is_namespace(other) {
        return Ok(super::py_ops::pairs(other));
    }
    let mut out = Vec::new();
    for (i, item) in super::filters::iterate(other)?.into_iter().enumerate() {
        let parts = match item.kind() {
            ValueKind::String | ValueKind::Seq | ValueKind::Map | ValueKind::Iterable => {
                super::filters::iterate(&item)?
            }
            _ => {
                return py_err(
                    PyExc::TypeError,
                    format!("cannot convert dictionary update sequence element #{i} to a sequence"),
                );
            }
        };
        match <[Value; 2]>::try_from(parts) {
            Ok([k, v]) => {
                hashable(&k)?;
                out.push((k, v));
            }
            Err(parts) => {
                return py_err(
                    PyExc::ValueError,
                    format!(
                        "dictionary update sequence element #{i} has length {}; 2 is required",
                        parts.len()
                    ),
                );
            }
        }
    }
    Ok(out)
}

/// Python's call of a value found as an item (`d.key()`).
fn call_value(state: &mut State<'_, '_>, v: &Value, args: &[Value]) -> Result<Value, Error> {
    if let Some(m) = Missing::of(v) {
        return py_err(PyExc::UndefinedError, m.message());
    }
    if v.downcast_object_ref::<super::py_object::BoundMethod>()
        .is_some()
        || v.kind() == ValueKind::Plain
    {
        return v.call(state, args);
    }
    py_err(
        PyExc::TypeError,
        format!("'{}' object is not callable", type_name(v)),
    )
}

/// An index argument (`list.insert(i, x)`, `list.pop(i)`).
fn index_arg(v: &Value) -> Result<i128, Error> {
    match super::py_ops::as_int(v) {
        Some(i) if v.kind() != ValueKind::String => Ok(i),
        _ => py_err(
            PyExc::TypeError,
            format!(
                "'{}' object cannot be interpreted as an integer",
                type_name(v)
            ),
        ),
    }
}

/// Methods of `list`. The lock is taken only around each change: comparing
/// or iterating arguments can reach this same list (`l.extend(l)`).
pub(crate) fn list_method(
    _state: &mut State<'_, '_>,
    l: &Arc<PyList>,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    let a = Args::new(method, args);
    let none = || Ok(Value::from(()));
    match method {
        "index" => {
            let x = a.one()?;
            match l.items().iter().position(|v| py_eq(v, &x)) {
                Some(i) => Ok(Value::from(i)),
                None => py_err(
                    PyExc::ValueError,
                    format!(
                        "{} is not in list",
                        super::py_format::py_repr(&x).unwrap_or_default()
                    ),
                ),
            }
        }
        "count" => {
            let x = a.one()?;
            Ok(Value::from(
                l.items().iter().filter(|v| py_eq(v, &x)).count(),
            ))
        }
        "copy" => {
            a.none()?;
            Ok(PyList::value(l.items()))
        }
        "append" => {
            let x = Args::new("list.append", args).one()?;
            grow(1)?;
            l.lock().push(x);
            none()
        }
        "extend" => {
            let x = Args::new("list.extend", args).one()?;
            let new = super::filters::iterate(&x)?;
            grow(new.len())?;
            l.lock().extend(new);
            none()
        }
        "insert" => {
            let v = Args::new("insert", args).bind(&[("index", true), ("object", true)])?;
            let mut v = v.into_iter().flatten();
            let (i, x) = (v.next().unwrap_or_default(), v.next().unwrap_or_default());
            let i = index_arg(&i)?;
            grow(1)?;
            let mut items = l.lock();
            let n = i128::try_from(items.len()).unwrap_or(i128::MAX);
            // Python clamps the index into the list.
            let at = if i < 0 { (i + n).max(0) } else { i.min(n) };
            items.insert(usize::try_from(at).unwrap_or(0), x);
            none()
        }
        "pop" => {
            let i = match Args::new("pop", args).opt_one()? {
                Some(i) => index_arg(&i)?,
                None => -1,
            };
            let mut items = l.lock();
            if items.is_empty() {
                drop(items);
                return py_err(PyExc::LookupError, "pop from empty list");
            }
            let n = i128::try_from(items.len()).unwrap_or(i128::MAX);
            let at = if i < 0 { i + n } else { i };
            match usize::try_from(at).ok().filter(|&at| at < items.len()) {
                Some(at) => Ok(items.remove(at)),
                None => {
                    drop(items);
                    py_err(PyExc::LookupError, "pop index out of range")
                }
            }
        }
        "remove" => {
            let x = Args::new("list.remove", args).one()?;
            match l.items().iter().position(|v| py_eq(v, &x)) {
                Some(at) => {
                    let mut items = l.lock();
                    if at < items.len() {
                        items.remove(at);
                    }
                    none()
                }
                None => py_err(PyExc::ValueError, "list.remove(x): x not in list"),
            }
        }
        "reverse" => {
            Args::new("list.reverse", args).none()?;
            l.lock().reverse();
            none()
        }
        "clear" => {
            Args::new("list.clear", args).none()?;
            l.lock().clear();
            none()
        }
        "sort" => {
            let a = Args::new("sort", args);
            if a.len() > 0 {
                return py_err(PyExc::TypeError, "sort() takes no positional arguments");
            }
            let v = a.bind(&[("key", false), ("reverse", false)])?;
            let mut v = v.into_iter();
            let (key, reverse) = (v.next().flatten(), v.next().flatten());
            if key.as_ref().is_some_and(|k| !k.is_none()) {
                return unsupported("list.sort(key=...) with a key function");
            }
            let reverse = reverse.is_some_and(|r| r.is_true());
            let mut pairs: Vec<(Value, Value)> = l
                .items()
                .into_iter()
                .map(|x| (x, Value::from(())))
                .collect();
            super::filters::sort_values(&mut pairs, reverse)?;
            *l.lock() = pairs.into_iter().map(|(x, _)| x).collect();
            none()
        }
        _ if LIST_METHODS.contains(&method) => unsupported(format!("the list method `{method}()`")),
        _ => py_err(
            PyExc::UndefinedError,
            format!("'list object' has no attribute '{method}'"),
        ),
    }
}

/// Methods of anything else MiniJinja holds natively (strings above all);
/// MiniJinja's own lists and dicts (template literals) get the same methods
/// as ours.
pub(crate) fn unknown_method(
    state: &mut State<'_, '_>,
    value: &Value,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    match value.kind() {
        ValueKind::String => str_method(value.as_str().unwrap_or_default(), method, args),
        // Templates' literals are ours ([`fresh`](super::py_object::fresh));
        // a MiniJinja value here is a copy nobody else sees, so a change to it
        // would be lost: only reading methods are answered.
        ValueKind::Map if !is_mutator(method) => {
            let d = Arc::new(PyDict::from_pairs(super::py_ops::pairs(value)));
            dict_method(state, &d, method, args)
        }
        ValueKind::Seq if !value.is_tuple() && !is_mutator(method) => {
            let l = Arc::new(PyList::new(
                value.try_iter().into_iter().flatten().collect(),
            ));
            list_method(state, &l, method, args)
        }
        ValueKind::Map | ValueKind::Seq if !value.is_tuple() => unsupported(format!(
            "the method `{method}()` on a value cloudfold cannot change in place"
        )),
        _ => {
            if let Some(m) = Missing::of(value) {
                return py_err(PyExc::UndefinedError, m.message());
            }
            // `x.m` is an undefined (Jinja2's getattr), and calling it raises.
            py_err(PyExc::UndefinedError, no_attribute(value, method))
        }
    }
}

/// Methods that change a list or dict in place.
fn is_mutator(method: &str) -> bool {
    matches!(
        method,
        "append"
            | "extend"
            | "insert"
            | "pop"
            | "remove"
            | "reverse"
            | "sort"
            | "clear"
            | "popitem"
            | "setdefault"
            | "update"
    )
}

fn s(v: impl Into<String>) -> Value {
    Value::from(v.into())
}

/// `str.split(sep=None, maxsplit=-1)` and `rsplit`.
pub(crate) fn py_split(text: &str, sep: Option<&str>, maxsplit: i64, right: bool) -> Vec<String> {
    let max = usize::try_from(maxsplit).unwrap_or(usize::MAX);
    match sep {
        Some(sep) => {
            if right {
                let mut parts: Vec<String> = text
                    .rsplitn(max.saturating_add(1), sep)
                    .map(str::to_owned)
                    .collect();
                parts.reverse();
                parts
            } else {
                text.splitn(max.saturating_add(1), sep)
                    .map(str::to_owned)
                    .collect()
            }
        }
        None => {
            // Runs of whitespace; leading/trailing ignored; the remainder
            // after maxsplit keeps its inner whitespace.
            let mut out = Vec::new();
            if right {
                let mut rest = text.trim_end_matches(is_py_space);
                while !rest.is_empty() {
                    if out.len() == max {
                        out.push(rest.to_owned());
                        break;
                    }
                    match rest.rfind(is_py_space) {
                        Some(i) => {
                            let c = rest[i..].chars().next().map_or(1, char::len_utf8);
                            out.push(rest[i + c..].to_owned());
                            rest = rest[..i].trim_end_matches(is_py_space);
                        }
                        None => {
                            out.push(rest.to_owned());
                            break;
                        }
                    }
                }
                out.reverse();
            } else {
                let mut rest = text.trim_start_matches(is_py_space);
                while !rest.is_empty() {
                    if out.len() == max {
                        out.push(rest.to_owned());
                        break;
                    }
                    match rest.find(is_py_space) {
                        Some(i) => {
                            out.push(rest[..i].to_owned());
                            rest = rest[i..].trim_start_matches(is_py_space);
                        }
                        None => {
                            out.push(rest.to_owned());
                            break;
                        }
                    }
                }
            }
            out
        }
    }
}

fn strip_chars<'a>(text: &'a str, chars: Option<&str>, left: bool, right: bool) -> &'a str {
    let pat = |c: char| match chars {
        Some(set) => set.contains(c),
        None => is_py_space(c),
    };
    let t = if left {
        text.trim_start_matches(pat)
    } else {
        text
    };
    if right { t.trim_end_matches(pat) } else { t }
}

/// Char-index window `[start:end]` of Python slice arguments, as byte offsets.
fn window(text: &str, start: Option<i64>, end: Option<i64>) -> Option<(usize, usize)> {
    let n = text.chars().count() as i64;
    let fix = |i: i64| if i < 0 { (i + n).max(0) } else { i.min(n) };
    let (a, b) = (fix(start.unwrap_or(0)), fix(end.unwrap_or(n)));
    if a > b {
        return None;
    }
    let byte = |ci: i64| {
        text.char_indices()
            .nth(usize::try_from(ci).unwrap_or(0))
            .map_or(text.len(), |(i, _)| i)
    };
    Some((byte(a), byte(b)))
}

fn char_index(text: &str, byte: usize) -> usize {
    text.get(..byte).map_or(0, |t| t.chars().count())
}

fn opt_int(v: Option<Value>, what: &str) -> Result<Option<i64>, Error> {
    match v {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => match super::py_ops::as_int(&v).and_then(|i| i64::try_from(i).ok()) {
            Some(i) => Ok(Some(i)),
            None => py_err(
                PyExc::TypeError,
                format!(
                    "slice indices must be integers or None or have an __index__ method ({what})"
                ),
            ),
        },
    }
}

fn need_str(v: &Value, method: &str, pos: &str) -> Result<String, Error> {
    match v.as_str() {
        Some(t) if v.kind() == ValueKind::String => Ok(t.to_owned()),
        _ => {
            if Missing::of(v).is_some() || v.is_undefined() {
                return unsupported(format!(
                    "an undefined value as the argument of str.{method}()"
                ));
            }
            py_err(
                PyExc::TypeError,
                format!("{pos} must be str, not {}", type_name(v)),
            )
        }
    }
}

fn prefixes(v: &Value, method: &str) -> Result<Vec<String>, Error> {
    if v.is_tuple() {
        v.try_iter()
            .into_iter()
            .flatten()
            .map(|p| match p.as_str() {
                Some(t) if p.kind() == ValueKind::String => Ok(t.to_owned()),
                _ => py_err(
                    PyExc::TypeError,
                    format!(
                        "tuple for {method} must only contain str, not {}",
                        type_name(&p)
                    ),
                ),
            })
            .collect()
    } else if v.kind() == ValueKind::String {
        Ok(vec![v.as_str().unwrap_or_default().to_owned()])
    } else {
        py_err(
            PyExc::TypeError,
            format!(
                "{method} first arg must be str or a tuple of str, not {}",
                type_name(v)
            ),
        )
    }
}

/// A method of `str`.
pub(crate) fn str_method(text: &str, method: &str, args: &[Value]) -> Result<Value, Error> {
    let a = Args::new(method, args);
    match method {
        "upper" => {
            a.none()?;
            Ok(s(py_upper(text)))
        }
        "lower" => {
            a.none()?;
            Ok(s(py_lower(text)))
        }
        "casefold" => {
            a.none()?;
            Ok(s(py_casefold(text)))
        }
        "title" => {
            a.none()?;
            Ok(s(py_title(text)))
        }
        "capitalize" => {
            a.none()?;
            Ok(s(py_capitalize(text)))
        }
        "swapcase" => {
            a.none()?;
            Ok(s(py_swapcase(text)))
        }
        "strip" | "lstrip" | "rstrip" => {
            let chars = a.opt_one()?;
            let chars = match &chars {
                Some(c) if !c.is_none() => Some(need_str(c, method, "strip arg")?),
                _ => None,
            };
            let (l, r) = match method {
                "strip" => (true, true),
                "lstrip" => (true, false),
                _ => (false, true),
            };
            Ok(s(strip_chars(text, chars.as_deref(), l, r)))
        }
        "split" | "rsplit" => {
            let (sep, maxsplit) = a.named2("sep", "maxsplit")?;
            let sep = match sep {
                Some(v) if !v.is_none() => Some(need_str(&v, method, "must be str or None")?),
                _ => None,
            };
            if sep.as_deref() == Some("") {
                return py_err(PyExc::ValueError, "empty separator");
            }
            let maxsplit = opt_int(maxsplit, "maxsplit")?.unwrap_or(-1);
            let parts = py_split(text, sep.as_deref(), maxsplit, method == "rsplit");
            Ok(PyList::value(parts.into_iter().map(Value::from).collect()))
        }
        "splitlines" => {
            let keep = a.opt_one()?.is_some_and(|v| v.is_true());
            let out = crate::python::py_splitlines_keep(text, keep)
                .into_iter()
                .map(Value::from)
                .collect();
            Ok(PyList::value(out))
        }
        "startswith" | "endswith" => {
            let (p, start, end) = a.three_opt()?;
            let ps = prefixes(&p, method)?;
            let (start, end) = (opt_int(start, "start")?, opt_int(end, "end")?);
            let Some((b0, b1)) = window(text, start, end) else {
                return Ok(Value::from(false));
            };
            let w = &text[b0..b1];
            Ok(Value::from(ps.iter().any(|p| {
                if method == "startswith" {
                    w.starts_with(p.as_str())
                } else {
                    w.ends_with(p.as_str())
                }
            })))
        }
        "replace" => {
            let (old, new, count) = a.three_opt_req2()?;
            let old = need_str(&old, method, "replace() argument 1")?;
            let new = need_str(&new, method, "replace() argument 2")?;
            let count = opt_int(count, "count")?.unwrap_or(-1);
            let out = if count < 0 {
                py_replace(text, &old, &new, usize::MAX)
            } else {
                py_replace(text, &old, &new, usize::try_from(count).unwrap_or(0))
            };
            Ok(s(out))
        }
        "find" | "rfind" | "index" | "rindex" | "count" => {
            let (sub, start, end) = a.three_opt()?;
            let sub = need_str(&sub, method, "must be str")?;
            let (start, end) = (opt_int(start, "start")?, opt_int(end, "end")?);
            let Some((b0, b1)) = window(text, start, end) else {
                return match method {
                    "count" => Ok(Value::from(0)),
                    "index" | "rindex" => py_err(PyExc::ValueError, "substring not found"),
                    _ => Ok(Value::from(-1)),
                };
            };
            let w = &text[b0..b1];
            if method == "count" {
                let n = if sub.is_empty() {
                    w.chars().count() + 1
                } else {
                    w.matches(sub.as_str()).count()
                };
                return Ok(Value::from(n));
            }
            let found = if method.starts_with('r') {
                w.rfind(sub.as_str())
            } else {
                w.find(sub.as_str())
            };
            match found {
                Some(i) => Ok(Value::from(char_index(text, b0 + i) as i64)),
                None if method.ends_with("index") => {
                    py_err(PyExc::ValueError, "substring not found")
                }
                None => Ok(Value::from(-1)),
            }
        }
        "join" => {
            let items = a.one()?;
            let mut out = String::new();
            for (i, item) in super::filters::iterate(&items)?.into_iter().enumerate() {
                if item.kind() != ValueKind::String {
                    return py_err(
                        PyExc::TypeError,
                        format!(
                            "sequence item {i}: expected str instance, {} found",
                            type_name(&item)
                        ),
                    );
                }
                if i > 0 {
                    out.push_str(text);
                }
                out.push_str(item.as_str().unwrap_or_default());
            }
            Ok(s(out))
        }
        "center" | "ljust" | "rjust" => {
            let (w, fill) = a.two_opt()?;
            let Some(w) = super::py_ops::as_int(&w) else {
                return py_err(
                    PyExc::TypeError,
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        type_name(&w)
                    ),
                );
            };
            let fill = match fill {
                Some(f) => {
                    let f = need_str(&f, method, "fill character")?;
                    let mut cs = f.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => c,
                        _ => {
                            return py_err(
                                PyExc::TypeError,
                                "The fill character must be exactly one character long",
                            );
                        }
                    }
                }
                None => ' ',
            };
            Ok(s(py_pad(
                text,
                usize::try_from(w).unwrap_or(0),
                fill,
                method,
            )))
        }
        "zfill" => {
            let w = a.one()?;
            let w = super::py_ops::as_int(&w)
                .and_then(|w| usize::try_from(w).ok())
                .unwrap_or(0);
            let n = text.chars().count();
            if n >= w {
                return Ok(s(text));
            }
            let (sign, rest) = match text.chars().next() {
                Some(c @ ('+' | '-')) => (c.to_string(), &text[1..]),
                _ => (String::new(), text),
            };
            Ok(s(format!("{sign}{}{rest}", "0".repeat(w - n))))
        }
        "isdigit" | "isdecimal" | "isnumeric" | "isalpha" | "isalnum" => {
            a.none()?;
            let class: fn(char) -> bool = match method {
                "isdigit" => py_isdigit,
                "isdecimal" => py_isdecimal,
                "isnumeric" => py_isnumeric,
                "isalpha" => py_isalpha,
                _ => py_isalnum,
            };
            Ok(Value::from(!text.is_empty() && text.chars().all(class)))
        }
        "isspace" => {
            a.none()?;
            Ok(Value::from(
                !text.is_empty() && text.chars().all(is_py_space),
            ))
        }
        "islower" => {
            a.none()?;
            Ok(Value::from(py_islower(text)))
        }
        "isupper" => {
            a.none()?;
            Ok(Value::from(py_isupper(text)))
        }
        "istitle" => {
            a.none()?;
            Ok(Value::from(py_istitle(text)))
        }
        "partition" | "rpartition" => {
            let sep = need_str(&a.one()?, method, "must be str")?;
            if sep.is_empty() {
                return py_err(PyExc::ValueError, "empty separator");
            }
            let found = if method == "partition" {
                text.find(&sep)
            } else {
                text.rfind(&sep)
            };
            let parts = match found {
                Some(i) => vec![&text[..i], sep.as_str(), &text[i + sep.len()..]],
                None if method == "partition" => vec![text, "", ""],
                None => vec!["", "", text],
            };
            Ok(super::py_object::py_tuple(
                parts.into_iter().map(Value::from).collect(),
            ))
        }
        "removeprefix" => {
            let p = need_str(&a.one()?, method, "must be str")?;
            Ok(s(text.strip_prefix(p.as_str()).unwrap_or(text)))
        }
        "removesuffix" => {
            let p = need_str(&a.one()?, method, "must be str")?;
            Ok(s(text.strip_suffix(p.as_str()).unwrap_or(text)))
        }
        "format" | "format_map" | "encode" | "translate" | "maketrans" | "expandtabs"
        | "isidentifier" | "isprintable" | "isascii" => {
            unsupported(format!("the str method `{method}()`"))
        }
        _ => py_err(
            PyExc::UndefinedError,
            format!("'str object' has no attribute '{method}'"),
        ),
    }
}

/// Jinja2's message for a failed attribute lookup on `value`.
pub(crate) fn no_attribute(value: &Value, name: &str) -> String {
    if value.is_none() {
        return format!("'None' has no attribute '{name}'");
    }
    format!("'{} object' has no attribute '{name}'", type_name(value))
}

/// `str.replace(old, new, count)`.
pub(crate) fn py_replace(text: &str, old: &str, new: &str, count: usize) -> String {
    if old.is_empty() {
        // Python inserts `new` before every character and at the end.
        let mut out = String::new();
        let mut n = 0;
        for c in text.chars() {
            if n < count {
                out.push_str(new);
                n += 1;
            }
            out.push(c);
        }
        if n < count {
            out.push_str(new);
        }
        return out;
    }
    text.replacen(old, new, count)
}

/// `str.center` / `ljust` / `rjust`.
pub(crate) fn py_pad(text: &str, width: usize, fill: char, how: &str) -> String {
    let n = text.chars().count();
    if n >= width {
        return text.to_owned();
    }
    let pad = width - n;
    let (left, right) = match how {
        "ljust" => (0, pad),
        "rjust" => (pad, 0),
        // CPython's centering: the extra space goes left when both the
        // padding and the width are odd.
        _ => {
            let left = pad / 2 + (pad & width & 1);
            (left, pad - left)
        }
    };
    let f = fill.to_string();
    format!("{}{text}{}", f.repeat(left), f.repeat(right))
}

/// `str(x)` for a method's or filter's use (an unprintable value is a fault).
pub(crate) fn text_of(v: &Value) -> Result<String, Error> {
    py_str(v).map_err(super::py_error::raise)
}
