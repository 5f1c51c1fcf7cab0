//! `MergeTypeError`: why `build` refuses a merge type.

/// Why `build` refuses a merge spec ([`super::BuildError::BadMergeType`]): cloud-init would
/// reject or misread it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MergeTypeError {
    /// A character a header cannot carry.
    #[error("only printable ASCII is allowed in a header")]
    NotPrintable,
    /// cloud-init cannot parse the spec, or names a merger it does not have (its message).
    #[error("{0}")]
    Invalid(String),
    /// The spec names no merger.
    #[error("no merger given (cloud-init would use its default)")]
    Empty,
    /// A merger name that is not a string.
    #[error("merger names must be strings")]
    NameNotString,
    /// An option no merger tests (cloud-init would ignore it silently).
    #[error("{merger}() has no option '{option}' (known: {})", known.join(", "))]
    UnknownOption {
        /// The merger (`list`).
        merger: String,
        /// The option as written.
        option: String,
        /// The options it knows.
        known: Vec<&'static str>,
    },
}
