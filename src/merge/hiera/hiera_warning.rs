//! `HieraWarning`: what puppet would warn about and skip (a data file that is not a hash, a key no lookup can name).

use crate::diagnostic::{DiagnosticKind, Severity};
use crate::source::Span;
use std::fmt;

/// A warning of a Hiera merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HieraWarning {
    /// The diagnostic code.
    pub code: &'static str,
    /// What was skipped and why.
    pub message: String,
    /// Where.
    pub at: Option<Span>,
}

impl fmt::Display for HieraWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl DiagnosticKind for HieraWarning {
    fn code(&self) -> &'static str {
        self.code
    }

    fn severity(&self) -> Severity {
        Severity::Warning
    }
}
