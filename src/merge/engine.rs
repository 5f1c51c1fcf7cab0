//! The merge engine: walks old and new, asks the dialect's [`Rules`] for a strategy, applies it.

use super::fingerprint::fingerprint;
use super::py_ops::{Indexable, py_iter};
use super::{
    Decision, DictMode, DictStrategy, FlattenStrategy, KeepReason, Limits, ListMode, ListStrategy,
    MAX_LEVELS, MergeError, MergeEvent, MergeObserver, Path, PathSeg, Precedence, PyException,
    Rules, StrMode, StrStrategy, Strategy,
};
use crate::yaml::value::{Entries, Key, Map, Node, PyStrBuilder, Seq, Value, insert};

// The layer strategies' walk (Hiera's first/unique/deep), kept apart.
#[path = "engine_layer.rs"]
mod layer;

// Frame costs of the model described at `Limits::python_frames`.
const PEAK: usize = 4;
const DICT_LEVEL: usize = 5;
const LIST_LEVEL: usize = 4;
const TUPLE_LEVEL: usize = 5;

/// How deep a merge call is: modelled Python frames and our own levels.
#[derive(Clone, Copy)]
struct Depth {
    frames: usize,
    level: usize,
}

impl Depth {
    /// The top-level merge call.
    const ROOT: Depth = Depth {
        frames: 0,
        level: 0,
    };

    fn deeper(self, frames: usize) -> Depth {
        Depth {
            frames: self.frames.saturating_add(frames),
            level: self.level + 1,
        }
    }
}

/// Merge `new` into `old` with `rules`, reporting decisions to `observer`.
///
/// Neither input is modified: containers built by the merge are new nodes
/// (with the span of the old container they replace); values taken from
/// `new` are its own nodes, so their spans and identity survive.
pub fn merge_with<R, O>(
    rules: &R,
    old: &Node,
    new: &Node,
    limits: &Limits,
    observer: &mut O,
) -> Result<Node, MergeError>
where
    R: Rules + ?Sized,
    O: MergeObserver + ?Sized,
{
    let mut walk = Walk::new(rules, observer, limits);
    walk.merge(old, new, Depth::ROOT)
        .map_err(MergeError::rooted)
}

/// [`merge_with`] consuming `old`: what nobody else refers to in `old` is
/// reused in place (appending to a long list no longer copies it), so a
/// caller folding many parts into one accumulator stays linear. The result,
/// events and errors are those of `merge_with`; on error `old` is handed
/// back with its value unchanged.
///
/// `new` is `&Node`, or `&mut Node` to have it emptied as the merge goes:
/// the items a list of `new` adds, and the values a dict of `new` adds, are
/// then moved into the result rather than cloned when nothing else refers
/// to that list or dict (a clone writes to every item, which the thread
/// that loaded `new` may have in its cache). What is left of `new` is for
/// the caller to drop; the result, events and errors are the same.
pub fn merge_owned_with<'n, R, O>(
    rules: &R,
    old: Node,
    new: impl Into<NewSide<'n>>,
    limits: &Limits,
    observer: &mut O,
) -> Result<Node, (MergeError, Node)>
where
    R: Rules + ?Sized,
    O: MergeObserver + ?Sized,
{
    let mut walk = Walk::new(rules, observer, limits);
    match walk.merge_owned(old, new.into(), Depth::ROOT) {
        Ok((merged, _)) => Ok(merged),
        Err((e, old)) => Err((MergeError::rooted(e), old)),
    }
}

/// The new side of [`merge_owned_with`].
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

struct Walk<'a, R: ?Sized, O: ?Sized> {
    rules: &'a R,
    observer: &'a mut O,
    track: bool,
    path: Path,
    limits: Limits,
    work: usize,
    /// A placeholder for a dict slot whose value is being merged (made once).
    hole: Option<Node>,
}

impl<'a, R: Rules + ?Sized, O: MergeObserver + ?Sized> Walk<'a, R, O> {
    /// A walk from the root; paths are tracked only when someone reads them.
    fn new(rules: &'a R, observer: &'a mut O, limits: &Limits) -> Self {
        let track = observer.enabled() || rules.uses_path();
        Walk {
            rules,
            observer,
            track,
            path: Path::root(),
            limits: *limits,
            work: 0,
            hole: None,
        }
    }

    fn hole(&mut self) -> Node {
        self.hole
            .get_or_insert_with(|| Node::synthetic(Value::Null))
            .clone()
    }

    fn emit(&mut self, decision: Decision, old: Option<&Node>, new: Option<&Node>) {
        if self.track {
            self.observer.event(&MergeEvent {
                path: &self.path,
                decision,
                old,
                new,
            });
        }
    }

    fn enter(&mut self, seg: impl FnOnce() -> PathSeg) {
        if self.track {
            self.path.push(seg());
        }
    }

    fn leave(&mut self) {
        if self.track {
            self.path.pop();
        }
    }

    fn charge(&mut self, units: usize) -> Result<(), MergeError> {
        self.work = self.work.saturating_add(units);
        if self.work > self.limits.max_work {
            return Err(MergeError::new(
                PyException::MemoryError,
                format!(
                    "the merge needs more than {} work units (shared aliases?)",
                    self.limits.max_work
                ),
            ));
        }
        Ok(())
    }

    fn merge(&mut self, old: &Node, new: &Node, depth: Depth) -> Result<Node, MergeError> {
        let strategy = self.begin(old, new, depth)?;
        self.dispatch(strategy, old, new, depth)
    }

    /// Reports `Recursed` and merges `new` into `old` at `depth`; an error
    /// is placed under `seg` (the entry's key or index).
    #[inline]
    fn recurse(
        &mut self,
        old: &Node,
        new: &Node,
        depth: Depth,
        seg: impl FnOnce() -> PathSeg,
    ) -> Result<Node, MergeError> {
        self.emit(Decision::Recursed, Some(old), Some(new));
        self.merge(old, new, depth).map_err(|e| e.under(&seg()))
    }

    /// What every merge call does first: count it, pick the strategy, check depth.
    fn begin(
        &mut self,
        old: &Node,
        new: &Node,
        depth: Depth,
    ) -> Result<Option<Strategy>, MergeError> {
        self.charge(1)?;
        let strategy = self.rules.strategy_for_new(&self.path, old, new);
        if depth.frames.saturating_add(PEAK) > self.limits.python_frames
            || depth.level >= MAX_LEVELS
        {
            return Err(MergeError::new(
                PyException::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        Ok(strategy)
    }

    fn dispatch(
        &mut self,
        strategy: Option<Strategy>,
        old: &Node,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        match (strategy, old.value()) {
            (Some(s), _) if is_symmetric(&s) => self.symmetric(s, old, new, depth),
            (Some(Strategy::Dict(s)), Value::Map(m)) => self.dict(&s, old, m, new, depth),
            (Some(Strategy::List(s)), Value::Seq(items)) => {
                self.list(&s, old, items, false, new, depth)
            }
            (Some(Strategy::List(s)), Value::Tuple(items)) => {
                self.list(&s, old, items, true, new, depth)
            }
            (Some(Strategy::Str(s)), Value::Str(_)) => self.str(&s, old, new),
            (Some(s @ (Strategy::Replace | Strategy::Conflict | Strategy::Flatten(_))), _)
            | (Some(s @ Strategy::Layer(_)), _) => self.whole_value(s, old, new, depth),
            // No strategy (or a table that returned one for another type):
            // old stays.
            _ => self.keep_old(old, new),
        }
    }

    /// Strategies that take the whole old value whatever its type
    /// (Compose's replace/conflict/flatten, Hiera's layers), kept out of
    /// [`Walk::dispatch`] so its stack frame (paid at every nesting level)
    /// stays small.
    #[inline(never)]
    fn whole_value(
        &mut self,
        strategy: Strategy,
        old: &Node,
        new: &Node,
        depth: Depth,
    ) -> Result<Node, MergeError> {
        match strategy {
            Strategy::Replace => {
                self.emit(Decision::Replaced, Some(old), Some(new));
                Ok(new.clone())
            }
            Strategy::Conflict => Err(MergeError::type_error("cannot override")),
            Strategy::Flatten(s) => self.flatten_seq(&s, old, new),
            Strategy::Layer(s) => self.layer(&s, old, new, depth),
            _ => self.keep_old(old, new),
        }
    }

    /// No strategy applies (or one given for another type): old stays.
    fn keep_old(&mut self, old: &Node, new: &Node) -> Result<Node, MergeError> {
        self.emit(
            Decision::KeptOld(KeepReason::NoStrategy),
            Some(old),
            Some(new),
        );
        Ok(old.clone())
    }

    fn dict(
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
    fn symmetric(
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
    fn dict_symmetric_entries(
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
        let mut items: Vec<Node> = old_items.items().to_vec();
        let mut by_id: indexmap::IndexMap<Key, usize> = indexmap::IndexMap::new();
        // Items by fingerprint, so de-duplication compares within buckets only.
        let mut buckets: std::collections::HashMap<u64, Vec<usize>> =
            std::collections::HashMap::new();
        let ids = self.rules.identities(&self.path, &items);
        for (i, (item, id)) in items.iter().zip(ids).enumerate() {
            if let Some(id) = id {
                by_id.entry(Key(id)).or_insert(i);
            } else if dedupe {
                buckets.entry(fingerprint(item)).or_default().push(i);
            }
        }
        // The rule is looked up once for the list, not per item (a table
        // search per item was a sixth of a keyed merge of long lists).
        let new_ids = self.rules.identities(&self.path, new_items.items());
        for (nv, id) in new_items.iter().zip(new_ids) {
            if let Some(id) = id {
                match by_id.get(&Key(id.clone())).copied() {
                    Some(i) => {
                        let Some(slot) = items.get(i).cloned() else {
                            continue;
                        };
                        self.enter(|| PathSeg::Index(i));
                        let merged = self
                            .recurse(&slot, nv, depth.deeper(LIST_LEVEL), || PathSeg::Index(i))?;
                        self.rules.merged(nv, &merged);
                        if let Some(s) = items.get_mut(i) {
                            *s = merged;
                        }
                        self.leave();
                        continue;
                    }
                    None => {
                        by_id.insert(Key(id), items.len());
                    }
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

    fn list(
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
                let added = self.iterate(new)?;
                self.charge(old_items.len())?;
                let mut items = Vec::with_capacity(old_items.len().saturating_add(added.len()));
                if s.mode == ListMode::Append {
                    self.emit(Decision::Appended, Some(old), Some(new));
                    items.extend_from_slice(old_items.items());
                    items.extend(added);
                } else {
                    self.emit(Decision::Prepended, Some(old), Some(new));
                    items.extend(added);
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

    /// [`Walk::merge`] taking `old` by value. A container nobody else refers
    /// to is updated in place, so appending to a long list costs the items
    /// added, not the list's length (merging many parts stays linear). Same
    /// charges, events and result as `merge`; on error `old` comes back
    /// unchanged (undoing in-place edits), as Python never mutates its inputs.
    fn merge_owned(&mut self, old: Node, new: NewSide<'_>, depth: Depth) -> Owned {
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
        for at in 0..from.len() {
            let Some((k, v)) = from.entry(at) else {
                break;
            };
            self.enter(|| PathSeg::Key(k.clone()));
            let found = entries.get_index_of(k);
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
    fn flatten_seq(
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

    fn iterate(&mut self, new: &Node) -> Result<Vec<Node>, MergeError> {
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

    fn str(&mut self, s: &StrStrategy, old: &Node, new: &Node) -> Result<Node, MergeError> {
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

/// Whether a strategy belongs to the symmetric dialects (handled by `Walk::symmetric`).
fn is_symmetric(s: &Strategy) -> bool {
    match s {
        Strategy::Dict(d) => d.mode == DictMode::Symmetric,
        Strategy::List(l) => matches!(l.mode, ListMode::ByIdentity { .. }),
        Strategy::Unify(_) => true,
        Strategy::Str(_)
        | Strategy::Layer(_)
        | Strategy::Replace
        | Strategy::Conflict
        | Strategy::Flatten(_) => false,
    }
}

/// An owned merge's result and how to undo it, or the error and `old` restored.
type Owned = Result<(Node, Undo), (MergeError, Node)>;

/// How to turn an owned merge's result back into its `old`.
enum Undo {
    /// `old` was left intact; here it is.
    Restore(Node),
    /// A list extended in place: cut it back to this length.
    Truncate(usize),
    /// A map edited in place: undo these slots (values merged or replaced at
    /// these positions), then drop the keys added past `len`.
    Dict {
        len: usize,
        slots: Vec<(usize, Undo)>,
    },
}

/// Undo `u` on `node` (built by the owned merge, so referenced only here).
fn undo(node: Node, u: Undo) -> Node {
    match u {
        Undo::Restore(old) => old,
        Undo::Truncate(len) => {
            let span = node.span();
            match node.try_into_value() {
                Ok(Value::Seq(seq)) => {
                    let mut items = seq.into_items();
                    items.truncate(len);
                    Node::new(Value::Seq(Seq::new(items)), span)
                }
                Ok(other) => Node::new(other, span),
                Err(shared) => shared,
            }
        }
        Undo::Dict { len, slots } => {
            let span = node.span();
            match node.try_into_value() {
                Ok(Value::Map(m)) => rollback(m.into_entries(), len, slots, span),
                Ok(other) => Node::new(other, span),
                Err(shared) => shared,
            }
        }
    }
}

/// A map's entries back as they were before an owned merge edited them.
fn rollback(
    mut entries: Entries,
    len: usize,
    slots: Vec<(usize, Undo)>,
    span: crate::source::Span,
) -> Node {
    rollback_entries(&mut entries, len, slots);
    Node::new(Value::Map(Map::new(entries)), span)
}

/// [`rollback`] in place.
fn rollback_entries(entries: &mut Entries, len: usize, slots: Vec<(usize, Undo)>) {
    for (i, u) in slots.into_iter().rev() {
        if let Some((_, slot)) = entries.get_index_mut(i) {
            let cur = std::mem::replace(slot, Node::synthetic(Value::Null));
            *slot = undo(cur, u);
        }
    }
    entries.truncate(len);
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
