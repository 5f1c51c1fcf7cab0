//! `%{...}` interpolation in data values, as Hiera applies it when a lookup reads a level.
//!
//! cloudfold has no node, scope or facts: a variable (`%{foo}`,
//! `%{facts.os}`, `%{scope('x')}`) interpolates to `""`, as puppet does for
//! an unknown variable. `%{literal('x')}` gives `x`; `%{lookup('k')}` and
//! `%{hiera('k')}` the value of another key (looked up with its own
//! `lookup_options`), as text; `%{alias('k')}`, which must be the whole
//! string, the value itself. Lookups that come back to themselves fail.

use super::lookup_key::split_key;
use super::{HieraError, Hierarchy};
use crate::merge::ruby::{ruby_strip, ruby_to_s};
use crate::yaml::value::{Entries, Map, Node, PyStrBuilder, Seq, Value, insert};

/// Whether anything under `node` (keys included) contains `%{`.
fn needs(node: &Node, depth: usize) -> bool {
    if depth > crate::merge::MAX_LEVELS {
        return false;
    }
    match node.value() {
        Value::Str(s) => s.to_string_lossy().contains("%{"),
        Value::Seq(s) => s.iter().any(|v| needs(v, depth + 1)),
        Value::Map(m) => m
            .iter()
            .any(|(k, v)| needs(k, depth + 1) || needs(v, depth + 1)),
        _ => false,
    }
}

/// `node` with every string interpolated (unchanged, same node, when none needs it).
pub(super) fn interpolate(h: &Hierarchy, node: &Node) -> Result<Node, HieraError> {
    if !needs(node, 0) {
        return Ok(node.clone());
    }
    walk(h, node, 0)
}

fn walk(h: &Hierarchy, node: &Node, depth: usize) -> Result<Node, HieraError> {
    if depth > crate::merge::MAX_LEVELS || !needs(node, depth) {
        return Ok(node.clone());
    }
    match node.value() {
        Value::Str(s) => interpolate_str(h, node, &s.to_string_lossy()),
        Value::Seq(s) => {
            let items = s
                .iter()
                .map(|v| walk(h, v, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Node::new(Value::Seq(Seq::new(items)), node.span()))
        }
        Value::Map(m) => {
            let mut entries = Entries::with_capacity(m.len());
            for (k, v) in m.iter() {
                insert(&mut entries, walk(h, k, depth + 1)?, walk(h, v, depth + 1)?);
            }
            Ok(Node::new(Value::Map(Map::new(entries)), node.span()))
        }
        _ => Ok(node.clone()),
    }
}

/// An interpolation expression: `name('arg')` / `name("arg")`, else a variable.
fn method_call(expr: &str) -> Option<(&str, &str)> {
    let open = expr.find('(')?;
    let name = expr.get(..open)?;
    // Hiera's `/^(\w+)\(/`: Ruby's `\w` is ASCII (`"é" =~ /\w/` is nil).
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = expr.get(open + 1..)?.strip_suffix(')')?;
    let q = rest.chars().next()?;
    if q != '\'' && q != '"' {
        return None;
    }
    let inner = rest.get(1..)?.strip_suffix(q)?;
    if inner.is_empty() || inner.contains(q) {
        return None;
    }
    Some((name, inner))
}

fn interpolate_str(h: &Hierarchy, node: &Node, text: &str) -> Result<Node, HieraError> {
    let mut out = PyStrBuilder::new();
    let mut rest = text;
    while let Some(start) = rest.find("%{") {
        let after = rest.get(start + 2..).unwrap_or_default();
        let Some(end) = after.find('}') else {
            break;
        };
        out.push_str(rest.get(..start).unwrap_or_default());
        let whole = rest.get(start..start + 2 + end + 1).unwrap_or_default();
        let expr = ruby_strip(after.get(..end).unwrap_or_default());
        rest = after.get(end + 1..).unwrap_or_default();
        if matches!(expr, "" | "::" | "\"\"" | "''" | "\"::\"" | "'::'") {
            continue;
        }
        let fail =
            |m: String| HieraError::new("hiera-interpolation", m).with_operands([node.span()]);
        match method_call(expr) {
            Some(("literal", arg)) => out.push_str(arg),
            // No variables here: "" (but the name must parse).
            Some(("scope", _)) => {}
            None => {
                if split_key(expr).is_none() {
                    return Err(fail(format!("Syntax error in string: {text}")));
                }
            }
            Some(("alias", key)) => {
                if whole != text {
                    return Err(fail(format!(
                        "'alias' interpolation is only permitted if the expression is equal to \
                         the entire string: {text}"
                    )));
                }
                // Not found: "" (the empty interpolation).
                let v = h
                    .sub_lookup(key)
                    .map_err(|e| e.with_operands([node.span()]))?;
                return Ok(v.unwrap_or_else(|| Node::new(Value::Str("".into()), node.span())));
            }
            Some(("lookup" | "hiera", key)) => {
                let v = h
                    .sub_lookup(key)
                    .map_err(|e| e.with_operands([node.span()]))?;
                if let Some(v) = v {
                    out.push_str(&ruby_to_s(&v));
                }
            }
            Some((other, _)) => {
                return Err(fail(format!("Unknown interpolation method '{other}'")));
            }
        }
    }
    out.push_str(rest);
    Ok(Node::new(Value::Str(out.finish()), node.span()))
}
