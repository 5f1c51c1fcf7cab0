//! `Unimplemented`: the answer of a dialect whose strategies have not landed yet (removed once all four have).

use super::DialectOutcome;
use crate::diagnostic::{Diagnostic, DiagnosticKind, Severity};
use std::fmt;

/// A dialect that cannot merge yet.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unimplemented(pub &'static str);

impl fmt::Display for Unimplemented {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} dialect is not implemented yet", self.0)
    }
}

impl DiagnosticKind for Unimplemented {
    fn code(&self) -> &'static str {
        "merge-dialect-unimplemented"
    }

    fn severity(&self) -> Severity {
        Severity::Error
    }
}

impl Unimplemented {
    pub(crate) fn outcome(self) -> DialectOutcome {
        DialectOutcome::failed(vec![Diagnostic::new(&self)])
    }
}
