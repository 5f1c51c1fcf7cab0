//! `IdentityHashes`: the normaliser's hashes of its long lists' identities, kept for the merge that reads the same lists again.

use super::{ListRule, identity_of};
use crate::merge::{Hashed, ItemIdentity};
use crate::yaml::value::Node;
use std::borrow::Cow;
use std::collections::HashMap;

/// Lists shorter than this are hashed again rather than kept.
const KEPT_FROM: usize = 64;

/// Hashed identities by list node (each list held, so its id stays its
/// own) and the rule they were found by (an aliased list can sit under
/// two), all hashed with one state.
#[derive(Debug, Default)]
pub struct IdentityHashes {
    state: foldhash::fast::RandomState,
    lists: HashMap<usize, (Node, ListRule, Hashed)>,
}

impl IdentityHashes {
    /// An empty table with this state, room for `n`.
    pub fn table(&self, n: usize) -> Hashed {
        Hashed::with_state(self.state.clone(), n)
    }

    /// Keeps `hashed` (made by [`IdentityHashes::table`]) as the identities
    /// of `list`'s items under `rule`, if the list is long enough to be
    /// worth it.
    pub fn keep(&mut self, list: &Node, rule: ListRule, hashed: Hashed) {
        if hashed.len() >= KEPT_FROM {
            self.lists.insert(list.id(), (list.clone(), rule, hashed));
        }
    }

    /// The identities of `rule`'s lists, with these hashes where known.
    pub fn of_rule(&self, rule: ListRule) -> KnownIdentities<'_> {
        KnownIdentities { rule, known: self }
    }
}

/// A list rule's identities, with the hashes the normaliser kept.
#[derive(Debug)]
pub struct KnownIdentities<'a> {
    rule: ListRule,
    known: &'a IdentityHashes,
}

impl ItemIdentity for KnownIdentities<'_> {
    fn of<'n>(&self, item: &'n Node) -> Option<Cow<'n, Node>> {
        identity_of(self.rule, item)
    }

    fn table(&self, n: usize) -> Hashed {
        self.known.table(n)
    }

    fn extend_known(&self, list: &Node, into: &mut Hashed, offset: u32) -> bool {
        match self.known.lists.get(&list.id()) {
            Some((_, rule, hashed)) if *rule == self.rule => {
                into.extend_from(hashed, offset);
                true
            }
            _ => false,
        }
    }
}
