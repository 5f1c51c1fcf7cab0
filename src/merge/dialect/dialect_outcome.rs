//! `DialectOutcome`: what a dialect merge gives back — the merged document (unless it failed) and every diagnostic.

use crate::diagnostic::{Diagnostic, Severity};
use crate::yaml::value::Node;

/// The result of merging layers in one dialect.
#[derive(Debug, Clone, Default)]
pub struct DialectOutcome {
    /// The merged document; `None` when the merge failed (then at least one
    /// diagnostic is an error).
    pub merged: Option<Node>,
    /// Errors, warnings and notes, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

impl DialectOutcome {
    /// A successful merge with no diagnostics.
    pub fn merged(node: Node) -> Self {
        DialectOutcome {
            merged: Some(node),
            diagnostics: Vec::new(),
        }
    }

    /// A failed merge.
    pub fn failed(diagnostics: Vec<Diagnostic>) -> Self {
        DialectOutcome {
            merged: None,
            diagnostics,
        }
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}
