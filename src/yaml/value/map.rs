//! `Map` and `Key`: a Python `dict` — insertion order, Python key equality.

use super::float_trunc_to_big;
use super::slot::Slot;
use super::{CANONICAL_NAN, Entries, Int, Node, Value};
use std::hash::{Hash, Hasher};

/// A Python dict: insertion-ordered; keys compare as Python compares them, so
/// `1`, `1.0` and `true` are one key, and the first key object is kept.
///
/// Like `super::Seq`, a map is filled once so that recursive aliases can be
/// represented.
#[derive(Default)]
pub struct Map(Slot<Entries>);

/// A map key: a hashable node, hashed and compared with Python semantics.
#[derive(Clone)]
pub struct Key(pub Node);

impl Map {
    /// A filled map.
    pub fn new(entries: Entries) -> Map {
        Map(Slot::Ready(entries))
    }

    /// A map to be filled later with [`Map::fill`].
    pub fn pending() -> Map {
        Map(Slot::pending())
    }

    /// Fill a pending map; gives the entries back if it was already filled.
    pub fn fill(&self, entries: Entries) -> Result<(), Entries> {
        self.0.fill(entries)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.get().map_or(0, Entries::len)
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Node, &Node)> {
        self.0
            .get()
            .into_iter()
            .flat_map(|m| m.iter().map(|(k, v)| (&k.0, v)))
    }

    /// Keys in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Node> {
        self.0
            .get()
            .into_iter()
            .flat_map(Entries::keys)
            .map(|k| &k.0)
    }

    /// The value for `key` (Python lookup).
    pub fn get(&self, key: &Node) -> Option<&Node> {
        self.0.get()?.get(key)
    }

    /// The stored key object and value for `key`.
    pub fn get_key_value(&self, key: &Node) -> Option<(&Node, &Node)> {
        self.0.get()?.get_key_value(key).map(|(k, v)| (&k.0, v))
    }

    /// The value for a string key.
    pub fn get_str(&self, key: &str) -> Option<&Node> {
        self.0.get()?.get_str(key)
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &Node) -> bool {
        self.get(key).is_some()
    }

    /// A shallow copy of the entries (Python's `dict(old)`), for building a new map.
    pub fn to_entries(&self) -> Entries {
        self.0.get().cloned().unwrap_or_default()
    }

    /// The entries, to edit in place (`None` while pending).
    pub(crate) fn entries_mut(&mut self) -> Option<&mut Entries> {
        self.0.get_mut()
    }

    /// The entries, taken out (empty while pending).
    pub fn into_entries(self) -> Entries {
        self.0.into_inner().unwrap_or_default()
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Node, &Node)> {
        self.0.get()?.get_index(i).map(|(k, v)| (&k.0, v))
    }
}

/// Python `d[k] = v` on entries: an equal existing key keeps its object and
/// place, only the value changes.
pub fn insert(entries: &mut Entries, key: Node, value: Node) {
    entries.insert(Key(key), value);
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

// Hash discriminators: all numbers share one so that 1 == 1.0 == True.
const H_NULL: u8 = 0;
const H_NUM: u8 = 1;
const H_STR: u8 = 2;
const H_BYTES: u8 = 3;
const H_DATE: u8 = 4;
const H_DATETIME: u8 = 5;
const H_OTHER: u8 = 6;
const H_TUPLE: u8 = 7;

fn hash_int<H: Hasher>(i: &Int, state: &mut H) {
    state.write_u8(H_NUM);
    match i {
        Int::Small(v) => v.hash(state),
        Int::Big(b) => b.hash(state),
    }
}

fn hash_float<H: Hasher>(f: f64, state: &mut H) {
    if f.is_finite() && f.trunc() == f {
        if f.abs() < 9.0e18 {
            return hash_int(&Int::Small(f as i64), state);
        }
        return hash_int(&Int::from_big(float_trunc_to_big(f)), state);
    }
    state.write_u8(H_NUM);
    if f.is_nan() {
        state.write_u8(0xFF);
    } else {
        f.to_bits().hash(state);
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_value(self.0.value(), state);
    }
}

/// Python's `hash()` of a key's value, consistent with [`scalar_eq`].
fn hash_value<H: Hasher>(v: &Value, state: &mut H) {
    match v {
        Value::Null => state.write_u8(H_NULL),
        Value::Bool(b) => hash_int(&Int::Small(i64::from(*b)), state),
        Value::Int(i) => hash_int(i, state),
        Value::Float(f) => hash_float(*f, state),
        Value::Str(s) => {
            state.write_u8(H_STR);
            s.as_wtf8().hash(state);
        }
        Value::Bytes(b) => {
            state.write_u8(H_BYTES);
            b.hash(state);
        }
        Value::Date(d) => {
            state.write_u8(H_DATE);
            d.hash(state);
        }
        Value::DateTime(d) => {
            state.write_u8(H_DATETIME);
            d.hash(state);
        }
        // A tuple hashes by its items (one level: a tuple inside, like a
        // container, counts as other), as Python's does.
        Value::Tuple(items) => {
            state.write_u8(H_TUPLE);
            state.write_usize(items.len());
            for item in items.iter() {
                match item.value() {
                    Value::Tuple(_) => state.write_u8(H_OTHER),
                    v => hash_value(v, state),
                }
            }
        }
        // Unhashable in Python; never used as keys by the loader.
        _ => state.write_u8(H_OTHER),
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.matches(&other.0)
    }
}

impl Eq for Key {}

impl Key {
    /// Whether `node` finds this key in a dict: Python tries identity first,
    /// then `==`.
    pub(super) fn matches(&self, node: &Node) -> bool {
        Key::eq_nodes(&self.0, node)
    }

    /// Whether `Key(a)` equals `Key(b)`, for nodes only borrowed.
    pub fn eq_nodes(a: &Node, b: &Node) -> bool {
        if Node::ptr_eq(a, b) {
            return true;
        }
        match (a.value(), b.value()) {
            // Item by item, as Python compares tuples (one level, as hashed).
            (Value::Tuple(x), Value::Tuple(y)) => {
                x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|(p, q)| {
                        Node::ptr_eq(p, q) || scalar_eq(p.value(), q.value())
                    })
            }
            (va, vb) => scalar_eq(va, vb),
        }
    }

    /// The hash `Key(node)` has under `state`, for a node only borrowed.
    pub fn hash_node(node: &Node, state: &impl std::hash::BuildHasher) -> u64 {
        state.hash_one(NodeKey(node))
    }
}

/// A borrowed node as a lookup key, without cloning its reference.
pub(super) struct NodeKey<'a>(pub(super) &'a Node);

impl Hash for NodeKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_value(self.0.value(), state);
    }
}

impl indexmap::Equivalent<Key> for NodeKey<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        key.matches(self.0)
    }
}

/// A borrowed string key, for lookups without building a node.
pub(super) struct StrKey<'a>(pub(super) &'a str);

impl Hash for StrKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(H_STR);
        self.0.as_bytes().hash(state);
    }
}

impl indexmap::Equivalent<Key> for StrKey<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        matches!(key.0.value(), Value::Str(s) if *s == *self.0)
    }
}

/// A number as Python sees it for `==`.
enum Num<'a> {
    Int(&'a Int),
    Float(f64),
}

fn as_num(v: &Value) -> Option<Num<'_>> {
    match v {
        Value::Bool(false) => Some(Num::Int(&Int::Small(0))),
        Value::Bool(true) => Some(Num::Int(&Int::Small(1))),
        Value::Int(i) => Some(Num::Int(i)),
        Value::Float(f) => Some(Num::Float(*f)),
        _ => None,
    }
}

/// Python `==` on two scalars (containers compare by identity only here;
/// use [`py_eq`] for deep equality).
fn scalar_eq(a: &Value, b: &Value) -> bool {
    // Keys are nearly always strings, and a `str` equals only a `str`.
    if let (Value::Str(x), Value::Str(y)) = (a, b) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (as_num(a), as_num(b)) {
        return match (x, y) {
            (Num::Int(x), Num::Int(y)) => x == y,
            (Num::Int(i), Num::Float(f)) | (Num::Float(f), Num::Int(i)) => {
                i.cmp_f64(f) == Some(std::cmp::Ordering::Equal)
            }
            (Num::Float(x), Num::Float(y)) => {
                x == y || (x.to_bits() == CANONICAL_NAN.to_bits() && y.to_bits() == x.to_bits())
            }
        };
    }
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Date(x), Value::Date(y)) => x == y,
        (Value::DateTime(x), Value::DateTime(y)) => x == y,
        _ => false,
    }
}

/// Python `a == b` (deep, with the identity shortcut Python uses for items).
pub fn py_eq(a: &Node, b: &Node) -> bool {
    if Node::ptr_eq(a, b) {
        return true;
    }
    match (a.value(), b.value()) {
        (Value::Seq(x), Value::Seq(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| py_eq(p, q))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| py_eq(v, w)))
        }
        (Value::Set(x), Value::Set(y)) => x.len() == y.len() && x.keys().all(|k| y.contains_key(k)),
        (va, vb) => scalar_eq(va, vb),
    }
}
