//! Merging value trees: a dialect-neutral engine driven by strategy tables, and the dialects (cloud-init first).
//!
//! The engine (`merge_with`) dispatches on the *old* value's type to the
//! `Strategy` a dialect's `Rules` give for it, applies it, and reports
//! each decision to an optional `MergeObserver`. Inputs are never
//! modified; values taken from new keep their nodes (spans, identity).
//! Errors carry the Python exception the reference tool raises
//! (`MergeError`).
//!
//! Adding a dialect: implement `Rules` (a type-only table like
//! `cloud_init::MergerStack`, or one keyed by path, which then says so
//! with `Rules::uses_path`) and add the modes it needs to the strategy
//! enums in `strategy.rs` (e.g. Hiera's `unique` arrays or knockout prefix,
//! Compose's merge-by-key lists, a scalar strategy requiring equality for
//! Nickel), implementing each once in the engine. Dialect specifics (spec
//! syntax, defaults, error wording) live in the dialect's module.
//!
//! Symmetric dialects ([`nickel`], [`keyed`]) use `DictMode::Symmetric`
//! (keys in both settled by `Rules::precedence`: priorities, `!override`,
//! `!reset`), `ListMode::ByIdentity` (items merged by
//! `Rules::item_identity`, appended, or de-duplicated by `Rules::equal`) and
//! `Strategy::Unify` (equal or `Rules::conflict`). A `PriorityLedger`
//! carries priorities through a fold and defers conflicts, so a conflict a
//! later, higher priority erases is no error, as in Nickel's lazy merge.

mod decimal;
mod engine;
mod fingerprint;
mod first_repeat;
mod item_identity;
mod knockout;
mod knockout_error;
mod limits;
mod merge_error;
mod observer;
mod path;
mod path_query;
mod precedence;
mod priority;
mod priority_ledger;
mod py_ops;
mod regexp_error;
mod ruby;
mod rules;
mod strategy;
mod symmetric_error;
mod tag_lookup;

internal! { mod cloud_init; }
pub mod compose;
pub mod dialect;
pub mod hiera;
pub mod keyed;
pub mod nickel;

internal! { use decimal::Decimal; }
internal! { use engine::{NewSide, merge_owned_with, merge_with}; }
internal! { use fingerprint::fingerprint; }
internal! { use first_repeat::{FirstEqual, Hashed, first_equal, first_repeat}; }
internal! { use item_identity::ItemIdentity; }
internal! { use knockout::Knockout; }
internal! { use knockout_error::KnockoutError; }
internal! { use limits::{Limits, MAX_LEVELS}; }
pub use merge_error::MergeError;
pub use merge_error::PyException;
internal! { use observer::{Decision, KeepReason, MergeEvent, MergeObserver, NoObserver, Trace, TraceEntry}; }
internal! { use path::{Path, PathSeg}; }
pub use path_query::PathQuery;
internal! { use path_query::{PathNotFound, PathSyntaxError}; }
internal! { use precedence::Precedence; }
internal! { use priority::Priority; }
internal! { use priority_ledger::{Conflict, PriorityLedger}; }
internal! { use regexp_error::RegexpError; }
internal! { use ruby::RubyRegexp; }
internal! { use rules::Rules; }
internal! { use ruby::{ruby_class, ruby_cmp, ruby_inspect_str, ruby_sort, ruby_to_s}; }
internal! { use strategy::{DeepOptions, DictMode, DictStrategy, FlattenStrategy, LayerStrategy, ListMode, ListStrategy, Recurse, StrMode, StrStrategy, Strategy, TypeClass, UnifyStrategy}; }
internal! { use ruby::{strict_eq, strict_hash, strict_union}; }
internal! { use symmetric_error::{DuplicateIdentity, SymmetricError, place}; }
internal! { use tag_lookup::{NoTags, TagLookup}; }
