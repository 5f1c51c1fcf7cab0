//! The borrowed walk: each strategy merging `new` into `old` without modifying either (containers built here are new nodes).

use super::{DICT_LEVEL, Depth, LIST_LEVEL, TUPLE_LEVEL, Walk};
use crate::merge::fingerprint::fingerprint;
use crate::merge::py_ops::{Indexable, py_iter};
use crate::merge::{
    Decision, DictMode, DictStrategy, FlattenStrategy, KeepReason, ListMode, ListStrategy,
    MergeError, MergeObserver, PathSeg, Precedence, PyException, Rules, StrMode, StrStrategy,
    Strategy,
};
use crate::merge::{Hashed, first_equal};
use crate::yaml::value::{Entries, Key, Map, Node, PyStrBuilder, Seq, Value, insert};

impl<R: Rules + ?Sized, O: MergeObserver + ?Sized> Walk<'_, R, O> {
    pub(super) fn dict(
        &mut self,
        s: &DictStrategy,
        old: &Node,
        om: &Map,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let Some(nm) = new.as_map() else {
            self.emit(
                Decision::KeptOld(KeepReason::NewIgnored),
                Some(old),
                Some(new),
            );
            return Ok(old.clone());
        };
        self.charge(om.len().saturating_add(nm.len()))?;
        let mut entries: Entries = om.to_entries();
        // Deleted positions; removed at the end so deletions stay O(1) and
        // the survivors keep their order (new's keys are distinct, so a
        // deleted key is never looked up again).
        let mut deleted: Vec<usize> = Vec::new();
        for (k, v) in nm.iter() {
            self.enter(|| PathSeg::Key(k.clone()));
            let found = entries.get_full(k).map(|(i, _, old_v)| (i, old_v.clone()));
            match found {
                None => {
                    self.emit(Decision::Added, None, Some(v));
                    insert(&mut entries, k.clone(), v.clone());
                }
                Some((i, _)) if v.is_null() && s.allow_delete => {
                    self.emit(
                        Decision::Deleted,
                        entries.get_index(i).map(|e| e.1),
                        Some(v),
                    );
                    deleted.push(i);
                }
                Some((_, old_v)) => {
                    let merged = match s.mode {
                        DictMode::Replace => {
                            self.emit(Decision::Replaced, Some(&old_v), Some(v));
                            v.clone()
                        }
                        DictMode::Merge => {
                            self.recurse(&old_v, v, depth.deeper(DICT_LEVEL), || {
                                PathSeg::Key(k.clone())
                            })?
                        }
                        // Symmetric maps go to `dict_symmetric`; not reached.
                        DictMode::Keep | DictMode::Symmetric if s.recurse.wants(v) => self
                            .recurse(&old_v, v, depth.deeper(DICT_LEVEL), || {
                                PathSeg::Key(k.clone())
                            })?,
                        DictMode::Keep | DictMode::Symmetric => {
                            self.emit(
                                Decision::KeptOld(KeepReason::NotRecursed),
                                Some(&old_v),
                                Some(v),
                            );
                            old_v
                        }
                    };
                    // Keeps the old key object, as `d[k] = v` does.
                    insert(&mut entries, k.clone(), merged);
                }
            }
            self.leave();
        }
        Ok(Node::new(
            Value::Map(Map::new(without(entries, deleted))),
            old.span(),
        ))
    }

    /// The symmetric dialects' strategies, kept out of [`Walk::dispatch`]
    /// so its stack frame (paid at every nesting level) stays small.
    #[inline(never)]
    pub(super) fn symmetric(
        &mut self,
        strategy: Strategy,
        old: &Node,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        match (strategy, old.value()) {
            (Strategy::Dict(_), Value::Map(m)) => self.dict_symmetric(old, m, new, depth),
            (
                Strategy::List(ListStrategy {
                    mode: ListMode::ByIdentity { dedupe },
                    ..
                }),
                Value::Seq(items) | Value::Tuple(items),
            ) => self.list_by_identity(dedupe, old, items, new, depth),
            (Strategy::Unify(_), _) => self.unify(old, new),
            // A symmetric strategy given for another type: old stays.
            _ => self.keep_old(old, new),
        }
    }

    /// [`DictMode::Symmetric`]: keys in both are settled by
    /// [`Rules::precedence`], then merged through the table; a non-mapping
    /// new is a conflict.
    fn dict_symmetric(
        &mut self,
        old: &Node,
        om: &Map,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let Some(nm) = new.as_map() else {
            self.emit(Decision::Conflict, Some(old), Some(new));
            return self.rules.conflict(&self.path, old, new);
        };
        self.charge(om.len().saturating_add(nm.len()))?;
        self.dict_symmetric_entries(old, om, nm, depth)
    }

    /// `dict_symmetric`'s merge of `nm`'s entries into a copy of `om`'s.
    pub(super) fn dict_symmetric_entries(
        &mut self,
        old: &Node,
        om: &Map,
        nm: &Map,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let mut entries: Entries = om.to_entries();
        let mut deleted: Vec<usize> = Vec::new();
        for (k, v) in nm.iter() {
            self.enter(|| PathSeg::Key(k.clone()));
            let found = entries.get_full(k).map(|(i, _, old_v)| (i, old_v.clone()));
            let precedence = self
                .rules
                .precedence(&self.path, found.as_ref().map(|f| &f.1), v);
            match (found, precedence) {
                (None, Precedence::Merge | Precedence::New) => {
                    self.emit(Decision::Added, None, Some(v));
                    insert(&mut entries, k.clone(), v.clone());
                }
                (None, Precedence::Old | Precedence::Drop) => {
                    self.emit(Decision::Deleted, None, Some(v));
                }
                (Some((_, old_v)), Precedence::Old) => {
                    self.emit(
                        Decision::KeptOld(KeepReason::Outranked),
                        Some(&old_v),
                        Some(v),
                    );
                }
                (Some((_, old_v)), Precedence::New) => {
                    self.emit(Decision::Replaced, Some(&old_v), Some(v));
                    insert(&mut entries, k.clone(), v.clone());
                }
                (Some((i, old_v)), Precedence::Drop) => {
                    self.emit(Decision::Deleted, Some(&old_v), Some(v));
                    deleted.push(i);
                }
                (Some((_, old_v)), Precedence::Merge) => {
                    let merged = self.recurse(&old_v, v, depth.deeper(DICT_LEVEL), || {
                        PathSeg::Key(k.clone())
                    })?;
                    self.rules.merged(v, &merged);
                    insert(&mut entries, k.clone(), merged);
                }
            }
            self.leave();
        }
        Ok(Node::new(
            Value::Map(Map::new(without(entries, deleted))),
            old.span(),
        ))
    }

    /// [`ListMode::ByIdentity`]: new items matching an old item's identity
    /// merge with it, the others are appended (equal ones dropped when
    /// de-duplicating); a non-list new is a conflict. A tuple stays a tuple.
    fn list_by_identity(
        &mut self,
        dedupe: bool,
        old: &Node,
        old_items: &Seq,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let Some(new_items) = new.as_seq() else {
            self.emit(Decision::Conflict, Some(old), Some(new));
            return self.rules.conflict(&self.path, old, new);
        };
        self.charge(old_items.len().saturating_add(new_items.len()))?;
        // Items by fingerprint, so de-duplication compares within buckets only.
        let mut buckets: std::collections::HashMap<u64, Vec<usize>> =
            std::collections::HashMap::new();
        // Places in 32 bits: old items are `0..old_len`, new item `j` is
        // `old_len + j`.
        let old_len = old_items.len();
        let both = old_len.saturating_add(new_items.len());
        let Ok(both32) = u32::try_from(both) else {
            return Err(MergeError::new(
                PyException::MemoryError,
                "a list longer than 2**32 items",
            ));
        };
        let identity = self.rules.item_identity(&self.path);
        // The identities of both lists in order, old first, hashed as each
        // item is read (not cloned: a list of their clones was a write to
        // every node, and a pass more over them to drop it). `first_equal`
        // matches them in ordered passes: a hash table the size of both
        // lists lives out of the cache. Sized once for both lists (grown by
        // doubling, a million-item list's were copied and touched twice over).
        // Lists the dialect hashed before (the keyed dialect's normalised
        // fragments) are not read again here.
        let mut ids = identity
            .as_ref()
            .map_or_else(|| Hashed::with_capacity(0), |r| r.table(both));
        let known = |list: &Node, ids: &mut Hashed, offset: usize| {
            identity
                .as_ref()
                .is_some_and(|r| r.extend_known(list, ids, offset as u32))
        };
        let old_known = known(old, &mut ids, 0);
        for (i, item) in old_items.iter().enumerate() {
            if !dedupe && old_known {
                break;
            }
            match identity.as_ref().and_then(|r| r.of(item)) {
                Some(id) if !old_known => ids.push(&id, i as u32),
                Some(_) => {}
                None if dedupe => buckets.entry(fingerprint(item)).or_default().push(i),
                None => {}
            }
        }
        if !known(new, &mut ids, old_len) {
            for (j, item) in new_items.iter().enumerate() {
                if let Some(id) = identity.as_ref().and_then(|r| r.of(item)) {
                    ids.push(&id, (old_len + j) as u32);
                }
            }
        }
        let item_at = |k: usize| {
            old_items
                .items()
                .get(k)
                .or_else(|| new_items.items().get(k.wrapping_sub(old_len)))
        };
        let first = first_equal(ids, both32, |a, b| {
            match (identity.as_ref(), item_at(a), item_at(b)) {
                (Some(r), Some(x), Some(y)) => r.same(x, y),
                _ => false,
            }
        });
        // Where each new item that is its identity's first was appended (old
        // items stay in their places).
        let mut place: Vec<u32> = vec![0; new_items.len()];
        let mut items: Vec<Node> = old_items.items().to_vec();
        for (j, nv) in new_items.iter().enumerate() {
            // Found again, as the item is read here anyway (a list of which
            // items have one was a pass more over them).
            if let Some((r, id)) = identity.as_ref().and_then(|r| Some((r, r.of(nv)?))) {
                let k = old_len + j;
                let leader = first.of(k);
                // A leader that only shares the hash is checked here, where
                // both items are read anyway (see `FirstEqual::of`).
                let equal = leader != k
                    && item_at(leader)
                        .and_then(|x| r.of(x))
                        .is_some_and(|first_id| Key::eq_nodes(&first_id, &id));
                let at = if !equal {
                    None
                } else if leader < old_len {
                    Some(leader)
                } else {
                    place.get(leader - old_len).map(|&i| i as usize)
                };
                if let Some(i) = at {
                    let Some(slot) = items.get(i) else {
                        continue;
                    };
                    self.enter(|| PathSeg::Index(i));
                    let merged =
                        self.recurse(slot, nv, depth.deeper(LIST_LEVEL), || PathSeg::Index(i))?;
                    self.rules.merged(nv, &merged);
                    if let Some(s) = items.get_mut(i) {
                        *s = merged;
                    }
                    self.leave();
                    continue;
                }
                if let Some(p) = place.get_mut(j) {
                    *p = items.len() as u32;
                }
            } else if dedupe {
                let fp = fingerprint(nv);
                let bucket = buckets.get(&fp).map(Vec::as_slice).unwrap_or_default();
                self.charge(bucket.len())?;
                let same = bucket
                    .iter()
                    .copied()
                    .find(|&i| items.get(i).is_some_and(|x| self.rules.equal(x, nv)));
                if let Some(i) = same {
                    self.enter(|| PathSeg::Index(i));
                    let kept = items.get(i).cloned();
                    self.emit(
                        Decision::KeptOld(KeepReason::Equal),
                        kept.as_ref(),
                        Some(nv),
                    );
                    self.leave();
                    continue;
                }
                buckets.entry(fp).or_default().push(items.len());
            }
            let at = items.len();
            self.enter(|| PathSeg::Index(at));
            self.emit(Decision::Appended, None, Some(nv));
            self.leave();
            items.push(nv.clone());
        }
        let value = match old.value() {
            Value::Tuple(_) => Value::Tuple(Seq::new(items)),
            _ => Value::Seq(Seq::new(items)),
        };
        Ok(Node::new(value, old.span()))
    }

    /// [`Strategy::Unify`]: equal values merge (old kept), others conflict.
    fn unify(&mut self, old: &Node, new: &Node) -> Result<Node, MergeError> {
        if self.rules.equal(old, new) {
            self.emit(Decision::KeptOld(KeepReason::Equal), Some(old), Some(new));
            return Ok(old.clone());
        }
        self.emit(Decision::Conflict, Some(old), Some(new));
        self.rules.conflict(&self.path, old, new)
    }

    pub(super) fn list(
        &mut self,
        s: &ListStrategy,
        old: &Node,
        old_items: &Seq,
        is_tuple: bool,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let wrap = |items: Vec<Node>| {
            if is_tuple {
                Value::Tuple(Seq::new(items))
            } else {
                Value::Seq(Seq::new(items))
            }
        };
        let is_seq = new.as_seq().is_some();
        match s.mode {
            ListMode::Overlay if !is_seq => {
                self.emit(Decision::Replaced, Some(old), Some(new));
                if !is_tuple {
                    return Ok(new.clone());
                }
                // A tuple is rebuilt from whatever replaces it: `tuple(new)`;
                // its content is new's, so it carries new's span.
                let items = self.iterate(new)?;
                Ok(Node::new(Value::Tuple(Seq::new(items)), new.span()))
            }
            ListMode::Append | ListMode::Prepend => {
                // A list's items are read in place: iterating it into a list
                // of its own first copied every item once more.
                let iterated;
                let added = match new.as_seq() {
                    Some(s) => {
                        self.charge(s.len())?;
                        s.items()
                    }
                    None => {
                        iterated = self.iterate(new)?;
                        iterated.as_slice()
                    }
                };
                self.charge(old_items.len())?;
                let mut items = Vec::with_capacity(old_items.len().saturating_add(added.len()));
                if s.mode == ListMode::Append {
                    self.emit(Decision::Appended, Some(old), Some(new));
                    items.extend_from_slice(old_items.items());
                    items.extend_from_slice(added);
                } else {
                    self.emit(Decision::Prepended, Some(old), Some(new));
                    items.extend_from_slice(added);
                    items.extend_from_slice(old_items.items());
                }
                Ok(Node::new(wrap(items), old.span()))
            }
            ListMode::Union => self.union(s, old, old_items, is_tuple, new, depth),
            // Dispatched to `list_by_identity` before reaching here.
            ListMode::ByIdentity { .. } => self.keep_old(old, new),
            ListMode::Overlay | ListMode::Keep => {
                let (new_len, indexable) = Indexable::new(new)?;
                let common = old_items.len().min(new_len);
                self.charge(old_items.len().saturating_add(common))?;
                let mut items = old_items.items().to_vec();
                if s.mode == ListMode::Overlay {
                    let decision = Decision::OverlaidTruncated {
                        old_len: items.len(),
                        new_len,
                    };
                    self.emit(decision, Some(old), Some(new));
                }
                let step = if is_tuple { TUPLE_LEVEL } else { LIST_LEVEL };
                for (i, slot) in items.iter_mut().enumerate().take(common) {
                    // Python evaluates `new[i]` even when it keeps old.
                    let nv = indexable.get(i)?;
                    self.enter(|| PathSeg::Index(i));
                    if s.mode == ListMode::Keep {
                        self.emit(
                            Decision::KeptOld(KeepReason::NoReplace),
                            Some(slot),
                            Some(&nv),
                        );
                    } else if s.recurse.wants(&nv) {
                        *slot =
                            self.recurse(slot, &nv, depth.deeper(step), || PathSeg::Index(i))?;
                    } else {
                        self.emit(Decision::Replaced, Some(slot), Some(&nv));
                        *slot = nv;
                    }
                    self.leave();
                }
                Ok(Node::new(wrap(items), old.span()))
            }
        }
    }

    /// [`ListMode::Union`]: old's items, then new's, one item per key.
    fn union(
        &mut self,
        s: &ListStrategy,
        old: &Node,
        old_items: &Seq,
        is_tuple: bool,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        let added = new.as_seq().map_or(&[][..], Seq::items);
        self.charge(old_items.len().saturating_add(added.len()))?;
        self.emit(Decision::Appended, Some(old), Some(new));
        let mut items = old_items.items().to_vec();
        let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (i, item) in items.iter().enumerate() {
            if let Some(k) = self.rules.item_key(&self.path, item)? {
                index.entry(k).or_insert(i);
            }
        }
        for item in added {
            let key = self.rules.item_key(&self.path, item)?;
            match key.as_ref().and_then(|k| index.get(k)).copied() {
                Some(j) => {
                    let Some(slot) = items.get(j).cloned() else {
                        continue;
                    };
                    self.enter(|| PathSeg::Index(j));
                    let merged = if s.recurse.wants(item) {
                        self.recurse(&slot, item, depth.deeper(LIST_LEVEL), || PathSeg::Index(j))?
                    } else {
                        self.emit(Decision::Replaced, Some(&slot), Some(item));
                        item.clone()
                    };
                    self.leave();
                    if let Some(place) = items.get_mut(j) {
                        *place = merged;
                    }
                }
                None => {
                    if let Some(k) = key {
                        index.insert(k, items.len());
                    }
                    items.push(item.clone());
                }
            }
        }
        let value = if is_tuple {
            Value::Tuple(Seq::new(items))
        } else {
            Value::Seq(Seq::new(items))
        };
        Ok(Node::new(value, old.span()))
    }

    /// [`Strategy::Flatten`]: both sides as sequences, appended.
    pub(super) fn flatten_seq(
        &mut self,
        s: &FlattenStrategy,
        old: &Node,
        new: &Node,
    ) -> Result<Node, MergeError> {
        let mut items = self.flat_items(old)?;
        let added = self.flat_items(new)?;
        self.emit(Decision::Appended, Some(old), Some(new));
        items.extend(added);
        if s.unique {
            let mut out: Vec<Node> = Vec::with_capacity(items.len());
            let mut index: std::collections::HashMap<String, usize> =
                std::collections::HashMap::new();
            for item in items {
                match self.rules.item_key(&self.path, &item)? {
                    Some(k) => match index.get(&k) {
                        Some(&j) => {
                            if let Some(place) = out.get_mut(j) {
                                *place = item;
                            }
                        }
                        None => {
                            index.insert(k, out.len());
                            out.push(item);
                        }
                    },
                    None => out.push(item),
                }
            }
            items = out;
        }
        Ok(Node::new(Value::Seq(Seq::new(items)), old.span()))
    }

    /// One side of a flatten as items.
    fn flat_items(&mut self, side: &Node) -> Result<Vec<Node>, MergeError> {
        match side.value() {
            Value::Seq(items) | Value::Tuple(items) => {
                self.charge(items.len())?;
                Ok(items.items().to_vec())
            }
            Value::Map(m) => {
                self.charge(m.len())?;
                let mut entries: Vec<Node> = m
                    .iter()
                    .map(|(k, v)| {
                        let span = if v.is_null() { k.span() } else { v.span() };
                        Node::new(Value::Str(self.rules.flatten_entry(k, v)), span)
                    })
                    .collect();
                // Sorted by code points, as the texts compare (Go's byte order
                // of UTF-8 is the same order).
                entries.sort_by(|a, b| text_bytes(a).cmp(text_bytes(b)));
                Ok(entries)
            }
            Value::Str(_) => Ok(vec![side.clone()]),
            _ => Ok(Vec::new()),
        }
    }

    pub(super) fn iterate(&mut self, new: &Node) -> Result<Vec<Node>, MergeError> {
        let n = match new.value() {
            Value::Str(s) => s.as_wtf8().len(),
            Value::Bytes(b) => b.len(),
            Value::Seq(s) | Value::Tuple(s) => s.len(),
            Value::Map(m) | Value::Set(m) => m.len(),
            _ => 0,
        };
        self.charge(n)?;
        py_iter(new)
    }

    pub(super) fn str(
        &mut self,
        s: &StrStrategy,
        old: &Node,
        new: &Node,
    ) -> Result<Node, MergeError> {
        match s.mode {
            StrMode::Replace => {
                self.emit(Decision::Replaced, Some(old), Some(new));
                Ok(new.clone())
            }
            StrMode::Append => {
                let (Value::Str(a), Value::Str(b)) = (old.value(), new.value()) else {
                    return Err(MergeError::type_error(format!(
                        "can only concatenate str (not \"{}\") to str",
                        new.type_name()
                    )));
                };
                self.charge(a.as_wtf8().len().saturating_add(b.as_wtf8().len()))?;
                self.emit(Decision::Appended, Some(old), Some(new));
                let mut out = PyStrBuilder::with_capacity(a.as_wtf8().len() + b.as_wtf8().len());
                out.push_py(a);
                out.push_py(b);
                Ok(Node::new(Value::Str(out.finish()), old.span()))
            }
        }
    }
}

/// A string node's bytes (WTF-8); empty for any other value.
fn text_bytes(node: &Node) -> &[u8] {
    match node.value() {
        Value::Str(s) => s.as_wtf8(),
        _ => &[],
    }
}

/// `entries` less the ones at the indices in `deleted` (any order; duplicates allowed).
fn without(entries: Entries, mut deleted: Vec<usize>) -> Entries {
    if deleted.is_empty() {
        return entries;
    }
    deleted.sort_unstable();
    entries
        .into_iter()
        .enumerate()
        .filter(|(i, _)| deleted.binary_search(i).is_err())
        .map(|(_, e)| e)
        .collect()
}
