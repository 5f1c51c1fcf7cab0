//! `MergeObserver`, `MergeEvent`, `Decision` and `Trace`: what the engine decided, for `explain`.

use super::{Path, PathSeg};
use crate::source::Span;
use crate::yaml::value::Node;

/// What the engine did with one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// A key absent from old was inserted with new's value.
    Added,
    /// New's value replaced old's (dict replace mode, list overlay element,
    /// string replace, a non-list replacing a list).
    Replaced,
    /// Old and new are merged through the strategy table (events below this
    /// path follow).
    Recursed,
    /// New was appended to old (list or string).
    Appended,
    /// New was put before old (list).
    Prepended,
    /// List overlay: new's first `min(old, new)` items laid over old's; new's
    /// items beyond old's length dropped, old's beyond new's kept.
    OverlaidTruncated {
        /// Length of old.
        old_len: usize,
        /// Length of new.
        new_len: usize,
    },
    /// Old was kept, for this reason.
    KeptOld(KeepReason),
    /// The key was deleted (new's value was null and deletion is allowed,
    /// or a `!reset`).
    Deleted,
    /// Old and new cannot merge (symmetric dialects); the dialect decides
    /// whether that fails now or later.
    Conflict,
}

/// Why old was kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeepReason {
    /// No strategy handles old's type (a scalar, or no merger for it).
    NoStrategy,
    /// The strategy ignores a new value of this type (a dict merger given a
    /// non-mapping).
    NewIgnored,
    /// Keep mode, and new's type is not one the strategy recurses into.
    NotRecursed,
    /// Index-wise keep mode of a list.
    NoReplace,
    /// Old's priority is higher than new's (symmetric dialects).
    Outranked,
    /// New equals old (symmetric dialects), or equals an item already in the list.
    Equal,
}

/// One decision, at a logical path.
#[derive(Clone, Copy, Debug)]
pub struct MergeEvent<'a> {
    /// Where (the key or index being decided).
    pub path: &'a Path,
    /// What.
    pub decision: Decision,
    /// The old value, if there was one.
    pub old: Option<&'a Node>,
    /// The new value, if there was one.
    pub new: Option<&'a Node>,
}

/// Receives the engine's decisions. The engine tracks paths only when
/// [`MergeObserver::enabled`] is true, so [`NoObserver`] costs nothing.
pub trait MergeObserver {
    /// Whether events are wanted at all.
    fn enabled(&self) -> bool {
        true
    }

    /// One decision.
    fn event(&mut self, event: &MergeEvent<'_>);
}

/// The observer that wants nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl MergeObserver for NoObserver {
    fn enabled(&self) -> bool {
        false
    }

    fn event(&mut self, _event: &MergeEvent<'_>) {}
}

/// One recorded decision.
#[derive(Clone, Debug)]
pub struct TraceEntry {
    /// The logical path, as segments.
    pub path: Vec<PathSeg>,
    /// The path as text (`$.runcmd[2]`).
    pub path_text: String,
    /// What was decided.
    pub decision: Decision,
    /// Span of the old value.
    pub old_span: Option<Span>,
    /// Span of the new value.
    pub new_span: Option<Span>,
}

/// An observer that records every decision.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The decisions in the order they were taken.
    pub entries: Vec<TraceEntry>,
}

impl MergeObserver for Trace {
    fn event(&mut self, event: &MergeEvent<'_>) {
        self.entries.push(TraceEntry {
            path: event.path.segments().to_vec(),
            path_text: event.path.to_string(),
            decision: event.decision,
            old_span: event.old.map(Node::span),
            new_span: event.new.map(Node::span),
        });
    }
}
