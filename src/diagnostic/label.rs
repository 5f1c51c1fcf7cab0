//! `Label`: one place a diagnostic points at (a span, a logical path, a short message).

use crate::source::{SourceId, Span};

/// A place in a source text that a diagnostic points at.
///
/// The span says where (which source, start and end marks); the logical path says
/// which value (`$.runcmd[2]`) for readers of the merged result; the message says
/// what is there ("replaced here"). A label whose span has `SourceId::UNKNOWN`
/// points at no text (a value built in code); renderers then show only its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// Which value, as `$.a.b[2]`.
    pub path: Option<String>,
    /// What is there.
    pub message: Option<String>,
}

impl Label {
    /// A label at `span`, with no path or message.
    pub fn new(span: Span) -> Self {
        Label {
            span,
            path: None,
            message: None,
        }
    }

    /// A label that points at no source text, only at a logical path.
    pub fn at_path(path: impl Into<String>) -> Self {
        Label {
            span: Span::unknown(),
            path: Some(path.into()),
            message: None,
        }
    }

    /// The same label with a logical path.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The same label with a message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Which source the span points into (`None`: no source text).
    pub fn source(&self) -> Option<SourceId> {
        (self.span.source != SourceId::UNKNOWN).then_some(self.span.source)
    }
}
