//! `PriorityLedger` and `Conflict`: what the symmetric dialects remember across one fold — priorities of values, and conflicts a higher priority may still erase.

use super::{Path, Precedence, Priority};
use crate::yaml::value::{Node, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Two values that cannot merge, and where they met.
#[derive(Clone, Debug)]
pub struct Conflict {
    /// The logical path (`$.a.b`).
    pub path: String,
    /// The value from the earlier layers.
    pub old: Node,
    /// The value from the layer being merged.
    pub new: Node,
}

/// Priorities of the values in a fold, and its deferred conflicts.
///
/// Nickel's merge is lazy: `(1 & 2) & (3 | force)` is `3`, the conflict
/// between `1` and `2` is erased before anyone looks at it. A pairwise fold
/// gets the same answer by letting a conflict stand as a placeholder value
/// (with the priority of the pair) and failing only if a placeholder is
/// still in the result.
#[derive(Debug, Default)]
pub struct PriorityLedger {
    explicit: HashMap<usize, Priority>,
    // The nodes are kept alive so their ids stay unique.
    merged: RefCell<HashMap<usize, (Node, Priority)>>,
    conflicts: RefCell<HashMap<usize, (Node, Conflict)>>,
}

impl PriorityLedger {
    /// An empty ledger.
    pub fn new() -> PriorityLedger {
        PriorityLedger::default()
    }

    /// `node` (a value of an input layer) has priority `p`.
    pub fn set(&mut self, node: &Node, p: Priority) {
        self.explicit.insert(node.id(), p);
    }

    /// The priority of a value: its tag's, or the one it was merged at, or 0.
    pub fn priority(&self, node: &Node) -> Priority {
        if let Some(p) = self.explicit.get(&node.id()) {
            return p.clone();
        }
        if let Some((_, p)) = self.merged.borrow().get(&node.id()) {
            return p.clone();
        }
        Priority::neutral()
    }

    /// The higher priority erases the lower; equal ones merge.
    pub fn precedence(&self, old: &Node, new: &Node) -> Precedence {
        match self.priority(old).cmp(&self.priority(new)) {
            std::cmp::Ordering::Greater => Precedence::Old,
            std::cmp::Ordering::Less => Precedence::New,
            std::cmp::Ordering::Equal => Precedence::Merge,
        }
    }

    /// `merged` came from values of equal priority: it has theirs.
    pub fn record_merged(&self, new: &Node, merged: &Node) {
        if self.explicit.contains_key(&merged.id()) {
            return;
        }
        let p = self.priority(new);
        // A neutral priority is what an unrecorded node has: not recorded
        // (unless this node was, with another), so the merged value is not
        // held here too, and the next layer can merge into it in place. (A
        // recorded node is held, so no new node can have its id.)
        if p == Priority::neutral() && !self.merged.borrow().contains_key(&merged.id()) {
            return;
        }
        self.merged
            .borrow_mut()
            .insert(merged.id(), (merged.clone(), p));
    }

    /// A placeholder standing for the conflict of `old` and `new` at `path`
    /// (an existing placeholder stays: the first conflict is the one reported).
    pub fn defer(&self, path: &Path, old: &Node, new: &Node) -> Node {
        if self.is_placeholder(old) {
            return old.clone();
        }
        let hole = Node::new(Value::Null, old.span());
        let conflict = Conflict {
            path: path.to_string(),
            old: old.clone(),
            new: new.clone(),
        };
        self.conflicts
            .borrow_mut()
            .insert(hole.id(), (hole.clone(), conflict));
        hole
    }

    /// Whether `node` stands for a conflict.
    pub fn is_placeholder(&self, node: &Node) -> bool {
        self.conflicts.borrow().contains_key(&node.id())
    }

    /// The conflicts still standing in `root`, in document order.
    pub fn surviving(&self, root: &Node) -> Vec<Conflict> {
        let conflicts = self.conflicts.borrow();
        if conflicts.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![root.clone()];
        while let Some(n) = stack.pop() {
            if !seen.insert(n.id()) {
                continue;
            }
            if let Some((_, c)) = conflicts.get(&n.id()) {
                out.push(c.clone());
                continue;
            }
            match n.value() {
                Value::Map(m) => stack.extend(m.iter().rev().map(|(_, v)| v.clone())),
                Value::Seq(s) | Value::Tuple(s) => stack.extend(s.iter().rev().cloned()),
                _ => {}
            }
        }
        out
    }
}
