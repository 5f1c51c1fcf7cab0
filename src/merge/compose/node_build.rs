//! `node_build`: small constructors for the nodes canonicalisation writes, spanned where they came from.

use crate::source::Span;
use crate::yaml::value::{Entries, Int, Map, Node, Seq, Value, insert};

/// A string node.
pub(super) fn text(s: &str, span: Span) -> Node {
    Node::new(Value::Str(s.into()), span)
}

/// An integer node.
pub(super) fn int(i: i64, span: Span) -> Node {
    Node::new(Value::Int(Int::from(i)), span)
}

/// A boolean node.
pub(super) fn boolean(b: bool, span: Span) -> Node {
    Node::new(Value::Bool(b), span)
}

/// A mapping node with string keys, in this order.
pub(super) fn map(entries: Vec<(&str, Node)>, span: Span) -> Node {
    let mut e = Entries::with_capacity(entries.len());
    for (k, v) in entries {
        insert(&mut e, text(k, v.span()), v);
    }
    Node::new(Value::Map(Map::new(e)), span)
}

/// A mapping node from entries.
pub(super) fn map_of(entries: Entries, span: Span) -> Node {
    Node::new(Value::Map(Map::new(entries)), span)
}

/// A sequence node.
pub(super) fn seq(items: Vec<Node>, span: Span) -> Node {
    Node::new(Value::Seq(Seq::new(items)), span)
}
