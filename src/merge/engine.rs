//! The merge engine: walks old and new, asks the dialect's [`Rules`] for a strategy, applies it.

use super::py_ops::{Indexable, py_iter};
use super::{
    Decision, DictMode, DictStrategy, KeepReason, Limits, ListMode, ListStrategy, MAX_LEVELS,
    MergeError, MergeEvent, MergeObserver, Path, PathSeg, PyException, Rules, StrMode, StrStrategy,
    Strategy,
};
use crate::yaml::value::{Entries, Key, Map, Node, PyStrBuilder, Seq, Value, insert};

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
    let track = observer.enabled() || rules.uses_path();
    let mut walk = Walk {
        rules,
        observer,
        track,
        path: Path::root(),
        limits: *limits,
        work: 0,
    };
    walk.merge(
        old,
        new,
        Depth {
            frames: 0,
            level: 0,
        },
    )
    .map_err(MergeError::rooted)
}

struct Walk<'a, R: ?Sized, O: ?Sized> {
    rules: &'a R,
    observer: &'a mut O,
    track: bool,
    path: Path,
    limits: Limits,
    work: usize,
}

impl<R: Rules + ?Sized, O: MergeObserver + ?Sized> Walk<'_, R, O> {
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
        self.charge(1)?;
        let strategy = self.rules.strategy_for(&self.path, old).copied();
        if depth.frames.saturating_add(PEAK) > self.limits.python_frames
            || depth.level >= MAX_LEVELS
        {
            return Err(MergeError::new(
                PyException::RecursionError,
                "maximum recursion depth exceeded",
            ));
        }
        match (strategy, old.value()) {
            (Some(Strategy::Dict(s)), Value::Map(m)) => self.dict(&s, old, m, new, depth),
            (Some(Strategy::List(s)), Value::Seq(items)) => {
                self.list(&s, old, items, false, new, depth)
            }
            (Some(Strategy::List(s)), Value::Tuple(items)) => {
                self.list(&s, old, items, true, new, depth)
            }
            (Some(Strategy::Str(s)), Value::Str(_)) => self.str(&s, old, new),
            // No strategy (or a table that returned one for another type):
            // old stays.
            _ => {
                self.emit(
                    Decision::KeptOld(KeepReason::NoStrategy),
                    Some(old),
                    Some(new),
                );
                Ok(old.clone())
            }
        }
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
            let found = entries
                .get_full(&Key(k.clone()))
                .map(|(i, _, old_v)| (i, old_v.clone()));
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
                        DictMode::Keep if s.recurse.wants(v) => {
                            self.emit(Decision::Recursed, Some(&old_v), Some(v));
                            self.merge(&old_v, v, depth.deeper(DICT_LEVEL))
                                .map_err(|e| e.under(&PathSeg::Key(k.clone())))?
                        }
                        DictMode::Keep => {
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
        if !deleted.is_empty() {
            deleted.sort_unstable();
            entries = entries
                .into_iter()
                .enumerate()
                .filter(|(i, _)| deleted.binary_search(i).is_err())
                .map(|(_, e)| e)
                .collect();
        }
        Ok(Node::new(Value::Map(Map::new(entries)), old.span()))
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
                        self.emit(Decision::Recursed, Some(slot), Some(&nv));
                        *slot = self
                            .merge(slot, &nv, depth.deeper(step))
                            .map_err(|e| e.under(&PathSeg::Index(i)))?;
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
