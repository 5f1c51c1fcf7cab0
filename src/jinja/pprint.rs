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
    let mut out = String::new();
    format(v, &mut out, 0, 0, 0)?;
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
        Some(d) => d
            .entries
            .iter()
            .map(|(k, v)| (k.0.clone(), v.clone()))
            .collect(),
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

/// `_safe_repr`: `repr` with sorted dicts.
fn safe_repr(v: &Value, depth: usize) -> Result<String, RenderFault> {
    if depth > 900 {
        return Err(too_deep());
    }
    match kind(v) {
        Kind::Dict => {
            let mut parts = Vec::new();
            for (k, val) in sorted_items(v)? {
                parts.push(format!(
                    "{}: {}",
                    safe_repr(&k, depth + 1)?,
                    safe_repr(&val, depth + 1)?
                ));
            }
            Ok(format!("{{{}}}", parts.join(", ")))
        }
        Kind::List | Kind::Tuple => {
            let list = matches!(kind(v), Kind::List);
            let its = items(v);
            let mut parts = Vec::with_capacity(its.len());
            for i in &its {
                parts.push(safe_repr(i, depth + 1)?);
            }
            Ok(match (list, parts.len()) {
                (true, _) => format!("[{}]", parts.join(", ")),
                (false, 1) => format!("({},)", parts.join("")),
                (false, _) => format!("({})", parts.join(", ")),
            })
        }
        Kind::Str | Kind::Other => py_repr(v),
    }
}

/// `PrettyPrinter._format`.
fn format(
    v: &Value,
    out: &mut String,
    indent: usize,
    allowance: usize,
    level: usize,
) -> Result<(), RenderFault> {
    if level > 900 {
        return Err(too_deep());
    }
    let rep = safe_repr(v, level)?;
    if len(&rep) + indent + allowance <= WIDTH {
        out.push_str(&rep);
        return Ok(());
    }
    let level = level + 1;
    match kind(v) {
        Kind::Dict => {
            out.push('{');
            let its = sorted_items(v)?;
            if !its.is_empty() {
                let indent = indent + 1;
                let delim = format!(",\n{}", " ".repeat(indent));
                let last = its.len() - 1;
                for (i, (k, val)) in its.iter().enumerate() {
                    let krep = safe_repr(k, level)?;
                    out.push_str(&krep);
                    out.push_str(": ");
                    let a = if i == last { allowance + 1 } else { 1 };
                    format(val, out, indent + len(&krep) + 2, a, level)?;
                    if i != last {
                        out.push_str(&delim);
                    }
                }
            }
            out.push('}');
        }
        Kind::List => {
            out.push('[');
            format_items(&items(v), out, indent, allowance + 1, level)?;
            out.push(']');
        }
        Kind::Tuple => {
            let its = items(v);
            let end = if its.len() == 1 { ",)" } else { ")" };
            out.push('(');
            format_items(&its, out, indent, allowance + end.len(), level)?;
            out.push_str(end);
        }
        Kind::Str => pprint_str(
            v.as_str().unwrap_or_default(),
            out,
            indent,
            allowance,
            level,
        ),
        Kind::Other => out.push_str(&rep),
    }
    Ok(())
}

/// `_format_items` (not compact).
fn format_items(
    its: &[Value],
    out: &mut String,
    indent: usize,
    allowance: usize,
    level: usize,
) -> Result<(), RenderFault> {
    let indent = indent + 1;
    let delim = format!(",\n{}", " ".repeat(indent));
    for (i, item) in its.iter().enumerate() {
        let last = i + 1 == its.len();
        if i > 0 {
            out.push_str(&delim);
        }
        format(item, out, indent, if last { allowance } else { 1 }, level)?;
    }
    Ok(())
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
    let lines = splitlines_keepends(s);
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

/// `str.splitlines(True)`.
fn splitlines_keepends(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let brk = matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if brk {
            let mut end = i + c.len_utf8();
            if c == '\r'
                && let Some(&(j, '\n')) = it.peek()
            {
                end = j + 1;
                it.next();
            }
            out.push(s.get(start..end).unwrap_or_default());
            start = end;
        }
    }
    if start < s.len() {
        out.push(s.get(start..).unwrap_or_default());
    }
    out
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
