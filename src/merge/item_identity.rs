//! `ItemIdentity`: how a dialect finds a list item's identity for `ListMode::ByIdentity`, borrowed from the item where it can be.

use super::Hashed;
use crate::yaml::value::{Key, Node};
use std::borrow::Cow;

/// The identities of the items of one list (the rule worked out once for
/// the list): items with equal identities (as dict keys are equal) merge.
pub trait ItemIdentity {
    /// The identity of `item`, if it has one: a node of it (or `item`
    /// itself) borrowed, or one built from it.
    fn of<'n>(&self, item: &'n Node) -> Option<Cow<'n, Node>>;

    /// Whether `a` and `b` both have identities, and equal ones.
    fn same(&self, a: &Node, b: &Node) -> bool {
        match (self.of(a), self.of(b)) {
            (Some(x), Some(y)) => Key::eq_nodes(&x, &y),
            _ => false,
        }
    }

    /// An empty table for the identities' hashes, with room for `n`.
    fn table(&self, n: usize) -> Hashed {
        Hashed::with_capacity(n)
    }

    /// Adds the hashed identities of `list`'s items to `into` (a
    /// [`ItemIdentity::table`]), their places moved up by `offset`, when
    /// they are known already; `false` when they are not (nothing added).
    fn extend_known(&self, list: &Node, into: &mut Hashed, offset: u32) -> bool {
        let _ = (list, into, offset);
        false
    }
}
