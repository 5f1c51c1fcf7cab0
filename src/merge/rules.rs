//! `Rules`: a dialect's table from (logical path, old value) to the strategy that merges there.

use super::{ItemIdentity, Knockout, MergeError, Path, Precedence, PyException, Strategy};
use crate::yaml::value::{Node, PyStr, PyStrBuilder, py_eq, py_str};

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

    /// The strategy for merging `new` into `old` at `path`, for tables that
    /// also look at new (Compose: a null new keeps old, a type mismatch is a
    /// conflict, a `!override` tag replaces). Defaults to
    /// [`Rules::strategy_for`].
    fn strategy_for_new(&self, path: &Path, old: &Node, new: &Node) -> Option<Strategy> {
        let _ = new;
        self.strategy_for(path, old).copied()
    }

    /// The identity of a list item at `path` for [`super::ListMode::Union`]
    /// and unique [`super::FlattenStrategy`]: items with equal keys are one
    /// item. `None`: the item has no key and is always kept.
    fn item_key(&self, path: &Path, item: &Node) -> Result<Option<String>, MergeError> {
        let _ = (path, item);
        Ok(None)
    }

    /// A mapping entry as one item of a flattened sequence: `key=value`, or
    /// the bare key when the value is null (values written as Python's
    /// `str()` does; dialects override for their own formatting).
    fn flatten_entry(&self, key: &Node, value: &Node) -> PyStr {
        let mut out = PyStrBuilder::new();
        out.push_py(&py_str(key));
        if !value.is_null() {
            out.push('=');
            out.push_py(&py_str(value));
        }
        out.finish()
    }

    /// Symmetric dialects: which value survives where two mappings meet at
    /// `path` (`old` is `None` for a key only in new). Default: merge.
    fn precedence(&self, _path: &Path, _old: Option<&Node>, _new: &Node) -> Precedence {
        Precedence::Merge
    }

    /// Symmetric dialects: `new` and the old value, of equal precedence,
    /// merged to `merged` (so a dialect can carry what it knows about them,
    /// e.g. their priority, over to it). `merged` may be the old value
    /// itself, edited in place.
    fn merged(&self, _new: &Node, _merged: &Node) {}

    /// Whether two values agree ([`super::Strategy::Unify`], de-duplication).
    /// Default: Python's `==`.
    fn equal(&self, a: &Node, b: &Node) -> bool {
        py_eq(a, b)
    }

    /// How the items of the list at `path` (the list's path) are identified
    /// for [`super::ListMode::ByIdentity`] (items with equal identities
    /// merge), worked out once for the list; `None`: no item has one.
    fn item_identity(&self, path: &Path) -> Option<Box<dyn ItemIdentity + '_>> {
        let _ = path;
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
