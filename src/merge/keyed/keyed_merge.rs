//! Folding cloud-config fragments with the keyed dialect: tag checks, per-fragment normalisation, the fold, deferred conflicts.

use super::{Directive, IdentityHashes, KeyedRules, ListRule, identity_of, keyed_eq, rule_for};
use crate::merge::ItemIdentity;
use crate::merge::{
    DuplicateIdentity, Hashed, Limits, MAX_LEVELS, MergeObserver, Path, PathSeg, PriorityLedger,
    SymmetricError, TagLookup, fingerprint, first_repeat, merge_owned_with, merge_with,
};
use crate::source::SourceId;
use crate::yaml::value::{Entries, Key, Map, Node, Seq, Value, py_repr};
use std::collections::HashMap;

/// What normalising the fragments records: priorities and directives of
/// their values (by node id).
#[derive(Debug, Default)]
pub struct FragmentMarks {
    ledger: PriorityLedger,
    directives: HashMap<usize, Directive>,
    hashes: IdentityHashes,
}

struct Normaliser<'a> {
    tags: &'a dyn TagLookup,
    marks: &'a mut FragmentMarks,
    path: Path,
}

impl Normaliser<'_> {
    fn tag(&mut self, n: &Node, on_field: bool) -> Result<Option<Directive>, SymmetricError> {
        let Some(tag) = self.tags.tag_of(n) else {
            return Ok(None);
        };
        let err = |reason| SymmetricError::Tag {
            tag: tag.to_string(),
            span: n.span(),
            reason,
        };
        let Some(d) = Directive::from_tag(tag) else {
            return Err(err(
                "not a cloud-config merge tag (use !default, !priority:N, !force, !override or !reset)",
            ));
        };
        if !on_field {
            return Err(err("a merge tag belongs on a mapping value"));
        }
        Ok(Some(d))
    }

    /// Item `i` of a list, tag checked and normalised.
    fn normalise_item(
        &mut self,
        item: &Node,
        i: usize,
        depth: usize,
    ) -> Result<Node, SymmetricError> {
        self.path.push(PathSeg::Index(i));
        let out = self
            .tag(item, false)
            .and_then(|_| self.normalise(item, depth + 1));
        self.path.pop();
        out
    }

    /// The first identity of a list (`ids`, those of the kept `items` that
    /// have one under `rule`) that repeats an earlier one, as the error.
    fn repeat(&self, rule: ListRule, ids: &mut Hashed, items: &[Node]) -> Option<SymmetricError> {
        let same = |a: usize, b: usize| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => rule.same(x, y),
            _ => false,
        };
        let (a, b) = first_repeat(ids, same)?;
        let (first_item, second_item) = (items.get(a)?, items.get(b)?);
        let (first_id, id) = (
            identity_of(rule, first_item)?,
            identity_of(rule, second_item)?,
        );
        // Point at the identity as written, else at the item.
        let at = |id: &Node, item: &Node| {
            if id.span().source == SourceId::UNKNOWN {
                item.span()
            } else {
                id.span()
            }
        };
        Some(SymmetricError::DuplicateIdentity(Box::new(
            DuplicateIdentity {
                path: self.path.to_string(),
                identity: py_repr(&id),
                first: at(&first_id, first_item),
                second: at(&id, second_item),
            },
        )))
    }

    /// `n` with lists de-duplicated and identities checked; the same node
    /// when nothing changes.
    fn normalise(&mut self, n: &Node, depth: usize) -> Result<Node, SymmetricError> {
        if depth >= MAX_LEVELS {
            return Err(SymmetricError::Merge(crate::merge::MergeError::new(
                crate::merge::PyException::RecursionError,
                "maximum recursion depth exceeded",
            )));
        }
        match n.value() {
            Value::Map(m) => {
                let mut changed = false;
                let mut entries: Entries = Entries::with_capacity(m.len());
                for (k, v) in m.iter() {
                    self.path.push(PathSeg::Key(k.clone()));
                    let directive = self.tag(v, true)?;
                    if self.tags.tag_of(k).is_some() {
                        self.tag(k, false)?;
                    }
                    let v2 = self.normalise(v, depth + 1)?;
                    self.path.pop();
                    changed |= !Node::ptr_eq(v, &v2);
                    match directive {
                        Some(Directive::Priority(p)) => self.marks.ledger.set(&v2, p),
                        Some(d) => {
                            self.marks.directives.insert(v2.id(), d);
                        }
                        None => {}
                    }
                    entries.insert(Key(k.clone()), v2);
                }
                Ok(if changed {
                    Node::new(Value::Map(Map::new(entries)), n.span())
                } else {
                    n.clone()
                })
            }
            Value::Seq(s) => {
                let rule = rule_for(&self.path);
                // The items kept so far: `None` while they are `s`'s own
                // (a copy of every list, built and dropped when nothing
                // changed, was a list-sized block and a write to every item),
                // and how many.
                let mut copied: Option<Vec<Node>> = None;
                let mut len = 0;
                let mut changed = false;
                let keyed = !matches!(rule, ListRule::Append | ListRule::Atomic);
                // A union fingerprints every item; keyed rules only those without an identity.
                let cap = if matches!(rule, ListRule::Union) {
                    s.len()
                } else {
                    0
                };
                // Identities' hashes beside their items' places among the
                // kept ones; repeats are found after the loop (or before an
                // error in it) by `first_repeat`, in ordered passes rather
                // than a hash table the size of the list.
                // Sized once (grown by doubling, a million-item list's were
                // copied and touched twice over).
                let id_cap = if keyed && !matches!(rule, ListRule::Union) {
                    s.len()
                } else {
                    0
                };
                if u32::try_from(s.len()).is_err() {
                    return Err(SymmetricError::Merge(crate::merge::MergeError::new(
                        crate::merge::PyException::MemoryError,
                        "a list longer than 2**32 items",
                    )));
                }
                let mut ids = self.marks.hashes.table(id_cap);
                // Items by fingerprint: the last one's index in `seen`, each
                // one's predecessor with the same fingerprint in `prev` (no
                // allocation per item). Sized once for the list's items (a
                // million-item list grew them by doubling).
                let mut seen: HashMap<u64, usize, _> =
                    HashMap::with_capacity_and_hasher(cap, foldhash::fast::RandomState::default());
                let mut prev: Vec<usize> = Vec::with_capacity(cap);
                for (i, item) in s.iter().enumerate() {
                    let item2 = match self.normalise_item(item, i, depth) {
                        Ok(item2) => item2,
                        Err(e) => {
                            let kept = copied.as_deref().unwrap_or(s.items());
                            return Err(self.repeat(rule, &mut ids, kept).unwrap_or(e));
                        }
                    };
                    if !Node::ptr_eq(item, &item2) {
                        changed = true;
                        copy_from(&mut copied, s.items(), i);
                    }
                    if !keyed {
                        push_kept(&mut copied, &mut len, item2);
                        continue;
                    }
                    if let Some(id) = identity_of(rule, &item2) {
                        // Hashed while the item is in the cache, not cloned.
                        ids.push(&id, len as u32);
                    } else {
                        let fp = fingerprint(&item2);
                        let mut j = seen.get(&fp).copied().unwrap_or(usize::MAX);
                        let kept = copied.as_deref().unwrap_or(s.items());
                        while let Some(x) = kept.get(j).filter(|_| j < len) {
                            if keyed_eq(x, &item2) {
                                break;
                            }
                            j = prev.get(j).copied().unwrap_or(usize::MAX);
                        }
                        if j != usize::MAX {
                            // A repeat within one fragment: dropped, as a
                            // later fragment's repeat would be.
                            changed = true;
                            copy_from(&mut copied, s.items(), i);
                            continue;
                        }
                        prev.resize(len, usize::MAX);
                        prev.push(seen.insert(fp, len).unwrap_or(usize::MAX));
                    }
                    push_kept(&mut copied, &mut len, item2);
                }
                if let Some(e) = self.repeat(rule, &mut ids, copied.as_deref().unwrap_or(s.items()))
                {
                    return Err(e);
                }
                let out = match copied {
                    Some(items) if changed => Node::new(Value::Seq(Seq::new(items)), n.span()),
                    _ => n.clone(),
                };
                // The merge reads these identities again (sorted by
                // `first_repeat`, they merge with another list's in one pass).
                self.marks.hashes.keep(&out, rule, ids);
                Ok(out)
            }
            _ => Ok(n.clone()),
        }
    }
}

/// Start the copy of a list's kept items at item `i`, when nothing before it
/// changed (they are then `items[..i]`).
fn copy_from(copied: &mut Option<Vec<Node>>, items: &[Node], i: usize) {
    if copied.is_none() {
        let mut v = Vec::with_capacity(items.len());
        v.extend_from_slice(items.get(..i).unwrap_or_default());
        *copied = Some(v);
    }
}

/// Keep `item`: pushed onto the copy if there is one (else it is the list's
/// own item, already in place).
fn push_kept(copied: &mut Option<Vec<Node>>, len: &mut usize, item: Node) {
    if let Some(v) = copied {
        v.push(item);
    }
    *len += 1;
}

/// Normalise one fragment (must be a mapping): tags checked and recorded in
/// `marks`, repeats inside its de-duplicated lists dropped, two items with
/// one identity in one list refused.
pub fn normalise_fragment(
    root: &Node,
    tags: &dyn TagLookup,
    marks: &mut FragmentMarks,
) -> Result<Node, SymmetricError> {
    if root.as_map().is_none() {
        return Err(SymmetricError::NotAMapping {
            span: root.span(),
            type_name: root.type_name(),
        });
    }
    if let Some(tag) = tags.tag_of(root) {
        return Err(SymmetricError::Tag {
            tag: tag.to_string(),
            span: root.span(),
            reason: "a merge tag belongs on a mapping value",
        });
    }
    let mut n = Normaliser {
        tags,
        marks,
        path: Path::root(),
    };
    n.normalise(root, 0)
}

/// Merge cloud-config fragments (earlier first) into one cloud-config.
/// Without tags the result does not depend on the order of the fragments,
/// except for the order of appended list items (and of keys).
pub fn merge_fragments(
    fragments: &[Node],
    tags: &dyn TagLookup,
    observer: &mut dyn MergeObserver,
) -> Result<Node, SymmetricError> {
    let mut marks = FragmentMarks::default();
    let mut roots = Vec::with_capacity(fragments.len());
    for f in fragments {
        roots.push(normalise_fragment(f, tags, &mut marks)?);
    }
    let rules = KeyedRules::new(&marks.ledger, &marks.directives, &marks.hashes);
    let limits = Limits {
        python_frames: usize::MAX,
        ..Limits::default()
    };
    let mut it = roots.iter();
    let Some(first) = it.next() else {
        return Ok(Node::synthetic(Value::Map(Map::new(Entries::default()))));
    };
    // A `!reset` in the first fragment removes nothing but its own key.
    let mut acc = merge_with(
        &rules,
        &Node::new(Value::Map(Map::new(Entries::default())), first.span()),
        first,
        &limits,
        observer,
    )
    .map_err(SymmetricError::Merge)?;
    // Merged in place: each fragment costs its own keys, not the config so far.
    for f in it {
        acc = merge_owned_with(&rules, acc, f, &limits, observer)
            .map_err(|(e, _)| SymmetricError::Merge(e))?;
    }
    if let Some(c) = marks.ledger.surviving(&acc).into_iter().next() {
        return Err(SymmetricError::NonMergeable(c));
    }
    Ok(acc)
}
