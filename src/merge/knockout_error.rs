//! `KnockoutError`: why a knockout prefix is refused.

use super::RegexpError;

/// Why [`super::Knockout::new`] refuses a prefix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KnockoutError {
    /// An empty prefix (`deep_merge` raises).
    #[error("knockout_prefix cannot be an empty string in deep_merge!")]
    Empty,
    /// `^prefix` is not a regexp cloudfold can run.
    #[error("knockout prefix {prefix:?} as a regexp: {error}")]
    Regexp {
        /// The prefix as given.
        prefix: String,
        /// Why.
        error: RegexpError,
    },
}
