//! `Rules`: a dialect's table from (logical path, old value) to the strategy that merges there.

use super::{Knockout, Path, Strategy};
use crate::yaml::value::Node;

/// Which strategy merges new into `old` at `path`.
///
/// cloud-init's merger stack looks only at old's type (the first merger for
/// it wins, the same at every depth); dialects with per-path rules
/// (Compose's `services.*.ports`) also look at the path and say so with
/// [`Rules::uses_path`], so the engine tracks paths for them.
pub trait Rules {
    /// The strategy for `old` at `path`; `None` keeps old unchanged.
    fn strategy_for(&self, path: &Path, old: &Node) -> Option<&Strategy>;

    /// Whether [`Rules::strategy_for`] reads the path (else the engine may
    /// pass the root path everywhere).
    fn uses_path(&self) -> bool {
        false
    }

    /// The knockout prefix [`super::LayerStrategy::Deep`] uses when its
    /// `knockout` option is set; `None` disables knockout.
    fn knockout(&self) -> Option<&Knockout> {
        None
    }
}
