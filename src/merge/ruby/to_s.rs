//! Ruby's `to_s` of a loaded value (what `"#{v}"`, `gsub`'s block result and `format`'s `%{name}` write), with `inspect` for what is inside a container.

use super::print_table::NOT_PRINT;
use super::ruby_class;
use crate::yaml::value::{Node, Value};
use std::fmt::Write as _;

/// Ruby's `to_s`: a string as it is, `nil` as nothing, `true`/`false`,
/// numbers, and containers (`Array#to_s`, `Hash#to_s`) as their `inspect`.
pub fn ruby_to_s(node: &Node) -> String {
    match node.value() {
        Value::Str(s) => s.to_string_lossy().into_owned(),
        Value::Null => String::new(),
        _ => ruby_inspect(node, 0),
    }
}

/// Ruby's `inspect` (Ruby 3.1: `{"a"=>1}`); below 64 levels, `...`.
fn ruby_inspect(node: &Node, depth: usize) -> String {
    if depth > 64 {
        return "...".to_owned();
    }
    match node.value() {
        Value::Null => "nil".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_big().to_string(),
        Value::Float(f) => ruby_float_to_s(*f),
        Value::Str(s) => ruby_inspect_str(&s.to_string_lossy()),
        Value::Seq(s) => format!(
            "[{}]",
            s.iter()
                .map(|v| ruby_inspect(v, depth + 1))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Map(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| {
                    format!(
                        "{}=>{}",
                        ruby_inspect(k, depth + 1),
                        ruby_inspect(v, depth + 1)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => ruby_class(node).to_owned(),
    }
}

/// Ruby's `String#inspect` of a UTF-8 string (under a UTF-8 locale, as puppet runs):
/// quotes, backslash escapes for `"`, `\\`, `#{`/`#$`/`#@` and the C escapes, `\uXXXX`
/// (`\u{X}` above U+FFFF) for what Ruby does not print.
pub fn ruby_inspect_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            '\u{8}' => out.push_str("\\b"),
            '\u{7}' => out.push_str("\\a"),
            '\u{1b}' => out.push_str("\\e"),
            ' '..='~' => out.push(c),
            _ if !c.is_ascii() && !not_print(c) => out.push(c),
            _ if u32::from(c) > 0xFFFF => {
                let _ = write!(out, "\\u{{{:X}}}", u32::from(c));
            }
            _ => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

fn not_print(c: char) -> bool {
    crate::python::range_of(NOT_PRINT, u32::from(c)).is_some()
}

/// Ruby's `Float#to_s` for the values data files hold.
fn ruby_float_to_s(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    let r = crate::yaml::value::py_float_repr(f);
    // Python: 1e+20 / 1.5e-07; Ruby: 1.0e+20 / 1.5e-07.
    match r.split_once('e') {
        Some((m, e)) => {
            let m = if m.contains('.') {
                m.to_owned()
            } else {
                format!("{m}.0")
            };
            let e = if e.starts_with('-') || e.starts_with('+') {
                e.to_owned()
            } else {
                format!("+{e}")
            };
            format!("{m}e{e}")
        }
        None => r,
    }
}
