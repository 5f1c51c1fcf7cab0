//! `HieraOptions`: the `puppet lookup` flags of a Hiera merge (`--merge`, `--knock-out-prefix`, …).

use super::{HieraError, HieraStrategy, MergeBehavior};

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

impl HieraOptions {
    /// The behaviour these flags select for every key (`None`: read
    /// `lookup_options`). Deep options without `deep` are refused, as
    /// `puppet lookup` refuses them.
    pub fn behavior(&self) -> Result<Option<MergeBehavior>, HieraError> {
        let deep_opts =
            self.knockout_prefix.is_some() || self.sort_merged_arrays || self.merge_hash_arrays;
        if deep_opts && self.strategy != Some(HieraStrategy::Deep) {
            return Err(HieraError::new(
                "hiera-strategy",
                "--knockout-prefix, --sort-merged-arrays and --merge-hash-arrays are only \
                 available with --strategy deep",
            ));
        }
        Ok(self.strategy.map(|st| MergeBehavior {
            strategy: st,
            knockout_prefix: self.knockout_prefix.clone(),
            sort_merged_arrays: self.sort_merged_arrays,
            merge_hash_arrays: self.merge_hash_arrays,
        }))
    }
}
