//! `TagLookup`: the local YAML tags (`!force`, `!priority:10`, …) the loader kept, by node identity.

use crate::yaml::value::Node;
use std::collections::HashMap;

/// Which local tag, if any, a node was written with. The symmetric
/// dialects read priorities and directives from it.
pub trait TagLookup {
    /// The tag text as written (`!force`), if any.
    fn tag_of(&self, node: &Node) -> Option<&str>;
}

/// No tags at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTags;

impl TagLookup for NoTags {
    fn tag_of(&self, _node: &Node) -> Option<&str> {
        None
    }
}

/// Tags by [`Node::id`].
impl TagLookup for HashMap<usize, String> {
    fn tag_of(&self, node: &Node) -> Option<&str> {
        self.get(&node.id()).map(String::as_str)
    }
}

impl<T: TagLookup + ?Sized> TagLookup for &T {
    fn tag_of(&self, node: &Node) -> Option<&str> {
        (**self).tag_of(node)
    }
}

/// The tags [`crate::yaml::load_tagged`] kept.
impl TagLookup for crate::yaml::TagMap {
    fn tag_of(&self, node: &Node) -> Option<&str> {
        self.tag(node)
    }
}

/// The tags of several documents (each node belongs to one of them).
impl TagLookup for [crate::yaml::TagMap] {
    fn tag_of(&self, node: &Node) -> Option<&str> {
        self.iter().find_map(|t| t.tag(node))
    }
}

impl TagLookup for Vec<crate::yaml::TagMap> {
    fn tag_of(&self, node: &Node) -> Option<&str> {
        self.as_slice().tag_of(node)
    }
}
