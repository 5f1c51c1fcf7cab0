//! `fingerprint`: a coarse structural hash — values the symmetric dialects call equal always share it, so de-duplication compares only within buckets.

use crate::yaml::value::{Node, Value};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A hash equal for any two values Nickel's or the keyed dialect's equality
/// may call equal: numbers by numeric value (`1`, `1.0` and `true` differ
/// only by type, which is hashed as "number" or "bool"), mappings without
/// regard to key order. Collisions are fine; callers still compare.
pub fn fingerprint(node: &Node) -> u64 {
    let mut h = DefaultHasher::new();
    feed(node, &mut h, 0);
    h.finish()
}

fn feed(node: &Node, h: &mut DefaultHasher, depth: usize) {
    // Deep enough to tell real values apart; deeper levels only add cost.
    if depth > 64 {
        return;
    }
    match node.value() {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, *b).hash(h),
        Value::Int(i) => (2u8, i.to_f64().unwrap_or(f64::NAN).to_bits()).hash(h),
        Value::Float(f) => {
            // -0.0 == 0.0.
            let f = if *f == 0.0 { 0.0 } else { *f };
            (2u8, f.to_bits()).hash(h);
        }
        Value::Str(s) => (3u8, s.as_wtf8()).hash(h),
        Value::Bytes(b) => (4u8, b).hash(h),
        Value::Date(_) | Value::DateTime(_) => 5u8.hash(h),
        Value::Seq(s) | Value::Tuple(s) => {
            (6u8, s.len()).hash(h);
            for v in s.iter() {
                feed(v, h, depth + 1);
            }
        }
        Value::Map(m) | Value::Set(m) => {
            (7u8, m.len()).hash(h);
            // Order-free: combine per-entry hashes commutatively.
            let mut acc: u64 = 0;
            for (k, v) in m.iter() {
                let mut e = DefaultHasher::new();
                feed(k, &mut e, depth + 1);
                feed(v, &mut e, depth + 1);
                acc = acc.wrapping_add(e.finish());
            }
            acc.hash(h);
        }
    }
}
