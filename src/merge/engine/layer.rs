//! The engine's layer strategies (Hiera's `first`, `unique`, `deep`): whole-value merges of a lower layer (old) with a higher one (new).
//!
//! `deep` is `deep_merge` 1.1 as Hiera calls it: the higher value is the
//! source, the lower the destination. `deep_merge` edits both in place,
//! and three situations make a value merge with itself, which changes the
//! result; they are modelled as destinations ([`Dest`]): a key new at this
//! level merges with a shallow copy of itself, and once a mapping has
//! replaced a non-mapping, its later keys merge with themselves.

use super::{Depth, Walk};
use crate::merge::{
    Decision, DeepOptions, KeepReason, Knockout, LayerStrategy, MAX_LEVELS, MergeError,
    MergeObserver, PathSeg, PyException, Rules, ruby_class, ruby_sort, strict_union,
};
use crate::yaml::value::{Entries, Map, Node, PyStr, Seq, Value, insert};
use std::collections::HashSet;

/// Python frames a nested deep merge is charged (only bounds our depth).
const DEEP_LEVEL: usize = 1;

/// What a deep merge step merges its source into.
#[derive(Clone, Copy)]
enum Dest<'a> {
    /// A value of the lower layer.
    Other(&'a Node),
    /// A shallow copy of the source (`deep_merge!(v, v.dup)`).
    Copy,
    /// The source itself (`deep_merge!(v, v)`).
    Same,
}

/// Ruby truthiness: only `nil` and `false` are false.
fn truthy(node: &Node) -> bool {
    !matches!(node.value(), Value::Null | Value::Bool(false))
}

fn is_map(node: &Node) -> bool {
    matches!(node.value(), Value::Map(_))
}

/// Ruby `String#==` of a list item and a knockout's text.
fn str_is(item: &Node, text: &[u8]) -> bool {
    matches!(item.value(), Value::Str(s) if s.as_wtf8() == text)
}

fn list(items: Vec<Node>, like: &Node) -> Node {
    Node::new(Value::Seq(Seq::new(items)), like.span())
}

impl<R: Rules + ?Sized, O: MergeObserver + ?Sized> Walk<'_, R, O> {
    /// Merge a higher layer's value (`new`) into a lower one's (`old`).
    pub(super) fn layer(
        &mut self,
        s: &LayerStrategy,
        old: &Node,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        match s {
            LayerStrategy::Replace => {
                self.emit(Decision::Replaced, Some(old), Some(new));
                Ok(new.clone())
            }
            LayerStrategy::Unique => {
                let mut flat = Vec::new();
                self.flatten(new, &mut flat, 0)?;
                self.flatten(old, &mut flat, 0)?;
                self.emit(Decision::Prepended, Some(old), Some(new));
                Ok(list(strict_union(&flat), new))
            }
            LayerStrategy::Deep(o) => self.deep(o, new, Dest::Other(old), depth),
        }
    }

    /// Ruby's `Array#flatten` (a non-list is one item).
    fn flatten(
        &mut self,
        node: &Node,
        out: &mut Vec<Node>,
        level: usize,
    ) -> Result<(), MergeError> {
        self.charge(1)?;
        if level >= MAX_LEVELS {
            return Err(too_deep());
        }
        match node.value() {
            Value::Seq(s) | Value::Tuple(s) => {
                for item in s.iter() {
                    self.flatten(item, out, level + 1)?;
                }
            }
            _ => out.push(node.clone()),
        }
        Ok(())
    }

    /// `deep_merge!(src, dst)`.
    fn deep(
        &mut self,
        o: &DeepOptions,
        src: &Node,
        dst: Dest<'_>,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        self.charge(1)?;
        if depth.level >= MAX_LEVELS {
            return Err(too_deep());
        }
        let dnode = match dst {
            Dest::Other(d) => d,
            Dest::Copy | Dest::Same => src,
        };
        if src.is_null() {
            // `return dest if source.nil?`
            self.emit(
                Decision::KeptOld(KeepReason::NewIgnored),
                Some(dnode),
                Some(src),
            );
            return Ok(dnode.clone());
        }
        if !truthy(dnode) {
            self.emit(Decision::Replaced, Some(dnode), Some(src));
            return Ok(src.clone());
        }
        match src.value() {
            Value::Map(sm) => self.deep_map(o, src, sm, dst, depth),
            Value::Seq(s) | Value::Tuple(s) => self.deep_list(o, src, s.items(), dst, depth),
            _ => {
                self.emit(Decision::Replaced, Some(dnode), Some(src));
                Ok(self.overwrite_scalar(o, src))
            }
        }
    }

    fn knockout(&self, o: &DeepOptions) -> Option<&Knockout> {
        if o.knockout {
            self.rules.knockout()
        } else {
            None
        }
    }

    /// A scalar source over anything: itself, or `""` when it carries the prefix.
    fn overwrite_scalar(&self, o: &DeepOptions, src: &Node) -> Node {
        match self.knockout(o) {
            Some(k) if k.strip(src).is_some() => Node::new(Value::Str(PyStr::from("")), src.span()),
            _ => src.clone(),
        }
    }

    fn deep_map(
        &mut self,
        o: &DeepOptions,
        src: &Node,
        sm: &Map,
        dst: Dest<'_>,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let Dest::Other(d) = dst else {
            return self.map_with_itself(o, src, sm, false, depth);
        };
        let Some(dm) = d.as_map() else {
            if sm.is_empty() {
                // The source's loop never runs: dest stays.
                self.emit(
                    Decision::KeptOld(KeepReason::NewIgnored),
                    Some(d),
                    Some(src),
                );
                return Ok(d.clone());
            }
            // The mapping replaces dest on its first key; later keys find
            // themselves in it and merge with themselves.
            self.emit(Decision::Replaced, Some(d), Some(src));
            return self.map_with_itself(o, src, sm, true, depth);
        };
        self.charge(sm.len().saturating_add(dm.len()))?;
        let mut entries: Entries = dm.to_entries();
        for (k, sv) in sm.iter() {
            self.enter(|| PathSeg::Key(k.clone()));
            let existing = entries.get(k).cloned();
            let merged = match existing {
                Some(dv) if truthy(&dv) => {
                    self.emit(Decision::Recursed, Some(&dv), Some(sv));
                    self.deep(o, sv, Dest::Other(&dv), depth.deeper(DEEP_LEVEL))
                }
                _ => {
                    self.emit(Decision::Added, existing.as_ref(), Some(sv));
                    self.deep(o, sv, Dest::Copy, depth.deeper(DEEP_LEVEL))
                }
            }
            .map_err(|e| e.under(&PathSeg::Key(k.clone())))?;
            insert(&mut entries, k.clone(), merged);
            self.leave();
        }
        Ok(Node::new(Value::Map(Map::new(entries)), d.span()))
    }

    /// A mapping merged with (a copy of) itself: truthy values merge with
    /// themselves, except the first when `skip_first`.
    fn map_with_itself(
        &mut self,
        o: &DeepOptions,
        src: &Node,
        sm: &Map,
        skip_first: bool,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        self.charge(sm.len())?;
        let mut entries = Entries::with_capacity(sm.len());
        for (i, (k, v)) in sm.iter().enumerate() {
            let nv = if (skip_first && i == 0) || !truthy(v) {
                v.clone()
            } else {
                self.enter(|| PathSeg::Key(k.clone()));
                let r = self
                    .deep(o, v, Dest::Same, depth.deeper(DEEP_LEVEL))
                    .map_err(|e| e.under(&PathSeg::Key(k.clone())));
                self.leave();
                r?
            };
            insert(&mut entries, k.clone(), nv);
        }
        Ok(Node::new(Value::Map(Map::new(entries)), src.span()))
    }

    fn deep_list(
        &mut self,
        o: &DeepOptions,
        src: &Node,
        items: &[Node],
        dst: Dest<'_>,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        self.charge(items.len())?;
        let rules = self.rules;
        let ko = if o.knockout { rules.knockout() } else { None };
        let bare = ko.is_some_and(|k| items.iter().any(|i| k.is_bare(i)));
        let mut src_items: Vec<Node> = match ko {
            Some(k) if bare => items.iter().filter(|i| !k.is_bare(i)).cloned().collect(),
            _ => items.to_vec(),
        };
        // A bare prefix clears dest (a non-list is then overwritten anyway).
        let (dest, span_of) = match dst {
            Dest::Other(d) => match d.value() {
                Value::Seq(s) | Value::Tuple(s) if bare => (Some(Vec::new()), d),
                Value::Seq(s) | Value::Tuple(s) => (Some(s.items().to_vec()), d),
                _ => (None, d),
            },
            Dest::Copy if bare => (Some(Vec::new()), src),
            Dest::Copy => (Some(items.to_vec()), src),
            Dest::Same if bare => {
                self.emit(Decision::Replaced, Some(src), Some(src));
                return Ok(list(Vec::new(), src));
            }
            Dest::Same => return self.list_with_itself(o, ko, src, items, depth),
        };
        let Some(mut dest) = dest else {
            // `overwrite_unmergeables`: the list, its knockout items dropped.
            self.emit(Decision::Replaced, Some(span_of), Some(src));
            if let Some(k) = ko {
                src_items.retain(|i| !k.matches(i));
            }
            return Ok(list(src_items, src));
        };
        if let Some(k) = ko {
            // Every `dest.delete(x)` removes all strings equal to x; on a
            // list other than the source, the order of deletions does not
            // matter, so one pass removes them all.
            self.charge(src_items.len().saturating_add(dest.len()))?;
            let mut gone: HashSet<Vec<u8>> = HashSet::new();
            let mut kept = Vec::with_capacity(src_items.len());
            for item in src_items {
                match (k.strip(&item), item.value()) {
                    (Some(stripped), Value::Str(whole)) => {
                        gone.insert(stripped.as_wtf8().to_vec());
                        gone.insert(whole.as_wtf8().to_vec());
                    }
                    _ => kept.push(item),
                }
            }
            src_items = kept;
            if !gone.is_empty() {
                dest.retain(|d| !matches!(d.value(), Value::Str(s) if gone.contains(s.as_wtf8())));
            }
        }
        self.emit(Decision::Appended, Some(span_of), Some(src));
        let merged =
            if o.merge_hash_arrays && src_items.iter().all(is_map) && dest.iter().all(is_map) {
                let mut out = Vec::with_capacity(dest.len().max(src_items.len()));
                for (i, d) in dest.iter().enumerate() {
                    self.enter(|| PathSeg::Index(i));
                    let m = match src_items.get(i) {
                        Some(s) if Node::ptr_eq(s, d) => {
                            self.deep(o, s, Dest::Same, depth.deeper(DEEP_LEVEL))
                        }
                        Some(s) => self.deep(o, s, Dest::Other(d), depth.deeper(DEEP_LEVEL)),
                        // `deep_merge!({}, d)` is d.
                        None => Ok(d.clone()),
                    }
                    .map_err(|e| e.under(&PathSeg::Index(i)));
                    self.leave();
                    out.push(m?);
                }
                out.extend(
                    src_items
                        .get(dest.len()..)
                        .unwrap_or_default()
                        .iter()
                        .cloned(),
                );
                out
            } else {
                self.charge(dest.len().saturating_add(src_items.len()))?;
                strict_union(dest.iter().chain(src_items.iter()))
            };
        let merged = self.sort_if(o, merged)?;
        Ok(list(merged, span_of))
    }

    /// A list merged with itself (`deep_merge!(a, a)`): knockouts remove
    /// items from the very list being scanned, as Ruby's `delete_if` then
    /// does; the rest de-duplicates (or merges hash items with themselves).
    fn list_with_itself(
        &mut self,
        o: &DeepOptions,
        ko: Option<&Knockout>,
        src: &Node,
        items: &[Node],
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let mut ary = items.to_vec();
        if let Some(k) = ko {
            // Each knockout rescans the list: charge that.
            let knockouts = ary.iter().filter(|i| k.strip(i).is_some()).count();
            self.charge(ary.len().saturating_mul(knockouts.saturating_add(1)))?;
            ary = delete_if_aliased(ary, k);
        }
        self.emit(Decision::Recursed, Some(src), Some(src));
        let merged = if o.merge_hash_arrays && ary.iter().all(is_map) {
            let mut out = Vec::with_capacity(ary.len());
            for (i, item) in ary.iter().enumerate() {
                self.enter(|| PathSeg::Index(i));
                let m = self
                    .deep(o, item, Dest::Same, depth.deeper(DEEP_LEVEL))
                    .map_err(|e| e.under(&PathSeg::Index(i)));
                self.leave();
                out.push(m?);
            }
            out
        } else {
            self.charge(ary.len())?;
            strict_union(&ary)
        };
        let merged = self.sort_if(o, merged)?;
        Ok(list(merged, src))
    }

    fn sort_if(&mut self, o: &DeepOptions, items: Vec<Node>) -> Result<Vec<Node>, MergeError> {
        if !o.sort_merged_arrays {
            return Ok(items);
        }
        let n = items.len();
        // A merge sort: about n·log2(n) comparisons.
        self.charge(n.saturating_mul((usize::BITS - n.leading_zeros()) as usize))?;
        ruby_sort(items).map_err(|(a, b)| {
            MergeError::new(
                PyException::TypeError,
                format!(
                    "comparison of {} with {} failed",
                    ruby_class(&a),
                    ruby_class(&b)
                ),
            )
        })
    }
}

/// `a.delete_if { |x| knockout?(x) and a.delete(stripped) and a.delete(x) }`
/// on one array: Ruby compacts kept items in place while the block deletes
/// from the same array, then moves the unscanned tail down.
fn delete_if_aliased(mut ary: Vec<Node>, k: &Knockout) -> Vec<Node> {
    let (mut i1, mut i2) = (0usize, 0usize);
    while let Some(v) = ary.get(i1).cloned() {
        match k.strip(&v) {
            Some(stripped) => {
                let whole: Vec<u8> = match v.value() {
                    Value::Str(s) => s.as_wtf8().to_vec(),
                    _ => Vec::new(),
                };
                ary.retain(|d| !(str_is(d, stripped.as_wtf8()) || str_is(d, &whole)));
            }
            None => {
                if i1 != i2
                    && let Some(slot) = ary.get_mut(i2)
                {
                    *slot = v;
                }
                i2 += 1;
            }
        }
        i1 += 1;
    }
    let len = ary.len();
    if i2 < len && i2 < i1 {
        let tail = len.saturating_sub(i1);
        if tail > 0 {
            let moved: Vec<Node> = ary.get(i1..len).unwrap_or_default().to_vec();
            for (j, v) in moved.into_iter().enumerate() {
                if let Some(slot) = ary.get_mut(i2 + j) {
                    *slot = v;
                }
            }
        }
        ary.truncate(i2 + tail);
    }
    ary
}

fn too_deep() -> MergeError {
    MergeError::new(
        PyException::RecursionError,
        "maximum recursion depth exceeded",
    )
}
