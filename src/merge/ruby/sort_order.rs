//! Sorting merged lists as Ruby's `Array#sort!` does, where values that do not compare are an error.
//!
//! Ruby's `<=>`: numbers numerically, strings bytewise, lists item by item
//! then by length; any other pair compares only when equal. A sort meeting
//! a pair that does not compare fails ("comparison of Integer with String
//! failed"); which pair is reported may differ from Ruby's.

use super::strict_eq::strict_eq;
use crate::yaml::value::{Node, Value, py_eq};
use std::cmp::Ordering;

/// Ruby's class name of a loaded value (for messages).
pub fn ruby_class(node: &Node) -> &'static str {
    match node.value() {
        Value::Null => "NilClass",
        Value::Bool(true) => "TrueClass",
        Value::Bool(false) => "FalseClass",
        Value::Int(_) => "Integer",
        Value::Float(_) => "Float",
        Value::Str(_) => "String",
        Value::Seq(_) | Value::Tuple(_) => "Array",
        Value::Map(_) => "Hash",
        other => other.type_name(),
    }
}

/// `a <=> b`; `None` when Ruby returns nil.
pub fn ruby_cmp(a: &Node, b: &Node) -> Option<Ordering> {
    match (a.value(), b.value()) {
        (Value::Int(x), Value::Int(y)) => Some(x.to_big().cmp(&y.to_big())),
        (Value::Int(x), Value::Float(y)) => x.cmp_f64(*y),
        (Value::Float(x), Value::Int(y)) => y.cmp_f64(*x).map(Ordering::reverse),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Str(x), Value::Str(y)) => Some(x.as_wtf8().cmp(y.as_wtf8())),
        (Value::Seq(x) | Value::Tuple(x), Value::Seq(y) | Value::Tuple(y)) => {
            for (p, q) in x.iter().zip(y.iter()) {
                match ruby_cmp(p, q)? {
                    Ordering::Equal => {}
                    other => return Some(other),
                }
            }
            Some(x.len().cmp(&y.len()))
        }
        _ if strict_eq(a, b) || py_eq(a, b) && ruby_class(a) == ruby_class(b) => {
            Some(Ordering::Equal)
        }
        _ => None,
    }
}

/// Sort `items` (a stable merge sort); on a pair that does not compare,
/// that pair.
pub fn ruby_sort(items: Vec<Node>) -> Result<Vec<Node>, (Node, Node)> {
    let mut v = items;
    let n = v.len();
    let mut width = 1;
    let mut buf: Vec<Node> = Vec::with_capacity(n);
    while width < n {
        buf.clear();
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            while i < mid && j < end {
                let (Some(a), Some(b)) = (v.get(i), v.get(j)) else {
                    break;
                };
                match ruby_cmp(a, b) {
                    None => return Err((a.clone(), b.clone())),
                    Some(Ordering::Greater) => {
                        buf.push(b.clone());
                        j += 1;
                    }
                    Some(_) => {
                        buf.push(a.clone());
                        i += 1;
                    }
                }
            }
            buf.extend(v.get(i..mid).unwrap_or_default().iter().cloned());
            buf.extend(v.get(j..end).unwrap_or_default().iter().cloned());
            start = end;
        }
        std::mem::swap(&mut v, &mut buf);
        width = width.saturating_mul(2);
    }
    Ok(v)
}
