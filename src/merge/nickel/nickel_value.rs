//! Nickel's view of loaded values: numbers as exact rationals, and the structural equality merge requires.

use crate::merge::Decimal;
use crate::yaml::value::{Int, Node, Value, py_float_repr};

/// The exact number Nickel reads for this value (a float is the decimal its
/// shortest repr spells, as the written Nickel source would be); `None` for
/// non-numbers (booleans included) and non-finite floats.
pub fn nickel_number(node: &Node) -> Option<Decimal> {
    match node.value() {
        Value::Int(Int::Small(i)) => Some(Decimal::from_int((*i).into())),
        Value::Int(i) => Some(Decimal::from_int(i.to_big())),
        Value::Float(f) if f.is_finite() => Decimal::parse(&py_float_repr(*f)),
        _ => None,
    }
}

/// Whether two values are equal the way Nickel's merge needs them to be:
/// same type, numbers compared as rationals, arrays item by item, records
/// field by field (order ignored).
pub fn nickel_eq(a: &Node, b: &Node) -> bool {
    if Node::ptr_eq(a, b) {
        return true;
    }
    match (a.value(), b.value()) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            match (nickel_number(a), nickel_number(b)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            }
        }
        (Value::Str(x), Value::Str(y)) => x.as_wtf8() == y.as_wtf8(),
        (Value::Seq(x) | Value::Tuple(x), Value::Seq(y) | Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| nickel_eq(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| nickel_eq(v, w)))
        }
        _ => false,
    }
}
