//! `ComposeError`: why a Compose merge failed, in compose-go's words, with the places involved.

use super::super::dialect::Layer;
use crate::diagnostic::{Diagnostic, DiagnosticKind, Label, Severity};
use crate::merge::MergeError;
use crate::source::Span;

/// A failed Compose merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
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
    /// Nothing to merge.
    #[error("no compose files given")]
    NoFiles,
}

impl DiagnosticKind for ComposeError {
    fn code(&self) -> &'static str {
        match self {
            ComposeError::NotAMapping { .. } => "merge-compose-not-a-mapping",
            ComposeError::Invalid { .. } => "merge-compose-invalid",
            ComposeError::CannotOverride { .. } => "merge-compose-cannot-override",
            ComposeError::Merge(_) => "merge-compose-failed",
            ComposeError::NoFiles => "merge-compose-no-files",
        }
    }

    fn severity(&self) -> Severity {
        Severity::Error
    }

    fn help(&self) -> Option<String> {
        match self {
            ComposeError::CannotOverride { .. } => Some(
                "write both as the same kind of value, or tag the later one `!override` to replace the earlier"
                    .into(),
            ),
            _ => None,
        }
    }
}

impl ComposeError {
    /// The error as a diagnostic, labelled where it happened (`layers` names
    /// the files for messages that mention one).
    pub fn diagnostic(&self, layers: &[Layer]) -> Diagnostic {
        let d = Diagnostic::new(self);
        match self {
            ComposeError::NotAMapping { layer, span } => {
                let name = layers.get(*layer).map_or("", |l| l.name.as_str());
                d.with_primary(Label::new(*span).with_message(format!("{name} holds no mapping")))
            }
            ComposeError::Invalid { span, .. } => d.with_primary(Label::new(*span)),
            ComposeError::CannotOverride { path, old, new } => d
                .with_primary(
                    Label::new(*new)
                        .with_path(format!("$.{path}"))
                        .with_message("a later file gives a different kind of value here"),
                )
                .with_secondary(
                    Label::new(*old)
                        .with_path(format!("$.{path}"))
                        .with_message("the earlier value"),
                ),
            ComposeError::Merge(_) | ComposeError::NoFiles => d,
        }
    }
}
