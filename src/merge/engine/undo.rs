//! Undoing an owned merge: how its in-place edits are rolled back, so an error hands `old` back as it was.

use crate::merge::MergeError;
use crate::yaml::value::{Entries, Map, Node, Seq, Value};

/// An owned merge's result and how to undo it, or the error and `old` restored.
pub(super) type Owned = Result<(Node, Undo), (MergeError, Node)>;

/// How to turn an owned merge's result back into its `old`.
pub(super) enum Undo {
    /// `old` was left intact; here it is.
    Restore(Node),
    /// A list extended in place: cut it back to this length.
    Truncate(usize),
    /// A map edited in place: undo these slots (values merged or replaced at
    /// these positions), then drop the keys added past `len`.
    Dict {
        len: usize,
        slots: Vec<(usize, Undo)>,
    },
}

/// Undo `u` on `node` (built by the owned merge, so referenced only here).
fn undo(node: Node, u: Undo) -> Node {
    match u {
        Undo::Restore(old) => old,
        Undo::Truncate(len) => {
            let span = node.span();
            match node.try_into_value() {
                Ok(Value::Seq(seq)) => {
                    let mut items = seq.into_items();
                    items.truncate(len);
                    Node::new(Value::Seq(Seq::new(items)), span)
                }
                Ok(other) => Node::new(other, span),
                Err(shared) => shared,
            }
        }
        Undo::Dict { len, slots } => {
            let span = node.span();
            match node.try_into_value() {
                Ok(Value::Map(m)) => rollback(m.into_entries(), len, slots, span),
                Ok(other) => Node::new(other, span),
                Err(shared) => shared,
            }
        }
    }
}

/// A map's entries back as they were before an owned merge edited them.
fn rollback(
    mut entries: Entries,
    len: usize,
    slots: Vec<(usize, Undo)>,
    span: crate::source::Span,
) -> Node {
    rollback_entries(&mut entries, len, slots);
    Node::new(Value::Map(Map::new(entries)), span)
}

/// [`rollback`] in place.
pub(super) fn rollback_entries(entries: &mut Entries, len: usize, slots: Vec<(usize, Undo)>) {
    for (i, u) in slots.into_iter().rev() {
        if let Some((_, slot)) = entries.get_index_mut(i) {
            let cur = std::mem::replace(slot, Node::synthetic(Value::Null));
            *slot = undo(cur, u);
        }
    }
    entries.truncate(len);
}
