//! `ShellifyError`: the `TypeError` `util.shellify` raises.

/// Why [`super::shellify`] cannot make a script; the message is the `TypeError` cloud-init
/// raises, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShellifyError {
    /// The value is not a list or tuple.
    #[error("Input to shellify was type '{type_name}'. Expected list or tuple.")]
    NotAList {
        /// Python's type name of the value (`dict`, `NoneType`).
        type_name: &'static str,
    },
    /// An item is not a list, string, tuple or `None`.
    #[error("Unable to shellify type '{type_name}'. Expected list, string, tuple. Got: {value}")]
    BadItem {
        /// Python's type name of the item.
        type_name: &'static str,
        /// Python's `str()` of the item.
        value: String,
    },
}
