//! `NodeSet`: the nodes of the merged parts' data, by identity, asked about in walk order.

use crate::yaml::Node;
use crate::yaml::value::Value;
use std::collections::HashSet;

/// Node identities are `Arc` addresses; two live nodes are distinct
/// allocations holding two counters each, so their addresses differ by more
/// than 16 and `address >> 4` tells them apart.
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
    pub(crate) fn reachable<'a>(roots: impl IntoIterator<Item = &'a Node>) -> NodeSet {
        let mut ids = Vec::new();
        let mut containers: HashSet<usize, foldhash::fast::FixedState> = HashSet::default();
        let mut stack: Vec<&Node> = roots.into_iter().collect();
        while let Some(n) = stack.pop() {
            match n.value() {
                Value::Seq(s) | Value::Tuple(s) if containers.insert(n.id()) => {
                    stack.extend(s.iter());
                }
                Value::Map(m) | Value::Set(m) if containers.insert(n.id()) => {
                    for (k, v) in m.iter() {
                        stack.push(k);
                        stack.push(v);
                    }
                }
                _ => {}
            }
            ids.push(n.id());
        }
        NodeSet::of_ids(ids)
    }

    fn of_ids(ids: Vec<usize>) -> NodeSet {
        let (Some(&min), Some(&max)) = (ids.iter().min(), ids.iter().max()) else {
            return NodeSet::Hashed(HashSet::default());
        };
        let words = ((max - min) >> GRAIN) / 64 + 1;
        // At most a word per member: never more memory than the hash set.
        if words > ids.len().max(1024) {
            return NodeSet::Hashed(ids.into_iter().collect());
        }
        let mut bits = vec![0u64; words];
        for id in ids {
            let bit = (id - min) >> GRAIN;
            if let Some(w) = bits.get_mut(bit / 64) {
                *w |= 1 << (bit % 64);
            }
        }
        NodeSet::Bits {
            base: min,
            words: bits,
        }
    }

    /// Whether `n` itself (not an equal node) is a member.
    pub(crate) fn contains(&self, n: &Node) -> bool {
        let id = n.id();
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
        let set = NodeSet::reachable([&doc]);
        assert!(matches!(set, NodeSet::Bits { .. }));
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
