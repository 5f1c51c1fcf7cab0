//! The owned walk: merging into an `old` nobody else refers to by editing it in place, with an undo log so an error hands `old` back unchanged.

use super::undo::{Owned, Undo, rollback_entries};
use super::{DICT_LEVEL, Depth, Walk};
use crate::merge::{
    Decision, DictMode, DictStrategy, KeepReason, ListMode, MergeError, MergeObserver, PathSeg,
    Precedence, Rules, Strategy,
};
use crate::yaml::value::{Entries, Map, Node, Seq, Value, insert};

/// The new side of [`merge_owned_with`](super::merge_owned_with).
#[derive(Debug)]
pub enum NewSide<'n> {
    /// Borrowed: what the result takes from it is cloned.
    Lent(&'n Node),
    /// Borrowed to be emptied: a list or dict nothing else refers to gives
    /// up its items (moved).
    Given(&'n mut Node),
}

impl<'n> From<&'n Node> for NewSide<'n> {
    fn from(n: &'n Node) -> Self {
        NewSide::Lent(n)
    }
}

impl<'n> From<&'n mut Node> for NewSide<'n> {
    fn from(n: &'n mut Node) -> Self {
        NewSide::Given(n)
    }
}

impl NewSide<'_> {
    fn node(&self) -> &Node {
        match self {
            NewSide::Lent(n) => n,
            NewSide::Given(n) => n,
        }
    }

    /// The node itself for the result: cloned if lent, else taken (`hole`
    /// left in its place).
    fn take(self, hole: &Node) -> Node {
        match self {
            NewSide::Lent(n) => n.clone(),
            NewSide::Given(n) => std::mem::replace(n, hole.clone()),
        }
    }
}

/// A dict's entries on the new side, read by position (`Lent(None)`: none).
enum NewEntries<'n> {
    Lent(Option<&'n Map>),
    Given(&'n mut Entries),
}

impl NewEntries<'_> {
    fn len(&self) -> usize {
        match self {
            NewEntries::Lent(m) => m.map_or(0, Map::len),
            NewEntries::Given(e) => e.len(),
        }
    }

    /// Entry `i`: its key, and its value to merge.
    fn entry(&mut self, i: usize) -> Option<(&Node, NewSide<'_>)> {
        match self {
            NewEntries::Lent(m) => (*m)?.get_index(i).map(|(k, v)| (k, NewSide::Lent(v))),
            NewEntries::Given(e) => e.get_index_mut(i).map(|(k, v)| (&k.0, NewSide::Given(v))),
        }
    }
}

impl<R: Rules + ?Sized, O: MergeObserver + ?Sized> Walk<'_, R, O> {
    /// [`Walk::merge`] taking `old` by value. A container nobody else refers
    /// to is updated in place, so appending to a long list costs the items
    /// added, not the list's length (merging many parts stays linear). Same
    /// charges, events and result as `merge`; on error `old` comes back
    /// unchanged (undoing in-place edits), as Python never mutates its inputs.
    pub(super) fn merge_owned(&mut self, old: Node, new: NewSide<'_>, depth: Depth) -> Owned {
        if !old.is_unique() {
            return match self.merge(&old, new.node(), depth) {
                Ok(m) => Ok((m, Undo::Restore(old))),
                Err(e) => Err((e, old)),
            };
        }
        let strategy = match self.begin(&old, new.node(), depth) {
            Ok(s) => s,
            Err(e) => return Err((e, old)),
        };
        match (strategy, old.value(), new.node().value()) {
            (Some(Strategy::Dict(s)), Value::Map(_), Value::Map(nm))
                // Deletions reorder entries; those rare merges take the copying
                // path, as do symmetric dialects (priorities, conflicts).
                if !(s.allow_delete && nm.iter().any(|(_, v)| v.is_null()))
                    && s.mode != DictMode::Symmetric =>
            {
                self.dict_owned(&s, old, new, depth)
            }
            (Some(Strategy::Dict(s)), Value::Map(_), Value::Map(nm))
                if s.mode == DictMode::Symmetric && !self.drops_old_key(&old, new.node()) =>
            {
                self.dict_symmetric_owned(old, nm, depth)
            }
            (Some(Strategy::List(s)), Value::Seq(_), _) if s.mode == ListMode::Append => {
                self.append_owned(old, new)
            }
            (strategy, ..) => match self.dispatch(strategy, &old, new.node(), depth) {
                Ok(m) => Ok((m, Undo::Restore(old))),
                Err(e) => Err((e, old)),
            },
        }
    }

    /// Whether a symmetric merge of `new` into the mapping `old` would drop
    /// one of old's keys ([`Precedence::Drop`]): entries removed from the
    /// middle cannot be undone in place, so such merges take the copying path.
    fn drops_old_key(&mut self, old: &Node, new: &Node) -> bool {
        let (Some(om), Some(nm)) = (old.as_map(), new.as_map()) else {
            return false;
        };
        nm.iter().any(|(k, v)| {
            let Some(old_v) = om.get(k) else {
                return false;
            };
            self.enter(|| PathSeg::Key(k.clone()));
            let p = self.rules.precedence(&self.path, Some(old_v), v);
            self.leave();
            p == Precedence::Drop
        })
    }

    /// [`Walk::dict_symmetric`] on a map owned here (none of its keys
    /// dropped): entries edited in place, with an undo log. Same charges,
    /// events and result; a layer merged into a large accumulator costs its
    /// own keys, not the accumulator's (thousands of layers stay linear).
    fn dict_symmetric_owned(&mut self, mut old: Node, nm: &Map, depth: Depth) -> Owned {
        let om_len = old.as_map().map_or(0, Map::len);
        if let Err(e) = self.charge(om_len.saturating_add(nm.len())) {
            return Err((e, old));
        }
        let Some(entries) = map_in_place(&mut old) else {
            // Shared after all (an observer kept it): the copying merge,
            // charged above as it charges.
            let copied = old
                .as_map()
                .map(|om| self.dict_symmetric_entries(&old, om, nm, depth));
            return match copied {
                Some(Ok(m)) => Ok((m, Undo::Restore(old))),
                Some(Err(e)) => Err((e, old)),
                None => Err((MergeError::type_error("not a mapping"), old)),
            };
        };
        let hole = self.hole();
        let len = entries.len();
        let mut undo: Vec<(usize, Undo)> = Vec::new();
        for (k, v) in nm.iter() {
            self.enter(|| PathSeg::Key(k.clone()));
            let found = entries.get_index_of(k);
            let old_v = found.and_then(|i| entries.get_index(i)).map(|e| e.1);
            let precedence = self.rules.precedence(&self.path, old_v, v);
            match (found, precedence) {
                (None, Precedence::Merge | Precedence::New) => {
                    self.emit(Decision::Added, None, Some(v));
                    insert(entries, k.clone(), v.clone());
                }
                (None, Precedence::Old | Precedence::Drop) => {
                    self.emit(Decision::Deleted, None, Some(v));
                }
                (Some(i), Precedence::Old) => {
                    self.emit(
                        Decision::KeptOld(KeepReason::Outranked),
                        entries.get_index(i).map(|e| e.1),
                        Some(v),
                    );
                }
                (Some(i), Precedence::New) => {
                    if let Some((_, slot)) = entries.get_index_mut(i) {
                        self.emit(Decision::Replaced, Some(slot), Some(v));
                        let prev = std::mem::replace(slot, v.clone());
                        undo.push((i, Undo::Restore(prev)));
                    }
                }
                (Some(i), Precedence::Merge) => {
                    if let Some((_, slot)) = entries.get_index_mut(i) {
                        self.emit(Decision::Recursed, Some(slot), Some(v));
                        let prev = std::mem::replace(slot, hole.clone());
                        match self.merge_owned(prev, NewSide::Lent(v), depth.deeper(DICT_LEVEL)) {
                            Ok((merged, u)) => {
                                self.rules.merged(v, &merged);
                                *slot = merged;
                                undo.push((i, u));
                            }
                            Err((e, prev)) => {
                                *slot = prev;
                                let e = e.under(&PathSeg::Key(k.clone()));
                                rollback_entries(entries, len, undo);
                                return Err((e, old));
                            }
                        }
                    }
                }
                // `drops_old_key` sent merges that drop an old key to the
                // copying path; should a table answer otherwise now, its
                // old value stays (nothing removed in place).
                (Some(i), Precedence::Drop) => {
                    self.emit(
                        Decision::KeptOld(KeepReason::Outranked),
                        entries.get_index(i).map(|e| e.1),
                        Some(v),
                    );
                }
            }
            self.leave();
        }
        Ok((old, Undo::Dict { len, slots: undo }))
    }

    /// `list(append)` on a list owned here: extended in place.
    fn append_owned(&mut self, mut old: Node, mut new: NewSide<'_>) -> Owned {
        // A list's items are added as they are, without a copy of the list
        // first; anything else as Python iterates it.
        let iterated = match new.node().value() {
            Value::Seq(s) | Value::Tuple(s) => self.charge(s.len()).map(|()| None),
            _ => self.iterate(new.node()).map(Some),
        };
        let old_len = old.as_seq().map_or(0, Seq::len);
        let iterated = match iterated.and_then(|i| self.charge(old_len).map(|()| i)) {
            Ok(i) => i,
            Err(e) => return Err((e, old)),
        };
        self.emit(Decision::Appended, Some(&old), Some(new.node()));
        if let Some(items) = seq_in_place(&mut old) {
            // A given list nobody else holds gives up its items (after the
            // event: an observer sees it whole); its emptied buffer stays
            // with it.
            match given_items(&iterated, &mut new) {
                Some(given) => items.append(given),
                None => items.extend_from_slice(added(&iterated, &new)),
            }
            return Ok((old, Undo::Truncate(old_len)));
        }
        // Shared after all (an observer kept it): the appended copy is new.
        let added = added(&iterated, &new);
        let mut items = Vec::with_capacity(old_len.saturating_add(added.len()));
        items.extend_from_slice(old.as_seq().map_or(&[], Seq::items));
        items.extend_from_slice(added);
        Ok((
            Node::new(Value::Seq(Seq::new(items)), old.span()),
            Undo::Restore(old),
        ))
    }

    /// [`Walk::dict`] on a map owned here, without deletions: entries are
    /// edited in place, recursing with ownership into the values it merges.
    fn dict_owned(
        &mut self,
        s: &DictStrategy,
        mut old: Node,
        new: NewSide<'_>,
        depth: Depth,
    ) -> Owned {
        let om_len = old.as_map().map_or(0, Map::len);
        let nm_len = new.node().as_map().map_or(0, Map::len);
        if let Err(e) = self.charge(om_len.saturating_add(nm_len)) {
            return Err((e, old));
        }
        // A given dict nobody else holds gives up the values it adds (a
        // pending one has none).
        let mut from = match new {
            NewSide::Given(n) if n.is_unique() => {
                map_in_place(n).map_or(NewEntries::Lent(None), NewEntries::Given)
            }
            NewSide::Given(n) => NewEntries::Lent(Node::as_map(n)),
            NewSide::Lent(n) => NewEntries::Lent(n.as_map()),
        };
        if let Some(entries) = map_in_place(&mut old) {
            let len = entries.len();
            return match self.dict_edit(s, entries, &mut from, depth) {
                Ok(slots) => Ok((old, Undo::Dict { len, slots })),
                Err(e) => Err((e, old)),
            };
        }
        // Shared after all (an observer kept it): edit a copy.
        let mut entries = old.as_map().map(Map::to_entries).unwrap_or_default();
        match self.dict_edit(s, &mut entries, &mut from, depth) {
            Ok(_) => Ok((
                Node::new(Value::Map(Map::new(entries)), old.span()),
                Undo::Restore(old),
            )),
            Err(e) => Err((e, old)),
        }
    }

    /// `dict_owned`'s edits of `entries` with new's entries `from`: the undo
    /// log of the slots it changed, or the error with `entries` as they were.
    fn dict_edit(
        &mut self,
        s: &DictStrategy,
        entries: &mut Entries,
        from: &mut NewEntries<'_>,
        depth: Depth,
    ) -> Result<Vec<(usize, Undo)>, MergeError> {
        let hole = self.hole();
        let orig_len = entries.len();
        let mut undo: Vec<(usize, Undo)> = Vec::new();
        // Where the next key probably is: after the last one found.
        let mut hint = 0;
        for at in 0..from.len() {
            let Some((k, v)) = from.entry(at) else {
                break;
            };
            self.enter(|| PathSeg::Key(k.clone()));
            let found = entries.get_index_of_near(k, hint);
            if let Some(i) = found {
                hint = i + 1;
            }
            match (found, s.mode) {
                (None, _) => {
                    self.emit(Decision::Added, None, Some(v.node()));
                    insert(entries, k.clone(), v.take(&hole));
                }
                (Some(i), DictMode::Replace) => {
                    if let Some((_, slot)) = entries.get_index_mut(i) {
                        self.emit(Decision::Replaced, Some(slot), Some(v.node()));
                        let prev = std::mem::replace(slot, v.take(&hole));
                        undo.push((i, Undo::Restore(prev)));
                    }
                }
                (Some(i), DictMode::Merge) | (Some(i), DictMode::Keep)
                    if s.mode == DictMode::Merge || s.recurse.wants(v.node()) =>
                {
                    if let Some((_, slot)) = entries.get_index_mut(i) {
                        self.emit(Decision::Recursed, Some(slot), Some(v.node()));
                        let prev = std::mem::replace(slot, hole.clone());
                        match self.merge_owned(prev, v, depth.deeper(DICT_LEVEL)) {
                            Ok((merged, u)) => {
                                *slot = merged;
                                undo.push((i, u));
                            }
                            Err((e, prev)) => {
                                *slot = prev;
                                let e = e.under(&PathSeg::Key(k.clone()));
                                rollback_entries(entries, orig_len, undo);
                                return Err(e);
                            }
                        }
                    }
                }
                // Taken by the recursing arm above (its guard is always true).
                (Some(_), DictMode::Merge) => {}
                (Some(i), DictMode::Keep) => {
                    self.emit(
                        Decision::KeptOld(KeepReason::NotRecursed),
                        entries.get_index(i).map(|e| e.1),
                        Some(v.node()),
                    );
                }
                // Not reached: `merge_owned` sends symmetric merges to `dict_symmetric`.
                (Some(_), DictMode::Symmetric) => {}
            }
            self.leave();
        }
        Ok(undo)
    }
}

/// A list's items to extend in place: `None` unless nothing else refers to
/// `node` and it is a list built whole.
fn seq_in_place(node: &mut Node) -> Option<&mut Vec<Node>> {
    match node.value_mut()? {
        Value::Seq(s) => s.items_mut(),
        _ => None,
    }
}

/// [`seq_in_place`] for a dict's entries.
fn map_in_place(node: &mut Node) -> Option<&mut Entries> {
    match node.value_mut()? {
        Value::Map(m) => m.entries_mut(),
        _ => None,
    }
}

/// The items of a given list nobody else refers to (none when Python
/// iterated the new value instead).
fn given_items<'a>(
    iterated: &Option<Vec<Node>>,
    new: &'a mut NewSide<'_>,
) -> Option<&'a mut Vec<Node>> {
    match (iterated, new) {
        (None, NewSide::Given(n)) => seq_in_place(n),
        _ => None,
    }
}

/// What `list(append)` adds: the items Python iterated, or the new list's own.
fn added<'a>(iterated: &'a Option<Vec<Node>>, new: &'a NewSide<'_>) -> &'a [Node] {
    match (iterated, new.node().value()) {
        (Some(items), _) => items,
        (None, Value::Seq(s) | Value::Tuple(s)) => s.items(),
        (None, _) => &[],
    }
}
