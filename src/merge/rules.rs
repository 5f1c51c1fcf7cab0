//! `Rules`: a dialect's table from (logical path, old value) to the strategy that merges there.

use super::{Knockout, MergeError, Path, Precedence, PyException, Strategy};
use crate::yaml::value::{Node, py_eq};

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

    /// Symmetric dialects: which value survives where two mappings meet at
    /// `path` (`old` is `None` for a key only in new). Default: merge.
    fn precedence(&self, _path: &Path, _old: Option<&Node>, _new: &Node) -> Precedence {
        Precedence::Merge
    }

    /// Symmetric dialects: `old` and `new` merged to `merged` (so a dialect
    /// can carry what it knows about them, e.g. their priority, over to it).
    fn merged(&self, _old: &Node, _new: &Node, _merged: &Node) {}

    /// Whether two values agree ([`super::Strategy::Unify`], de-duplication).
    /// Default: Python's `==`.
    fn equal(&self, a: &Node, b: &Node) -> bool {
        py_eq(a, b)
    }

    /// The identity of a list item at `path` (the list's path) for
    /// [`super::ListMode::ByIdentity`]: items with equal identities merge.
    fn identity(&self, _path: &Path, _item: &Node) -> Option<Node> {
        None
    }

    /// `old` and `new` cannot merge at `path`. The default fails; a dialect
    /// whose conflicts a higher priority may still erase returns a value
    /// standing for the conflict instead and reports it at the end.
    fn conflict(&self, path: &Path, old: &Node, new: &Node) -> Result<Node, MergeError> {
        let _ = (old, new);
        Err(MergeError::new(PyException::ValueError, "non mergeable terms").at(path.to_string()))
    }

    /// The knockout prefix [`super::LayerStrategy::Deep`] uses when its
    /// `knockout` option is set; `None` disables knockout.
    fn knockout(&self) -> Option<&Knockout> {
        None
    }
}
