//! Merging value trees: a dialect-neutral engine driven by strategy tables, and the dialects (cloud-init first).
//!
//! The engine ([`merge_with`]) dispatches on the *old* value's type to the
//! [`Strategy`] a dialect's [`Rules`] give for it, applies it, and reports
//! each decision to an optional [`MergeObserver`]. Inputs are never
//! modified; values taken from new keep their nodes (spans, identity).
//! Errors carry the Python exception the reference tool raises
//! ([`MergeError`]).
//!
//! Adding a dialect: implement [`Rules`] (a type-only table like
//! [`cloud_init::MergerStack`], or one keyed by path, which then says so
//! with [`Rules::uses_path`]) and add the modes it needs to the strategy
//! enums in `strategy.rs` (e.g. Hiera's `unique` arrays or knockout prefix,
//! Compose's merge-by-key lists, a scalar strategy requiring equality for
//! Nickel), implementing each once in the engine. Dialect specifics (spec
//! syntax, defaults, error wording) live in the dialect's module.

mod engine;
mod limits;
mod merge_error;
mod observer;
mod path;
mod py_ops;
mod rules;
mod strategy;

pub mod cloud_init;
pub mod compose;
pub mod dialect;
pub mod hiera;
pub mod keyed;
pub mod nickel;

pub use engine::{merge_owned_with, merge_with};
pub use limits::{Limits, MAX_LEVELS};
pub use merge_error::{MergeError, PyException};
pub use observer::{
    Decision, KeepReason, MergeEvent, MergeObserver, NoObserver, Trace, TraceEntry,
};
pub use path::{Path, PathSeg};
pub use rules::Rules;
pub use strategy::{
    DictMode, DictStrategy, ListMode, ListStrategy, Recurse, StrMode, StrStrategy, Strategy,
    TypeClass,
};
