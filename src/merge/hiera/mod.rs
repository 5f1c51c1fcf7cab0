//! The `hiera` dialect: Hiera 5's lookup merge behaviours (`first`, `unique`, `hash`, `deep`) as `puppet lookup` applies them.

use super::dialect::{DialectOutcome, Layer, Unimplemented};

/// A lookup merge behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HieraStrategy {
    /// The highest-priority value, no merge.
    #[default]
    First,
    /// Arrays and scalars flattened and de-duplicated, highest priority first.
    Unique,
    /// Top-level hash keys merged, higher priority wins.
    Hash,
    /// Recursive merge (deep_merge).
    Deep,
}

/// Options of a Hiera merge (the `puppet lookup` flags).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HieraOptions {
    /// `--merge`: overrides `lookup_options` for every key; `None` reads them from the data.
    pub strategy: Option<HieraStrategy>,
    /// `--knock-out-prefix` (deep only).
    pub knockout_prefix: Option<String>,
    /// `--sort-merged-arrays` (deep only).
    pub sort_merged_arrays: bool,
    /// `--merge-hash-arrays` (deep only).
    pub merge_hash_arrays: bool,
}

/// Merge `layers` (lowest priority first) as Hiera would look up each top-level key.
pub fn merge(layers: &[Layer], opts: &HieraOptions) -> DialectOutcome {
    let _ = (layers, opts);
    Unimplemented("hiera").outcome()
}
