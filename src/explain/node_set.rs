//! `NodeSet`: the nodes of the merged parts' data, by identity, asked about in walk order.

use crate::yaml::Node;
use crate::yaml::value::Value;
use std::collections::HashSet;

/// Node identities are `Arc` addresses; two live nodes are distinct
/// allocations of more than 16 bytes each (a count and the node), so their
/// addresses differ by more than 16 and `address >> 4` tells them apart.
const GRAIN: u32 = 4;

/// A set of nodes by identity. Nodes a part's loader made sit close together
/// in memory, in document order, so the set is a bitmap over their address
/// range, which the explain walk reads almost in order; a hash set of a
/// million addresses costs a cache miss per lookup. Addresses spread wider
/// than the bitmap's budget fall back to the hash set.
#[derive(Clone, Debug)]
pub(crate) enum NodeSet {
    /// Bit `(address - base) >> GRAIN` is set for each member.
    Bits { base: usize, words: Vec<u64> },
    /// Members' addresses.
    Hashed(HashSet<usize, foldhash::fast::FixedState>),
}

impl NodeSet {
    /// Every node reachable from `roots` (a shared container is walked once).
    /// Two walks, the first for the address range, the second setting the
    /// members: no list of every member's address is held, and only
    /// containers are stacked (a huge list's items were each an address and
    /// a stack entry, fresh memory beside the tree itself).
    pub(crate) fn reachable<'a>(roots: impl IntoIterator<Item = &'a Node>) -> NodeSet {
        let roots: Vec<&Node> = roots.into_iter().collect();
        let (mut min, mut max, mut count) = (usize::MAX, 0usize, 0usize);
        let mut containers: HashSet<usize, foldhash::fast::FixedState> = HashSet::default();
        walk(&roots, |n| {
            let id = n.id();
            (min, max, count) = (min.min(id), max.max(id), count + 1);
            is_container(n) && containers.insert(id)
        });
        drop(containers);
        let mut set = NodeSet::empty((count > 0).then_some((min, max)), count);
        walk(&roots, |n| set.insert(n.id()) && is_container(n));
        set
    }

    /// Members' addresses, as a set.
    #[cfg(test)]
    fn of_ids(ids: Vec<usize>) -> NodeSet {
        let range = ids.iter().min().zip(ids.iter().max());
        let mut set = NodeSet::empty(range.map(|(a, b)| (*a, *b)), ids.len());
        for id in ids {
            set.insert(id);
        }
        set
    }

    /// An empty set for `count` addresses (repeats counted) within `range`.
    fn empty(range: Option<(usize, usize)>, count: usize) -> NodeSet {
        let Some((min, max)) = range else {
            return NodeSet::Hashed(HashSet::default());
        };
        let words = ((max - min) >> GRAIN) / 64 + 1;
        // At most a word per member: never more memory than the hash set.
        if words > count.max(1024) {
            return NodeSet::Hashed(HashSet::default());
        }
        NodeSet::Bits {
            base: min,
            words: vec![0u64; words],
        }
    }

    /// Adds an address within the set's range; whether it was new.
    fn insert(&mut self, id: usize) -> bool {
        match self {
            NodeSet::Bits { base, words } => {
                let bit = id.wrapping_sub(*base) >> GRAIN;
                let Some(w) = words.get_mut(bit / 64) else {
                    return false;
                };
                let new = *w & (1 << (bit % 64)) == 0;
                *w |= 1 << (bit % 64);
                new
            }
            NodeSet::Hashed(set) => set.insert(id),
        }
    }

    /// Whether `n` itself (not an equal node) is a member.
    pub(crate) fn contains(&self, n: &Node) -> bool {
        self.contains_id(n.id())
    }

    /// Whether the address `id` is a member's.
    fn contains_id(&self, id: usize) -> bool {
        match self {
            NodeSet::Bits { base, words } => id.checked_sub(*base).is_some_and(|d| {
                let bit = d >> GRAIN;
                words
                    .get(bit / 64)
                    .is_some_and(|w| w & (1 << (bit % 64)) != 0)
            }),
            NodeSet::Hashed(set) => set.contains(&id),
        }
    }
}

/// Whether `n` is a map, list, tuple or set (a node the walk descends into).
fn is_container(n: &Node) -> bool {
    matches!(
        n.value(),
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_)
    )
}

/// Calls `first` on every node reachable from `roots`, at every place it
/// occurs, and walks into a container when `first` says it is one not yet
/// walked. Only containers are stacked.
fn walk<'a>(roots: &[&'a Node], mut first: impl FnMut(&'a Node) -> bool) {
    let mut stack: Vec<&'a Node> = Vec::new();
    let mut take = |n: &'a Node, stack: &mut Vec<&'a Node>| {
        if first(n) {
            stack.push(n);
        }
    };
    for r in roots {
        take(r, &mut stack);
    }
    while let Some(n) = stack.pop() {
        match n.value() {
            Value::Seq(s) | Value::Tuple(s) => {
                for i in s.iter() {
                    take(i, &mut stack);
                }
            }
            Value::Map(m) | Value::Set(m) => {
                for (k, v) in m.iter() {
                    take(k, &mut stack);
                    take(v, &mut stack);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::yaml::{LoadOptions, load};

    /// Every node of a document, each walked from the root.
    fn nodes(doc: &Node) -> Vec<Node> {
        let (mut out, mut stack) = (Vec::new(), vec![doc.clone()]);
        while let Some(n) = stack.pop() {
            match n.value() {
                Value::Seq(s) => stack.extend(s.iter().cloned()),
                Value::Map(m) => {
                    for (k, v) in m.iter() {
                        stack.push(k.clone());
                        stack.push(v.clone());
                    }
                }
                _ => {}
            }
            out.push(n);
        }
        out
    }

    /// Members are the loaded nodes themselves, shared (aliased) ones too;
    /// equal nodes of another load, and nodes built elsewhere, are not.
    #[test]
    fn members_are_the_nodes_themselves() {
        let text = "a: &x [1, 2, {k: v}]\nb: *x\nc: [x, y, z]\nd: {}\n";
        let doc = load(text, &LoadOptions::default()).unwrap().unwrap();
        let other = load(text, &LoadOptions::default()).unwrap().unwrap();
        // Either form: where the test allocator puts a node (a chunk another
        // test's thread freed, far from the rest) decides which; the bitmap
        // itself is tested on addresses chosen below.
        let set = NodeSet::reachable([&doc]);
        let mine = nodes(&doc);
        assert_eq!(mine.len(), 22);
        assert!(mine.iter().all(|n| set.contains(n)));
        assert!(nodes(&other).iter().all(|n| !set.contains(n)));
        assert!(!set.contains(&Node::str("x")));
        for empty in [
            NodeSet::of_ids(Vec::new()),
            NodeSet::of_ids(vec![usize::MAX - 1]),
        ] {
            assert!(mine.iter().all(|n| !empty.contains(n)));
        }
    }

    /// Addresses close together are a bitmap, one bit per 16 bytes: members
    /// are found, the addresses between and around them are not.
    #[test]
    fn close_addresses_are_a_bitmap() {
        let base = 0x7f00_0000_0000usize;
        let members: Vec<usize> = (0..3000).map(|i| base + 64 * i + 16 * (i % 3)).collect();
        let set = NodeSet::of_ids(members.clone());
        assert!(matches!(set, NodeSet::Bits { .. }));
        assert!(members.iter().all(|&id| set.contains_id(id)));
        let last = members.last().copied().unwrap();
        for id in [
            base - 16,
            base + 16,
            base + 32,
            base + 48,
            last + 16,
            last + 64 * 64,
        ] {
            assert!(!set.contains_id(id), "{id:#x}");
        }
        let hashed = NodeSet::Hashed(members.iter().copied().collect());
        for id in (base - 128..last + 128).step_by(16) {
            assert_eq!(set.contains_id(id), hashed.contains_id(id), "{id:#x}");
        }
    }

    /// Addresses spread wider than a word per member are hashed; both forms
    /// answer alike.
    #[test]
    fn spread_addresses_are_hashed() {
        let docs: Vec<Node> = (0..50)
            .map(|i| {
                load(&format!("k{i}: [v{i}]\n"), &LoadOptions::default())
                    .unwrap()
                    .unwrap()
            })
            .collect();
        let set = NodeSet::reachable(docs.iter());
        let mut ids = Vec::new();
        let spread = NodeSet::of_ids(vec![16, 16 << 30]);
        assert!(matches!(spread, NodeSet::Hashed(_)));
        for d in &docs {
            ids.push(d.id());
            assert!(set.contains(d));
        }
        let hashed = NodeSet::Hashed(ids.iter().copied().collect());
        for d in &docs {
            assert_eq!(set.contains(d), hashed.contains(d));
        }
    }
}
