//! `KeyRules`: the engine rules for merging one key's values (one strategy at every depth, plus the knockout prefix).

use crate::merge::{Knockout, Path, Rules, Strategy};
use crate::yaml::value::Node;

/// One Hiera merge behaviour as engine rules.
#[derive(Clone, Debug)]
pub(super) struct KeyRules {
    pub(super) strategy: Strategy,
    pub(super) knockout: Option<Knockout>,
}

impl Rules for KeyRules {
    fn strategy_for(&self, _path: &Path, _old: &Node) -> Option<&Strategy> {
        Some(&self.strategy)
    }

    fn knockout(&self) -> Option<&Knockout> {
        self.knockout.as_ref()
    }
}
