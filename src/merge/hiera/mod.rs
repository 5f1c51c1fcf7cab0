//! The `hiera` dialect: Hiera 5's lookup merge behaviours (`first`, `unique`, `hash`, `deep`) as `puppet lookup` applies them.
//!
//! Layers are given lowest priority first (as `cloudfold merge` takes
//! files); a Hiera hierarchy lists them highest first. Each top-level key
//! is looked up on its own, as `puppet lookup KEY` does: its merge
//! behaviour comes from the command line, else from `lookup_options` in the
//! data, else `first`. Behaviours map onto engine strategies
//! (`crate::merge::LayerStrategy`, the dict `replace` strategy for
//! `hash`); what `puppet lookup` checks and reorders around the merges
//! (type assertions, `unique`'s flattening, the fold from the highest
//! level down) lives here.

mod data_type;
mod dialect_merge;
mod hiera_error;
mod hiera_options;
mod hiera_warning;
mod hierarchy;
mod interpolation;
mod key_rules;
mod lookup_key;
mod lookup_options;
mod merge_behavior;

pub use dialect_merge::merge;
pub use hiera_error::HieraError;
pub use hiera_options::HieraOptions;
internal! { use hiera_warning::HieraWarning; }
internal! { use hierarchy::{HieraLayer, HieraMerged, Hierarchy, KeyMerge, LOOKUP_OPTIONS}; }
internal! { use lookup_options::LookupOptions; }
pub use merge_behavior::HieraStrategy;
internal! { use merge_behavior::MergeBehavior; }
