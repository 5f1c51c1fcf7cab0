//! `KeyedRules`: the keyed cloud-config dialect as an engine table — symmetric mappings, lists by the identity table, unify scalars.

use super::{Directive, IdentityHashes, ListRule, keyed_eq, rule_for};
use crate::merge::{
    DictMode, DictStrategy, ItemIdentity, ListMode, ListStrategy, MergeError, Path, Precedence,
    PriorityLedger, Recurse, Rules, Strategy, UnifyStrategy,
};
use crate::yaml::value::{Node, Seq, Value};
use std::borrow::Cow;
use std::collections::HashMap;

const ALL: Recurse = Recurse {
    dict: true,
    list: true,
    str: true,
};
const MAPPING: Strategy = Strategy::Dict(DictStrategy {
    mode: DictMode::Symmetric,
    allow_delete: false,
    recurse: ALL,
});
const APPEND: Strategy = Strategy::List(ListStrategy {
    mode: ListMode::ByIdentity { dedupe: false },
    recurse: ALL,
});
const UNION: Strategy = Strategy::List(ListStrategy {
    mode: ListMode::ByIdentity { dedupe: true },
    recurse: ALL,
});
const UNIFY: Strategy = Strategy::Unify(UnifyStrategy {});

/// The identity of a list item under `rule`, if it has one: borrowed from
/// the item, except a tuple of several keys' values.
pub fn identity_of(rule: ListRule, item: &Node) -> Option<Cow<'_, Node>> {
    match (rule, item.value()) {
        (ListRule::ByKey([key]), Value::Map(m)) => m.get_str(key).map(Cow::Borrowed),
        (ListRule::ByKey(keys), Value::Map(m)) => {
            if !keys.iter().any(|k| m.get_str(k).is_some()) {
                return None;
            }
            let parts = keys
                .iter()
                .map(|k| {
                    m.get_str(k)
                        .cloned()
                        .unwrap_or_else(|| Node::synthetic(Value::Null))
                })
                .collect();
            Some(Cow::Owned(Node::synthetic(Value::Tuple(Seq::new(parts)))))
        }
        (ListRule::ByIndex(i), Value::Seq(s)) => s.items().get(i).map(Cow::Borrowed),
        (ListRule::ByUserName, Value::Str(_)) => Some(Cow::Borrowed(item)),
        (ListRule::ByUserName, Value::Map(m)) => m.get_str("name").map(Cow::Borrowed),
        (ListRule::ByPackageName, Value::Str(_)) => Some(Cow::Borrowed(item)),
        (ListRule::ByPackageName, Value::Seq(s)) => s.items().first().map(Cow::Borrowed),
        (ListRule::ByGroupName, Value::Str(_)) => Some(Cow::Borrowed(item)),
        (ListRule::ByGroupName, Value::Map(m)) if m.len() == 1 => {
            m.keys().next().map(Cow::Borrowed)
        }
        _ => None,
    }
    // Only hashable identities can be looked up.
    .filter(|id| id.value().is_hashable())
}

impl ItemIdentity for ListRule {
    fn of<'n>(&self, item: &'n Node) -> Option<Cow<'n, Node>> {
        identity_of(*self, item)
    }
}

/// The keyed cloud-config dialect's table. Conflicts are deferred to the
/// ledger (a higher priority may still erase them).
#[derive(Debug)]
pub struct KeyedRules<'a> {
    ledger: &'a PriorityLedger,
    directives: &'a HashMap<usize, Directive>,
    hashes: &'a IdentityHashes,
}

impl<'a> KeyedRules<'a> {
    /// Rules reading priorities from `ledger`, `!override`/`!reset` from
    /// `directives` (by node id), and the identities' hashes the normaliser
    /// kept from `hashes`.
    pub fn new(
        ledger: &'a PriorityLedger,
        directives: &'a HashMap<usize, Directive>,
        hashes: &'a IdentityHashes,
    ) -> Self {
        KeyedRules {
            ledger,
            directives,
            hashes,
        }
    }
}

impl Rules for KeyedRules<'_> {
    fn strategy_for(&self, path: &Path, old: &Node) -> Option<&Strategy> {
        if self.ledger.is_placeholder(old) {
            return Some(&UNIFY);
        }
        Some(match old.value() {
            Value::Map(_) => &MAPPING,
            Value::Seq(_) => match rule_for(path) {
                ListRule::Append => &APPEND,
                ListRule::Atomic => &UNIFY,
                _ => &UNION,
            },
            _ => &UNIFY,
        })
    }

    fn uses_path(&self) -> bool {
        true
    }

    fn precedence(&self, _path: &Path, old: Option<&Node>, new: &Node) -> Precedence {
        match self.directives.get(&new.id()) {
            Some(Directive::Reset) => Precedence::Drop,
            Some(Directive::Override) => Precedence::New,
            _ => old.map_or(Precedence::Merge, |o| self.ledger.precedence(o, new)),
        }
    }

    fn merged(&self, new: &Node, merged: &Node) {
        self.ledger.record_merged(new, merged);
    }

    fn equal(&self, a: &Node, b: &Node) -> bool {
        !self.ledger.is_placeholder(a) && !self.ledger.is_placeholder(b) && keyed_eq(a, b)
    }

    fn item_identity(&self, path: &Path) -> Option<Box<dyn ItemIdentity + '_>> {
        Some(Box::new(self.hashes.of_rule(rule_for(path))))
    }

    fn conflict(&self, path: &Path, old: &Node, new: &Node) -> Result<Node, MergeError> {
        Ok(self.ledger.defer(path, old, new))
    }
}
