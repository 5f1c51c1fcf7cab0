//! `Entries`: the items of a dict in insertion order, found by Python key equality;
//! small dicts are scanned, larger ones hashed.

use super::{Node, Value};
use super::map::{Key, NodeKey, StrKey};
use indexmap::{Equivalent, IndexMap};

/// Up to this many entries a dict is a plain list scanned on lookup: most
/// cloud-config dicts have fewer keys, and then cost one allocation and no
/// hashing (the hash table was a second allocation per dict, and hashing
/// every key ~5 % of a load). 16 rather than 8: a part's top-level dict
/// often has 10 keys or more (the 5000-part render: 15,000 allocations and
/// 0.6 ms of CPU fewer). A scan compares a key with at most 15 others.
const SMALL: usize = 16;

/// Hashed with foldhash (randomly seeded per process, so still resistant to
/// crafted collisions): SipHash was ~4 % of a load.
type Hashed = IndexMap<Key, Node, foldhash::fast::RandomState>;

/// The entries of a dict: insertion-ordered, keys compared as Python compares
/// them (see [`Key`]). The API follows `IndexMap`'s where they overlap.
#[derive(Clone)]
pub struct Entries(Repr);

#[derive(Clone)]
enum Repr {
    /// At most [`SMALL`] entries, found by scanning.
    Small(Vec<(Key, Node)>),
    /// More entries (a dict that shrinks again stays hashed). Boxed: a
    /// map's value then fits a node's 56 bytes beside its fill-once cell.
    Hashed(Box<Hashed>),
}

/// Whether the keys of `pairs` (at most [`SMALL`]) are strings whose
/// fingerprints differ pairwise, so that no two are equal (`false` tells
/// nothing).
fn distinct_strs(pairs: &[(Node, Node)]) -> bool {
    let mut seen = [0u64; SMALL];
    for (i, (k, _)) in pairs.iter().enumerate() {
        let Value::Str(s) = k.value() else {
            return false;
        };
        let f = fingerprint(s.as_wtf8());
        match (seen.get(..i), seen.get(i)) {
            (Some(before), Some(_)) if !before.contains(&f) => {}
            _ => return false,
        }
        if let Some(slot) = seen.get_mut(i) {
            *slot = f;
        }
    }
    true
}

/// A text's length and first and last eight bytes mixed into a word: equal
/// texts have equal fingerprints.
fn fingerprint(b: &[u8]) -> u64 {
    let mut head = [0u8; 8];
    for (d, s) in head.iter_mut().zip(b) {
        *d = *s;
    }
    let tail = b.last_chunk::<8>().copied().unwrap_or(head);
    u64::from_le_bytes(head)
        ^ u64::from_le_bytes(tail).rotate_left(32)
        ^ (b.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Default for Entries {
    fn default() -> Self {
        Entries(Repr::Small(Vec::new()))
    }
}

impl Entries {
    /// Empty, with room for `n` entries.
    pub fn with_capacity(n: usize) -> Entries {
        if n <= SMALL {
            Entries(Repr::Small(Vec::with_capacity(n)))
        } else {
            Entries(Repr::Hashed(Box::new(Hashed::with_capacity_and_hasher(
                n,
                Default::default(),
            ))))
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Small(v) => v.len(),
            Repr::Hashed(m) => m.len(),
        }
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Python `d[k] = v`: an equal existing key keeps its object and place,
    /// only the value changes.
    pub fn insert(&mut self, key: Key, value: Node) {
        match &mut self.0 {
            Repr::Small(v) => {
                if let Some(slot) = v.iter_mut().find(|(k, _)| *k == key) {
                    slot.1 = value;
                } else if v.len() < SMALL {
                    v.push((key, value));
                } else {
                    let mut m = Hashed::with_capacity_and_hasher(SMALL * 2, Default::default());
                    m.extend(std::mem::take(v));
                    m.insert(key, value);
                    self.0 = Repr::Hashed(Box::new(m));
                }
            }
            // `IndexMap::insert` keeps an equal key's object and place too.
            Repr::Hashed(m) => {
                m.insert(key, value);
            }
        }
    }

    /// [`Entries::insert`] of each pair in turn. Into a dict with no entries
    /// yet, string keys whose fingerprints all differ are pushed without the
    /// scan for an equal key (they cannot be equal: a `str` equals only a
    /// `str`): every mapping a load builds comes through here, and those
    /// scans were most of what building a part's top-level mapping cost.
    pub(crate) fn insert_all(&mut self, pairs: std::vec::Drain<'_, (Node, Node)>) {
        if let Repr::Small(v) = &mut self.0
            && v.is_empty()
            && pairs.len() <= SMALL
            && distinct_strs(pairs.as_slice())
        {
            for (k, n) in pairs {
                v.push((Key(k), n));
            }
            return;
        }
        for (k, n) in pairs {
            self.insert(Key(k), n);
        }
    }

    /// Position, key object and value of the entry whose key equals `key`.
    pub fn get_full(&self, key: &Node) -> Option<(usize, &Key, &Node)> {
        match &self.0 {
            Repr::Small(v) => v
                .iter()
                .enumerate()
                .find(|(_, (k, _))| k.matches(key))
                .map(|(i, (k, n))| (i, k, n)),
            Repr::Hashed(m) => m.get_full(&NodeKey(key)),
        }
    }

    /// The value for `key`.
    pub fn get(&self, key: &Node) -> Option<&Node> {
        self.get_full(key).map(|(_, _, v)| v)
    }

    /// The stored key object and value for `key`.
    pub fn get_key_value(&self, key: &Node) -> Option<(&Key, &Node)> {
        self.get_full(key).map(|(_, k, v)| (k, v))
    }

    /// Position of `key`.
    pub fn get_index_of(&self, key: &Node) -> Option<usize> {
        self.get_full(key).map(|(i, _, _)| i)
    }

    /// [`Self::get_index_of`], trying position `hint` first: a dict merged
    /// into another often lists its keys in the same order (a payload's parts
    /// share their layout), and then each key is found with one comparison
    /// instead of a scan. Only a string key is taken at the hint: a `str`
    /// equals only the one equal `str` of a dict, so no other entry could be
    /// the one a scan finds.
    pub(crate) fn get_index_of_near(&self, key: &Node, hint: usize) -> Option<usize> {
        let at_hint = match &self.0 {
            Repr::Small(v) => v.get(hint).map(|(k, _)| k),
            Repr::Hashed(m) => m.get_index(hint).map(|(k, _)| k),
        };
        if let Some(k) = at_hint
            && let (Value::Str(a), Value::Str(b)) = (k.0.value(), key.value())
            && a == b
        {
            return Some(hint);
        }
        self.get_index_of(key)
    }

    /// The value for a string key.
    pub fn get_str(&self, key: &str) -> Option<&Node> {
        match &self.0 {
            Repr::Small(v) => v
                .iter()
                .find(|(k, _)| StrKey(key).equivalent(k))
                .map(|(_, n)| n),
            Repr::Hashed(m) => m.get(&StrKey(key)),
        }
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Key, &Node)> {
        match &self.0 {
            Repr::Small(v) => v.get(i).map(|(k, n)| (k, n)),
            Repr::Hashed(m) => m.get_index(i),
        }
    }

    /// The entry at position `i`, its value writable.
    pub fn get_index_mut(&mut self, i: usize) -> Option<(&Key, &mut Node)> {
        match &mut self.0 {
            Repr::Small(v) => v.get_mut(i).map(|(k, n)| (&*k, n)),
            Repr::Hashed(m) => m.get_index_mut(i),
        }
    }

    /// Remove the entry for `key`, keeping the others' order (`del d[k]`).
    pub fn shift_remove(&mut self, key: &Node) -> Option<Node> {
        match &mut self.0 {
            Repr::Small(v) => {
                let i = v.iter().position(|(k, _)| k.matches(key))?;
                Some(v.remove(i).1)
            }
            Repr::Hashed(m) => m.shift_remove(&NodeKey(key)),
        }
    }

    /// Keep the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.0 {
            Repr::Small(v) => v.truncate(len),
            Repr::Hashed(m) => m.truncate(len),
        }
    }

    /// Entries in order.
    pub fn iter(&self) -> Iter<'_> {
        match &self.0 {
            Repr::Small(v) => Iter::Small(v.iter()),
            Repr::Hashed(m) => Iter::Hashed(m.iter()),
        }
    }

    /// Keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator {
        self.iter().map(|(k, _)| k)
    }

    /// Keys in order, taken out.
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Key> + ExactSizeIterator {
        self.into_iter().map(|(k, _)| k)
    }
}

impl std::fmt::Debug for Entries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Borrowed entries in order.
#[derive(Debug)]
pub enum Iter<'a> {
    #[doc(hidden)]
    Small(std::slice::Iter<'a, (Key, Node)>),
    #[doc(hidden)]
    Hashed(indexmap::map::Iter<'a, Key, Node>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Node);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(i) => i.next().map(|(k, v)| (k, v)),
            Iter::Hashed(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Small(i) => i.size_hint(),
            Iter::Hashed(i) => i.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(i) => i.next_back().map(|(k, v)| (k, v)),
            Iter::Hashed(i) => i.next_back(),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// Owned entries in order.
#[derive(Debug)]
pub enum IntoIter {
    #[doc(hidden)]
    Small(std::vec::IntoIter<(Key, Node)>),
    #[doc(hidden)]
    Hashed(indexmap::map::IntoIter<Key, Node>),
}

impl Iterator for IntoIter {
    type Item = (Key, Node);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            IntoIter::Small(i) => i.next(),
            IntoIter::Hashed(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IntoIter::Small(i) => i.size_hint(),
            IntoIter::Hashed(i) => i.size_hint(),
        }
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            IntoIter::Small(i) => i.next_back(),
            IntoIter::Hashed(i) => i.next_back(),
        }
    }
}

impl ExactSizeIterator for IntoIter {}

impl IntoIterator for Entries {
    type Item = (Key, Node);
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        match self.0 {
            Repr::Small(v) => IntoIter::Small(v.into_iter()),
            Repr::Hashed(m) => IntoIter::Hashed((*m).into_iter()),
        }
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = (&'a Key, &'a Node);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Python `dict(pairs)`: later equal keys overwrite the value, the first key
/// object and place stay.
impl FromIterator<(Key, Node)> for Entries {
    fn from_iter<I: IntoIterator<Item = (Key, Node)>>(iter: I) -> Self {
        let mut e = Entries::default();
        e.extend(iter);
        e
    }
}

impl Extend<(Key, Node)> for Entries {
    fn extend<I: IntoIterator<Item = (Key, Node)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::value::Int;

    fn int(i: i64) -> Node {
        Node::synthetic(Value::Int(Int::Small(i)))
    }

    /// The scanned and the hashed forms answer alike, across the switch.
    #[test]
    fn small_and_hashed_agree() {
        for n in [0, 1, SMALL - 1, SMALL, SMALL + 1, 3 * SMALL] {
            let mut e = Entries::default();
            for i in 0..n {
                e.insert(Key(Node::str(&format!("k{i}"))), int(i as i64));
                // Overwriting keeps the place and the first key object.
                e.insert(Key(Node::str("k0")), int(-1));
            }
            assert_eq!(e.len(), n.max(usize::from(n > 0)));
            for i in 1..n {
                let (pos, _, v) = e.get_full(&Node::str(&format!("k{i}"))).unwrap();
                assert_eq!(pos, i);
                assert!(matches!(v.value(), Value::Int(Int::Small(x)) if *x == i as i64));
                assert!(e.get_str(&format!("k{i}")).is_some());
            }
            if n > 0 {
                assert_eq!(e.get_index_of(&Node::str("k0")), Some(0));
                assert!(e.get_str("k0").is_some());
            }
            assert!(e.get(&Node::str("absent")).is_none());
            let keys: Vec<String> = e.keys().map(|k| k.0.as_str().unwrap().to_owned()).collect();
            let want: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            assert_eq!(keys, want);
            if n > 2 {
                assert!(e.shift_remove(&Node::str("k1")).is_some());
                assert_eq!(e.get_index_of(&Node::str("k2")), Some(1));
            }
        }
    }

    /// `insert_all` builds what inserting each pair in turn builds: unequal
    /// string keys (pushed unscanned), repeated ones, keys of other types,
    /// a full small dict and one past it.
    #[test]
    fn insert_all_is_insert_each() {
        let long = "a key longer than sixteen bytes";
        let key_sets: Vec<Vec<Node>> = vec![
            vec![],
            vec![Node::str("a"), Node::str("b"), Node::str("")],
            vec![Node::str("a"), Node::str("b"), Node::str("a")],
            vec![Node::str(long), Node::str("x"), Node::str(long)],
            vec![Node::str("1"), int(1), Node::str("1")],
            vec![int(1), int(1)],
            (0..SMALL).map(|i| Node::str(&format!("k{i}"))).collect(),
            (0..=SMALL).map(|i| Node::str(&format!("k{i}"))).collect(),
        ];
        for keys in key_sets {
            let pairs: Vec<(Node, Node)> = keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.clone(), int(i as i64)))
                .collect();
            let mut want = Entries::default();
            for (k, v) in pairs.clone() {
                want.insert(Key(k), v);
            }
            let mut got = Entries::default();
            let mut stack = pairs;
            got.insert_all(stack.drain(..));
            let listed = |e: &Entries| -> Vec<(usize, usize)> {
                e.iter().map(|(k, v)| (k.0.id(), v.id())).collect()
            };
            assert_eq!(listed(&got), listed(&want));
        }
    }

    /// A lookup near a hint finds what a scan finds, wherever the hint is.
    #[test]
    fn hinted_lookup_agrees() {
        for n in [3, 3 * SMALL] {
            let mut e = Entries::default();
            for i in 0..n {
                e.insert(Key(Node::str(&format!("k{i}"))), int(i as i64));
            }
            e.insert(Key(int(7)), int(0));
            for probe in [Node::str("k1"), Node::str("k2"), Node::str("x"), int(7)] {
                let want = e.get_index_of(&probe);
                for hint in 0..n + 3 {
                    assert_eq!(e.get_index_of_near(&probe, hint), want);
                }
            }
        }
    }

    /// `1`, `1.0` and `True` are one key in both forms.
    #[test]
    fn python_equality_in_both_forms() {
        for pad in [0, SMALL] {
            let mut e = Entries::default();
            for i in 0..pad {
                e.insert(Key(Node::str(&format!("p{i}"))), int(0));
            }
            e.insert(Key(int(1)), int(10));
            e.insert(Key(Node::synthetic(Value::Float(1.0))), int(11));
            e.insert(Key(Node::synthetic(Value::Bool(true))), int(12));
            assert_eq!(e.len(), pad + 1);
            let (_, k, v) = e.get_full(&Node::synthetic(Value::Bool(true))).unwrap();
            assert!(matches!(k.0.value(), Value::Int(_)));
            assert!(matches!(v.value(), Value::Int(Int::Small(12))));
        }
    }
}
