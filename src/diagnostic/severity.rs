//! `Severity`: how bad a diagnostic is.

use std::fmt;

/// How bad a diagnostic is, most severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// cloud-init will not do what the user wrote (a part is dropped, the payload is too big).
    Error,
    /// Probably a mistake; cloud-init goes on (a list silently replaced, an option typo).
    Warning,
    /// Worth knowing; nothing is wrong.
    Note,
    /// A suggestion.
    Help,
}

impl Severity {
    /// The lowercase name used in output (`error`, `warning`, `note`, `help`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Help => "help",
        }
    }

    /// Higher is worse: `Error` 3, `Warning` 2, `Note` 1, `Help` 0.
    pub const fn rank(self) -> u8 {
        match self {
            Severity::Error => 3,
            Severity::Warning => 2,
            Severity::Note => 1,
            Severity::Help => 0,
        }
    }

    /// Whether this is at least as severe as `other`.
    pub const fn at_least(self, other: Severity) -> bool {
        self.rank() >= other.rank()
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
