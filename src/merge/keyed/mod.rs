//! The keyed `cloud-config` dialect: a strict, order-independent merge of cloud-config fragments before `build`.
//!
//! Mappings merge recursively; lists combine by the `IDENTITY_TABLE`
//! (commands append, sets append without repeats, lists of objects merge
//! item by item by their identity key: `write_files` by `path`, `users` by
//! `name`, …); scalars must agree, else the merge fails naming both
//! fragments — unless a tag settles it: `!default`, `!priority:N`, `!force`
//! (Nickel's priorities), `!override` (replace what earlier fragments gave),
//! `!reset` (remove it). Strategies on the one engine
//! (`crate::merge::merge_with`): `crate::merge::DictMode::Symmetric`,
//! `crate::merge::ListMode::ByIdentity`, `crate::merge::Strategy::Unify`.

mod directive;
mod identity_hashes;
mod identity_table;
mod keyed_dialect;
mod keyed_eq;
mod keyed_merge;
mod keyed_rules;
mod list_rule;

internal! { use directive::Directive; }
internal! { use identity_hashes::{IdentityHashes, KnownIdentities}; }
internal! { use identity_table::{IDENTITY_TABLE, IdentityRule, pattern_of, rule_for}; }
pub use keyed_dialect::merge;
internal! { use keyed_eq::keyed_eq; }
internal! { use keyed_merge::{FragmentMarks, merge_fragments, normalise_fragment}; }
internal! { use keyed_rules::{KeyedRules, identity_of}; }
internal! { use list_rule::ListRule; }
