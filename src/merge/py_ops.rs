//! Python's `len(x)`, `x[i]` and `for v in x` over loaded values, as the list merger applies them to new.

use super::{MergeError, PyException};
use crate::yaml::value::{Int, Map, Node, PyStr, Value};

fn char_node(cp: u32, like: &Node) -> Node {
    Node::new(Value::Str(PyStr::from_code_points([cp])), like.span())
}

fn int_node(i: u8, like: &Node) -> Node {
    Node::new(Value::Int(Int::Small(i64::from(i))), like.span())
}

/// A sized value ready for `x[i]` (strings are decoded once, not per index).
pub(crate) enum Indexable<'a> {
    Items(&'a [Node]),
    Chars(Vec<u32>, &'a Node),
    Bytes(&'a [u8], &'a Node),
    Map(&'a Map),
    NotSubscriptable(&'static str),
}

impl<'a> Indexable<'a> {
    /// `len(x)` and an indexer; `TypeError` for unsized values.
    pub(crate) fn new(x: &'a Node) -> Result<(usize, Indexable<'a>), MergeError> {
        Ok(match x.value() {
            Value::Seq(s) | Value::Tuple(s) => (s.len(), Indexable::Items(s.items())),
            Value::Map(m) => (m.len(), Indexable::Map(m)),
            Value::Set(m) => (m.len(), Indexable::NotSubscriptable(x.type_name())),
            Value::Str(s) => {
                let cps: Vec<u32> = s.chars().collect();
                (cps.len(), Indexable::Chars(cps, x))
            }
            Value::Bytes(b) => (b.len(), Indexable::Bytes(b, x)),
            _ => {
                return Err(MergeError::type_error(format!(
                    "object of type '{}' has no len()",
                    x.type_name()
                )));
            }
        })
    }

    /// `x[i]`: mappings are looked up by the int key `i` (Python key
    /// equality: `False` and `0.0` match `0`).
    pub(crate) fn get(&self, i: usize) -> Result<Node, MergeError> {
        let missing = || MergeError::new(PyException::IndexError, "index out of range");
        match self {
            Indexable::Items(items) => items.get(i).cloned().ok_or_else(missing),
            Indexable::Chars(cps, like) => cps
                .get(i)
                .map(|cp| char_node(*cp, like))
                .ok_or_else(missing),
            Indexable::Bytes(b, like) => b.get(i).map(|v| int_node(*v, like)).ok_or_else(missing),
            Indexable::Map(m) => {
                let key = Node::synthetic(Value::Int(Int::from_big(i.into())));
                m.get(&key)
                    .cloned()
                    .ok_or_else(|| MergeError::new(PyException::KeyError, i.to_string()))
            }
            Indexable::NotSubscriptable(t) => Err(MergeError::type_error(format!(
                "'{t}' object is not subscriptable"
            ))),
        }
    }
}

/// The items `for v in x` yields: a string's characters (as new one-character
/// strings with x's span), a mapping's or set's keys (the key objects), a
/// bytes' ints; `TypeError` for non-iterables.
///
/// Sets iterate in insertion order here; CPython's order depends on hashes.
pub(crate) fn py_iter(x: &Node) -> Result<Vec<Node>, MergeError> {
    Ok(match x.value() {
        Value::Seq(s) | Value::Tuple(s) => s.items().to_vec(),
        Value::Str(s) => s.chars().map(|cp| char_node(cp, x)).collect(),
        Value::Map(m) | Value::Set(m) => m.keys().cloned().collect(),
        Value::Bytes(b) => b.iter().map(|v| int_node(*v, x)).collect(),
        _ => {
            return Err(MergeError::type_error(format!(
                "'{}' object is not iterable",
                x.type_name()
            )));
        }
    })
}
