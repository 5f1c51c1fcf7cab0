//! Folding layers with the `nickel` dialect: tag checks, the fold, deferred conflicts, number export.

use super::{NickelRules, nickel_number};
use crate::merge::SymmetricError;
use crate::merge::{
    Limits, MAX_LEVELS, MergeObserver, Priority, PriorityLedger, TagLookup, merge_owned_with,
};
use crate::yaml::value::{Entries, Int, Map, Node, Seq, Value};
use std::collections::HashSet;

/// Where a value sits: only mapping values are Nickel fields, the only
/// places a priority can be written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Root,
    Field,
    Item,
}

/// Check one layer (every value representable in Nickel, no cycles, every
/// tag a priority on a field) and record its priorities in `ledger`.
pub fn check_layer(
    root: &Node,
    tags: &dyn TagLookup,
    ledger: &mut PriorityLedger,
) -> Result<(), SymmetricError> {
    let mut open = HashSet::new();
    check(root, Slot::Root, tags, ledger, &mut open, 0)
}

fn check(
    n: &Node,
    slot: Slot,
    tags: &dyn TagLookup,
    ledger: &mut PriorityLedger,
    open: &mut HashSet<usize>,
    depth: usize,
) -> Result<(), SymmetricError> {
    let bad = |what: &str| SymmetricError::Unrepresentable {
        what: what.to_string(),
        span: n.span(),
    };
    if depth >= MAX_LEVELS {
        return Err(bad("nesting this deep"));
    }
    if let Some(tag) = tags.tag_of(n) {
        let Some(p) = Priority::from_tag(tag) else {
            return Err(SymmetricError::Tag {
                tag: tag.to_string(),
                span: n.span(),
                reason: "not a Nickel priority (use !default, !force or !priority:N)",
            });
        };
        if slot != Slot::Field {
            return Err(SymmetricError::Tag {
                tag: tag.to_string(),
                span: n.span(),
                reason: "a priority belongs on a mapping value (a Nickel field)",
            });
        }
        ledger.set(n, p);
    }
    match n.value() {
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Str(_) => Ok(()),
        Value::Float(_) if nickel_number(n).is_some() => Ok(()),
        Value::Float(_) => Err(bad("a non-finite float")),
        Value::Bytes(_) => Err(bad("binary data")),
        Value::Date(_) | Value::DateTime(_) => Err(bad("a timestamp")),
        Value::Set(_) => Err(bad("a set")),
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) => {
            if !open.insert(n.id()) {
                return Err(bad("a recursive alias"));
            }
            if let Some(s) = n.as_seq() {
                for v in s.iter() {
                    check(v, Slot::Item, tags, ledger, open, depth + 1)?;
                }
            }
            if let Some(m) = n.as_map() {
                for (k, v) in m.iter() {
                    if k.as_str().is_none() {
                        return Err(SymmetricError::Unrepresentable {
                            what: format!("a {} key", k.type_name()),
                            span: k.span(),
                        });
                    }
                    if let Some(tag) = tags.tag_of(k) {
                        return Err(SymmetricError::Tag {
                            tag: tag.to_string(),
                            span: k.span(),
                            reason: "a priority belongs on the value, not the key",
                        });
                    }
                    check(v, Slot::Field, tags, ledger, open, depth + 1)?;
                }
            }
            open.remove(&n.id());
            Ok(())
        }
    }
}

/// `layers[0] & layers[1] & …` (later layers listed later; the merge is
/// symmetric, so order only matters for the order of keys). An empty list
/// gives an empty mapping.
pub fn merge_layers(
    layers: &[Node],
    tags: &dyn TagLookup,
    observer: &mut dyn MergeObserver,
) -> Result<Node, SymmetricError> {
    let mut ledger = PriorityLedger::new();
    for l in layers {
        check_layer(l, tags, &mut ledger)?;
    }
    let rules = NickelRules::new(&ledger);
    // Nickel has no Python frames to model: only the engine's own depth cap.
    let limits = Limits {
        python_frames: usize::MAX,
        ..Limits::default()
    };
    let mut it = layers.iter();
    let Some(first) = it.next() else {
        return Ok(Node::synthetic(Value::Map(Map::new(Entries::default()))));
    };
    let mut acc = first.clone();
    // Merged in place: each layer costs its own keys, not the record so far.
    for l in it {
        acc = merge_owned_with(&rules, acc, l, &limits, observer)
            .map_err(|(e, _)| SymmetricError::Merge(e))?;
    }
    if let Some(c) = ledger.surviving(&acc).into_iter().next() {
        return Err(SymmetricError::NonMergeable(c));
    }
    Ok(export_numbers(&acc))
}

/// Numbers as `nickel export` writes them: an integral float becomes an
/// integer (`1.0` → `1`); the rest is unchanged (spans kept).
pub fn export_numbers(node: &Node) -> Node {
    match node.value() {
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => {
            match nickel_number(node).and_then(|d| d.to_int()) {
                Some(i) => Node::new(Value::Int(Int::from_big(i)), node.span()),
                None => node.clone(),
            }
        }
        Value::Seq(s) | Value::Tuple(s) => {
            let items = s.iter().map(export_numbers).collect();
            Node::new(Value::Seq(Seq::new(items)), node.span())
        }
        Value::Map(m) => {
            let entries: Entries = m
                .iter()
                .map(|(k, v)| (crate::yaml::value::Key(k.clone()), export_numbers(v)))
                .collect();
            Node::new(Value::Map(Map::new(entries)), node.span())
        }
        _ => node.clone(),
    }
}
