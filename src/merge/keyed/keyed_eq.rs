//! `keyed_eq`: equality for the keyed cloud-config dialect — same type and value, as the cloud-config would be written.

use crate::yaml::value::{Node, Value};

/// Whether two values are the same cloud-config: same type (`1`, `1.0`,
/// `true` and `"1"` all differ), same value; mappings ignore key order.
pub fn keyed_eq(a: &Node, b: &Node) -> bool {
    if Node::ptr_eq(a, b) {
        return true;
    }
    match (a.value(), b.value()) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits() || x == y,
        (Value::Str(x), Value::Str(y)) => x.as_wtf8() == y.as_wtf8(),
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Date(_), Value::Date(_)) | (Value::DateTime(_), Value::DateTime(_)) => {
            crate::yaml::value::py_eq(a, b)
        }
        (Value::Seq(x), Value::Seq(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| keyed_eq(p, q))
        }
        (Value::Map(x), Value::Map(y)) | (Value::Set(x), Value::Set(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get_key_value(k)
                        .is_some_and(|(k2, w)| keyed_eq(k, k2) && keyed_eq(v, w))
                })
        }
        _ => false,
    }
}
