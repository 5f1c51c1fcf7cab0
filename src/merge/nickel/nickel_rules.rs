//! `NickelRules`: Nickel's merge as an engine table — symmetric records, unify everything else, priorities from the ledger.

use super::nickel_eq;
use crate::merge::{
    DictMode, DictStrategy, MergeError, Path, Precedence, PriorityLedger, Recurse, Rules, Strategy,
    UnifyStrategy,
};
use crate::yaml::value::Node;

const RECORD: Strategy = Strategy::Dict(DictStrategy {
    mode: DictMode::Symmetric,
    allow_delete: false,
    recurse: Recurse {
        dict: true,
        list: true,
        str: true,
    },
});
const UNIFY: Strategy = Strategy::Unify(UnifyStrategy {});

/// The `nickel` dialect's table. Conflicts are deferred to the ledger (a
/// higher priority from a later layer may still erase them).
#[derive(Debug)]
pub struct NickelRules<'a> {
    ledger: &'a PriorityLedger,
}

impl<'a> NickelRules<'a> {
    /// Rules reading priorities from (and deferring conflicts to) `ledger`.
    pub fn new(ledger: &'a PriorityLedger) -> Self {
        NickelRules { ledger }
    }
}

impl Rules for NickelRules<'_> {
    fn strategy_for(&self, _path: &Path, old: &Node) -> Option<&Strategy> {
        if old.as_map().is_some() && !self.ledger.is_placeholder(old) {
            Some(&RECORD)
        } else {
            Some(&UNIFY)
        }
    }

    fn uses_path(&self) -> bool {
        true
    }

    fn precedence(&self, _path: &Path, old: Option<&Node>, new: &Node) -> Precedence {
        old.map_or(Precedence::Merge, |o| self.ledger.precedence(o, new))
    }

    fn merged(&self, new: &Node, merged: &Node) {
        self.ledger.record_merged(new, merged);
    }

    fn equal(&self, a: &Node, b: &Node) -> bool {
        !self.ledger.is_placeholder(a) && !self.ledger.is_placeholder(b) && nickel_eq(a, b)
    }

    fn conflict(&self, path: &Path, old: &Node, new: &Node) -> Result<Node, MergeError> {
        Ok(self.ledger.defer(path, old, new))
    }
}
