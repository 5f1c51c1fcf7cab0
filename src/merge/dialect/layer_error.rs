//! `LayerError`: why an input document of `cloudfold merge` could not be read.

use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// A merge input that is not a YAML document.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayerError {
    /// Not valid YAML, e.g. a tab where indentation is expected: `"a:\n\tb: 1\n"`.
    Yaml {
        /// The file.
        name: String,
        /// The loader's message.
        problem: String,
    },
    /// Bytes that do not decode (invalid UTF-8, a broken UTF-16 pair), e.g. `a: \xff`.
    Encoding {
        /// The file.
        name: String,
        /// The decoder's message.
        problem: String,
    },
}

impl fmt::Display for LayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerError::Yaml { name, problem } => write!(f, "{name} is not valid YAML: {problem}"),
            LayerError::Encoding { name, problem } => {
                write!(f, "{name} cannot be decoded: {problem}")
            }
        }
    }
}

impl DiagnosticKind for LayerError {
    fn code(&self) -> &'static str {
        match self {
            LayerError::Yaml { .. } => "merge-input-yaml",
            LayerError::Encoding { .. } => "merge-input-encoding",
        }
    }

    fn severity(&self) -> Severity {
        Severity::Error
    }
}
