//! `PyError` and `ParseError`: the few ways reading MIME can fail outright.

use crate::source::Mark;

/// A Python exception that `email` raises for some inputs (cloud-init does not
/// catch these, so processing of the whole user-data aborts).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
    /// Parts nested deeper than the parser's generator chain can go (see
    /// [`MAX_DEPTH`](super::MAX_DEPTH) and [`MAX_MULTIPART_DEPTH`](super::MAX_MULTIPART_DEPTH)).
    #[error("RecursionError: maximum recursion depth exceeded (a part nested {depth} levels deep)")]
    RecursionError {
        /// Nesting level of the part (the root is 0).
        depth: usize,
    },
}

impl PyError {
    /// The Python exception class name.
    pub fn python_class(&self) -> &'static str {
        match self {
            PyError::MixedRfc2231Sections { .. } => "TypeError",
            PyError::SectionNumberTooLong { .. } | PyError::NulInCharset => "ValueError",
            PyError::RecursionError { .. } => "RecursionError",
        }
    }
}

/// Why [`parse`](super::parse) gave no message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// Python raised while parsing (e.g. on the `boundary` parameter of a multipart).
    #[error("{error} (at {at})")]
    Python {
        /// The exception.
        error: PyError,
        /// Start of the part whose header raised.
        at: Mark,
    },
    /// The parsed parts could not be assembled into a tree. No input reaches this
    /// (the root always exists); it stands where a panic would otherwise be.
    #[error(
        "internal error: the MIME tree could not be assembled (at {at}); please report this input"
    )]
    Internal {
        /// Start of the document.
        at: Mark,
    },
}
