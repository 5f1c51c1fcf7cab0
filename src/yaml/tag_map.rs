//! `TagMap`: the local tags (`!reset`, `!priority:10`) a document carried, by node.

use super::value::Node;
use std::collections::HashMap;

/// One kept local tag.
#[derive(Debug, Clone)]
pub struct LocalTag {
    /// The tag as written, with its `!` (`!priority:-1.5`).
    pub tag: Box<str>,
    /// For a scalar, its text as written (after escapes), whatever the
    /// node resolved to: Compose reads `!override true` as the string
    /// `"true"`, Nickel reads `!default 3` as the number.
    pub scalar_text: Option<Box<str>>,
}

/// Local tags by node identity, from [`super::load_tagged`].
///
/// Holds a clone of each tagged node, so identities stay valid for as long
/// as the map lives.
#[derive(Debug, Clone, Default)]
pub struct TagMap {
    by_id: HashMap<usize, (Node, LocalTag)>,
}

impl TagMap {
    /// Record `tag` on `node`.
    pub fn insert(&mut self, node: Node, tag: LocalTag) {
        self.by_id.insert(node.id(), (node, tag));
    }

    /// The local tag written on this very node (not on an equal one).
    pub fn get(&self, node: &Node) -> Option<&LocalTag> {
        self.by_id
            .get(&node.id())
            .filter(|(n, _)| Node::ptr_eq(n, node))
            .map(|(_, t)| t)
    }

    /// The tag text on this node, if any.
    pub fn tag(&self, node: &Node) -> Option<&str> {
        self.get(node).map(|t| &*t.tag)
    }

    /// Whether no node carries a tag.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// Number of tagged nodes.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    /// Every tagged node with its tag, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Node, &LocalTag)> {
        self.by_id.values().map(|(n, t)| (n, t))
    }
}
