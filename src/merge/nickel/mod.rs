//! The `nickel` dialect: Nickel's `&` on plain data, with priorities written as YAML tags.
//!
//! Symmetric and commutative: records merge field by field, equal
//! primitives and equal arrays merge, anything else is a "non mergeable
//! terms" error naming both values. Numbers are rationals (`1.0` and `1`
//! are equal; integral results export as integers). Priorities come from
//! tags on mapping values: `!default` < `!priority:N` (any number; no tag is
//! `!priority:0`) < `!force`; the higher erases the lower, equal ones merge.
//! All of it is strategies on the one engine (`crate::merge::merge_with`):
//! `crate::merge::DictMode::Symmetric` with the priorities of a
//! `crate::merge::PriorityLedger`, and `crate::merge::Strategy::Unify`.

mod nickel_dialect;
mod nickel_merge;
mod nickel_rules;
mod nickel_value;

pub use nickel_dialect::merge;
pub(crate) use nickel_dialect::{LayerTags, layer_name};
internal! { use nickel_merge::{check_layer, export_numbers, merge_layers}; }
internal! { use nickel_rules::NickelRules; }
internal! { use nickel_value::{nickel_eq, nickel_number}; }
