//! `PyError` and `ParseError`: the few ways reading MIME can fail outright.

use crate::source::Mark;

/// A Python exception that `email` raises for some inputs (cloud-init does not
/// catch these, so processing of the whole user-data aborts).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PyError {
    /// RFC 2231 parameter sections both with and without a number
    /// (`name*=…; name*0=…`): sorting them compares `None` with `int`.
    #[error(
        "TypeError: '<' not supported between instances of 'int' and 'NoneType' (RFC 2231 parameter `{param}` has both numbered and unnumbered sections)"
    )]
    MixedRfc2231Sections {
        /// The parameter name.
        param: String,
    },
    /// An RFC 2231 section number with more than 4300 digits (Python's int limit).
    #[error(
        "ValueError: Exceeds the limit (4300 digits) for integer string conversion (RFC 2231 section number of parameter `{param}`)"
    )]
    SectionNumberTooLong {
        /// The parameter name.
        param: String,
    },
    /// An RFC 2231 charset containing a NUL character.
    #[error("ValueError: embedded null character in RFC 2231 charset")]
    NulInCharset,
}

impl PyError {
    /// The Python exception class name.
    pub fn python_class(&self) -> &'static str {
        match self {
            PyError::MixedRfc2231Sections { .. } => "TypeError",
            PyError::SectionNumberTooLong { .. } | PyError::NulInCharset => "ValueError",
        }
    }
}

/// Why [`parse`](super::parse) gave no message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Python raised while parsing (e.g. on the `boundary` parameter of a multipart).
    #[error("{error} (at {at})")]
    Python {
        /// The exception.
        error: PyError,
        /// Start of the part whose header raised.
        at: Mark,
    },
    /// Containers nested deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
    #[error("MIME parts nested more than {limit} levels deep (at {at})")]
    TooDeep {
        /// The limit.
        limit: usize,
        /// Start of the part that would exceed it.
        at: Mark,
    },
}
