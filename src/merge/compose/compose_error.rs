//! `ComposeError`: why a Compose merge failed, in compose-go's words, with the places involved.

use crate::merge::MergeError;
use crate::source::Span;

/// A failed Compose merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    /// A file's top level is not a mapping.
    #[error("Top-level object must be a mapping")]
    NotAMapping {
        /// Index of the file.
        layer: usize,
        /// Where its document is.
        span: Span,
    },
    /// A value compose-go cannot put in canonical form (a bad port or volume spec, …).
    #[error("{message}")]
    Invalid {
        /// compose-go's message.
        message: String,
        /// The offending value.
        span: Span,
    },
    /// A later file gives a different kind of value where the model has a
    /// mapping or a sequence.
    #[error("cannot override {path}")]
    CannotOverride {
        /// compose-go's path (`services.web.ports`).
        path: String,
        /// The earlier value.
        old: Span,
        /// The later value.
        new: Span,
    },
    /// The engine gave up (too deep, too much work) or an item had no key.
    #[error("{0}")]
    Merge(MergeError),
}
