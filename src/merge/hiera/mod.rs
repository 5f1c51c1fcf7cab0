//! Hiera 5's lookup merges (`puppet lookup` over a hierarchy of data files) as a dialect of the merge engine.
//!
//! Layers are given lowest priority first (as `cloudfold merge` takes
//! files); a Hiera hierarchy lists them highest first. Each top-level key
//! is looked up on its own, as `puppet lookup KEY` does: its merge
//! behaviour comes from the command line, else from `lookup_options` in the
//! data, else `first`. Behaviours map onto engine strategies
//! ([`crate::merge::LayerStrategy`], the dict `replace` strategy for
//! `hash`); what `puppet lookup` checks and reorders around the merges
//! (type assertions, `unique`'s flattening, the fold from the highest
//! level down) lives here.

mod data_type;
mod hiera_error;
mod hierarchy;
mod key_rules;
mod lookup_options;
mod merge_behavior;

pub use hiera_error::HieraError;
pub use hierarchy::{HieraLayer, HieraMerged, Hierarchy, KeyMerge};
pub use lookup_options::LookupOptions;
pub use merge_behavior::{HieraStrategy, MergeBehavior};
