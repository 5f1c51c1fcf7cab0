//! The merge engine: walks old and new, asks the dialect's [`Rules`] for a strategy, applies it.
//!
//! One walk ([`Walk`]) in four files by concern: this one holds its entry
//! points, depth model and dispatch; `borrowed` the strategies on borrowed
//! values (the copying merge every caller can use); `owned` the in-place
//! merge of an accumulator nobody else refers to; `undo` how an owned
//! merge's in-place edits are rolled back on error; `layer` Hiera's layer
//! strategies.

mod borrowed;
mod layer;
mod owned;
mod undo;

pub use owned::NewSide;

use super::{
    Decision, DictMode, KeepReason, Limits, ListMode, MAX_LEVELS, MergeError, MergeEvent,
    MergeObserver, Path, PathSeg, PyException, Rules, Strategy,
};
use crate::yaml::value::{Node, Value};

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
