//! Strict value equality and its hash (Ruby's `eql?`/`hash`): how Hiera's `unique` and `deep` de-duplicate lists.
//!
//! Unlike Python's `==` (the value model's key equality), `1`, `1.0` and
//! `true` are three different values here; containers compare item by item.

use crate::yaml::value::{Node, Value, py_eq};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Ruby's `a.eql?(b)` on loaded values.
pub fn strict_eq(a: &Node, b: &Node) -> bool {
    if Node::ptr_eq(a, b) {
        return true;
    }
    match (a.value(), b.value()) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        // NaN is not eql to another NaN object; -0.0 eql 0.0.
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Seq(x) | Value::Tuple(x), Value::Seq(y) | Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| strict_eq(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get_key_value(k)
                        .is_some_and(|(k2, w)| strict_eq(k, k2) && strict_eq(v, w))
                })
        }
        (Value::Int(_) | Value::Float(_) | Value::Bool(_), _)
        | (_, Value::Int(_) | Value::Float(_) | Value::Bool(_)) => false,
        _ => py_eq(a, b),
    }
}

/// A hash consistent with [`strict_eq`] (map entries hashed order-free).
pub fn strict_hash(node: &Node) -> u64 {
    let mut h = DefaultHasher::new();
    feed(node, &mut h, 0);
    h.finish()
}

fn feed(node: &Node, h: &mut DefaultHasher, depth: usize) {
    // Deep values hash by type only below this depth: still consistent.
    if depth > 64 {
        std::mem::discriminant(node.value()).hash(h);
        return;
    }
    match node.value() {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Int(i) => (2u8, i).hash(h),
        Value::Float(f) => (3u8, if *f == 0.0 { 0 } else { f.to_bits() }).hash(h),
        Value::Str(s) => (4u8, s.as_wtf8()).hash(h),
        Value::Seq(s) | Value::Tuple(s) => {
            (5u8, s.len()).hash(h);
            for item in s.iter() {
                feed(item, h, depth + 1);
            }
        }
        Value::Map(m) => {
            let mut sum: u64 = 0;
            for (k, v) in m.iter() {
                let mut eh = DefaultHasher::new();
                feed(k, &mut eh, depth + 1);
                feed(v, &mut eh, depth + 1);
                sum = sum.wrapping_add(eh.finish());
            }
            (6u8, m.len(), sum).hash(h);
        }
        other => (7u8, other.type_name()).hash(h),
    }
}

/// Items with later duplicates removed ([`strict_eq`]), first occurrences in order.
pub fn strict_union<'a>(parts: impl IntoIterator<Item = &'a Node>) -> Vec<Node> {
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut out: Vec<Node> = Vec::new();
    for item in parts {
        let bucket = seen.entry(strict_hash(item)).or_default();
        if bucket
            .iter()
            .any(|&i| out.get(i).is_some_and(|o| strict_eq(o, item)))
        {
            continue;
        }
        bucket.push(out.len());
        out.push(item.clone());
    }
    out
}
