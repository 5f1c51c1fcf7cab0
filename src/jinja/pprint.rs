//! `pformat`: Python 3.11's `pprint.pformat(obj)` (width 80, indent 1, `sort_dicts=True`), what Jinja2's `pprint` filter prints.
//!
//! `_safe_repr` is `repr` with every dict's items sorted by key (`_safe_key`:
//! `<`, else the type names — NoneType < bool/float/int < str < tuple — then
//! `id()`, which cloudfold refuses to guess). A repr wider than the room left
//! is broken the way `PrettyPrinter._format` and its `_pprint_dict`,
//! `_pprint_list`, `_pprint_tuple` and `_pprint_str` do; other types
//! (`dict_keys`, `range`, `Markup`…) are written whole.

use super::py_error::{PyExc, RenderFault};
use super::py_format::{py_repr, py_repr_text};
use super::py_object::{BigInt, PyDict};
use super::py_ops::{pairs, py_cmp, type_name};
use crate::userdata::py_is_space;
use minijinja::value::{Value, ValueKind};
use std::cmp::Ordering;

const WIDTH: usize = 80;

/// `pprint.pformat(v)`.
pub(crate) fn pformat(v: &Value) -> Result<String, RenderFault> {
    let m = measure(v, 0)?;
    let mut out = String::new();
    format(&m, &mut out, 0, 0, 0);
    Ok(out)
}

fn len(s: &str) -> usize {
    s.chars().count()
}

fn too_deep() -> RenderFault {
    RenderFault::Py(
        PyExc::LookupError,
        "maximum recursion depth exceeded while getting the repr of an object".into(),
    )
}

/// The dict's items sorted as `sorted(d.items(), key=_safe_tuple)` does.
fn sorted_items(v: &Value) -> Result<Vec<(Value, Value)>, RenderFault> {
    let mut items = match v.downcast_object_ref::<PyDict>() {
        Some(d) => d.pairs(),
        None => pairs(v),
    };
    let rank = |k: &Value| -> Result<u8, RenderFault> {
        match k.kind() {
            ValueKind::None => Ok(0),
            ValueKind::Bool => Ok(1),
            ValueKind::Number => match f64::try_from(k.clone()) {
                Ok(f) if f.is_nan() => {
                    Err(RenderFault::unsupported("pprint of a dict keyed by nan"))
                }
                _ => Ok(1),
            },
            _ if k.downcast_object_ref::<BigInt>().is_some() => Ok(1),
            ValueKind::String
                if !k.is_safe()
                    && !k
                        .as_str()
                        .unwrap_or_default()
                        .contains(super::jinja_part::is_escape) =>
            {
                Ok(2)
            }
            _ if k.is_tuple() => Ok(3),
            _ => Err(RenderFault::unsupported(format!(
                "pprint of a dict keyed by a {} (Python orders such keys by memory address)",
                type_name(k)
            ))),
        }
    };
    let mut keyed = Vec::with_capacity(items.len());
    for (k, v) in items.drain(..) {
        keyed.push((rank(&k)?, k, v));
    }
    let mut fault = None;
    keyed.sort_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| match (a.1.kind(), b.1.kind()) {
            (ValueKind::Number | ValueKind::Bool, ValueKind::Number | ValueKind::Bool)
            | (ValueKind::String, ValueKind::String) => py_cmp(&a.1, &b.1).unwrap_or_else(|f| {
                fault.get_or_insert(f);
                Ordering::Equal
            }),
            _ => {
                // Tuples (Python may fall back to `id()`) and big ints.
                fault.get_or_insert(RenderFault::unsupported(
                    "pprint of a dict keyed by tuples or big integers",
                ));
                Ordering::Equal
            }
        })
    });
    if let Some(f) = fault {
        return Err(f);
    }
    Ok(keyed.into_iter().map(|(_, k, v)| (k, v)).collect())
}

/// The container kinds pprint breaks.
enum Kind {
    Dict,
    List,
    Tuple,
    Str,
    Other,
}

fn kind(v: &Value) -> Kind {
    match type_name(v) {
        "dict" => Kind::Dict,
        "list" => Kind::List,
        "tuple" => Kind::Tuple,
        "str" => Kind::Str,
        _ => Kind::Other,
    }
}

fn items(v: &Value) -> Vec<Value> {
    v.try_iter().map(Iterator::collect).unwrap_or_default()
}

/// A value with the length of its `_safe_repr`, measured once (`_format`
/// asks for the repr at every level; building it there is quadratic in the depth).
struct Measured {
    kind: Kind,
    value: Value,
    /// `len(_safe_repr(value))`.
    len: usize,
    /// A dict's sorted values or a list's/tuple's items.
    kids: Vec<Measured>,
    /// A dict's keys' reprs, sorted; a leaf's own repr (one entry).
    reprs: Vec<String>,
}

fn measure(v: &Value, depth: usize) -> Result<Measured, RenderFault> {
    if depth > 900 {
        return Err(too_deep());
    }
    let k = kind(v);
    let (len_, kids, reprs) = match k {
        Kind::Dict => {
            let mut kids = Vec::new();
            let mut reprs = Vec::new();
            for (key, val) in sorted_items(v)? {
                reprs.push(py_repr(&key)?);
                kids.push(measure(&val, depth + 1)?);
            }
            let n = kids.len();
            let total = 2
                + reprs.iter().map(|r| len(r) + 2).sum::<usize>()
                + kids.iter().map(|m| m.len).sum::<usize>()
                + 2 * n.saturating_sub(1);
            (total, kids, reprs)
        }
        Kind::List | Kind::Tuple => {
            let mut kids = Vec::new();
            for i in items(v) {
                kids.push(measure(&i, depth + 1)?);
            }
            let n = kids.len();
            let inner = kids.iter().map(|m| m.len).sum::<usize>() + 2 * n.saturating_sub(1);
            let total = if matches!(k, Kind::Tuple) && n == 1 {
                inner + 3
            } else {
                inner + 2
            };
            (total, kids, Vec::new())
        }
        Kind::Str | Kind::Other => {
            let r = py_repr(v)?;
            (len(&r), Vec::new(), vec![r])
        }
    };
    Ok(Measured {
        kind: k,
        value: v.clone(),
        len: len_,
        kids,
        reprs,
    })
}

/// `_safe_repr` written out.
fn write_repr(m: &Measured, out: &mut String) {
    match m.kind {
        Kind::Dict => {
            out.push('{');
            for (i, (k, v)) in m.reprs.iter().zip(&m.kids).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(": ");
                write_repr(v, out);
            }
            out.push('}');
        }
        Kind::List | Kind::Tuple => {
            let list = matches!(m.kind, Kind::List);
            out.push(if list { '[' } else { '(' });
            for (i, k) in m.kids.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_repr(k, out);
            }
            if !list && m.kids.len() == 1 {
                out.push(',');
            }
            out.push(if list { ']' } else { ')' });
        }
        Kind::Str | Kind::Other => {
            for r in &m.reprs {
                out.push_str(r);
            }
        }
    }
}

/// `PrettyPrinter._format`.
fn format(m: &Measured, out: &mut String, indent: usize, allowance: usize, level: usize) {
    if m.len + indent + allowance <= WIDTH {
        write_repr(m, out);
        return;
    }
    let level = level + 1;
    match m.kind {
        Kind::Dict => {
            out.push('{');
            if !m.kids.is_empty() {
                let indent = indent + 1;
                let delim = format!(",\n{}", " ".repeat(indent));
                let last = m.kids.len() - 1;
                for (i, (krep, val)) in m.reprs.iter().zip(&m.kids).enumerate() {
                    out.push_str(krep);
                    out.push_str(": ");
                    let a = if i == last { allowance + 1 } else { 1 };
                    format(val, out, indent + len(krep) + 2, a, level);
                    if i != last {
                        out.push_str(&delim);
                    }
                }
            }
            out.push('}');
        }
        Kind::List => {
            out.push('[');
            format_items(&m.kids, out, indent, allowance + 1, level);
            out.push(']');
        }
        Kind::Tuple => {
            let end = if m.kids.len() == 1 { ",)" } else { ")" };
            out.push('(');
            format_items(&m.kids, out, indent, allowance + end.len(), level);
            out.push_str(end);
        }
        Kind::Str => pprint_str(
            m.value.as_str().unwrap_or_default(),
            out,
            indent,
            allowance,
            level,
        ),
        Kind::Other => write_repr(m, out),
    }
}

/// `_format_items` (not compact).
fn format_items(its: &[Measured], out: &mut String, indent: usize, allowance: usize, level: usize) {
    let indent = indent + 1;
    let delim = format!(",\n{}", " ".repeat(indent));
    for (i, item) in its.iter().enumerate() {
        let last = i + 1 == its.len();
        if i > 0 {
            out.push_str(&delim);
        }
        format(item, out, indent, if last { allowance } else { 1 }, level);
    }
}

/// `_pprint_str`: the string cut after whitespace into adjacent literals.
fn pprint_str(s: &str, out: &mut String, indent: usize, allowance: usize, level: usize) {
    if s.is_empty() {
        out.push_str(&py_repr_text(s));
        return;
    }
    let (indent, allowance) = if level == 1 {
        (indent + 1, allowance + 1)
    } else {
        (indent, allowance)
    };
    let max_width = WIDTH as isize - indent as isize;
    let lines = crate::python::py_splitlines_keep(s, true);
    let mut chunks: Vec<String> = Vec::new();
    let mut max_width1 = max_width;
    let mut rep = String::new();
    for (i, line) in lines.iter().enumerate() {
        let last_line = i + 1 == lines.len();
        rep = py_repr_text(line);
        if last_line {
            max_width1 -= allowance as isize;
        }
        if len(&rep) as isize <= max_width1 {
            chunks.push(rep.clone());
            continue;
        }
        let parts = space_parts(line);
        let mut max_width2 = max_width;
        let mut current = String::new();
        for (j, part) in parts.iter().enumerate() {
            let candidate = format!("{current}{part}");
            if j + 1 == parts.len() && last_line {
                max_width2 -= allowance as isize;
            }
            if len(&py_repr_text(&candidate)) as isize > max_width2 {
                if !current.is_empty() {
                    chunks.push(py_repr_text(&current));
                }
                current = (*part).to_owned();
            } else {
                current = candidate;
            }
        }
        if !current.is_empty() {
            chunks.push(py_repr_text(&current));
        }
    }
    if chunks.len() == 1 {
        out.push_str(&rep);
        return;
    }
    if level == 1 {
        out.push('(');
    }
    for (i, c) in chunks.iter().enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
        }
        out.push_str(c);
    }
    if level == 1 {
        out.push(')');
    }
}

/// `re.findall(r'\S*\s*', line)` without its final empty match.
fn space_parts(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut seen_space = false;
    for (i, c) in line.char_indices() {
        let space = py_is_space(c);
        if !space && seen_space {
            out.push(line.get(start..i).unwrap_or_default());
            start = i;
            seen_space = false;
        }
        seen_space |= space;
    }
    if start < line.len() {
        out.push(line.get(start..).unwrap_or_default());
    }
    out
}
