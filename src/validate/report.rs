//! `Report`: everything `validate` found, with the sources its diagnostics point into.

use crate::diagnostic::{Diagnostic, Severity, SourceMap};
use crate::userdata::Folded;

/// What `validate` found.
#[derive(Debug, Clone)]
pub struct Report {
    /// Every diagnostic, in document order (the payload's own first, then by part).
    pub diagnostics: Vec<Diagnostic>,
    /// The document and every part, by the `SourceId` their spans carry.
    pub sources: SourceMap,
    /// The fold, unless cloud-init would abort (its `cloud_config_txt` left empty:
    /// no check reads it).
    pub folded: Option<Folded>,
}

impl Report {
    /// How many diagnostics have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// Whether the fold stopped at one of cloudfold's own safety limits (raised with the flag
    /// the diagnostic names) rather than where cloud-init would.
    pub fn hit_limit(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.code == super::abort_kind::LIMIT_CODE)
    }

    /// Whether cloud-init would abort all user-data processing.
    pub fn aborted(&self) -> bool {
        self.folded.is_none()
    }

    /// The most severe diagnostic's severity.
    pub fn worst(&self) -> Option<Severity> {
        self.diagnostics
            .iter()
            .map(|d| d.severity)
            .max_by_key(|s| s.rank())
    }
}
