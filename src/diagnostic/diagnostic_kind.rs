//! `DiagnosticKind`: what each area's kind enum provides (code, severity, message, help).

use super::Severity;
use std::fmt;

/// One area's kinds of problem (implemented by an enum, one variant per kind).
///
/// `Display` writes the message, once, in one sentence without a trailing period
/// (`part 2 is not valid YAML: found a tab character where an indentation space is
/// expected`); labels, help and notes are added by [`Diagnostic`](super::Diagnostic).
pub trait DiagnosticKind: fmt::Display {
    /// The stable kebab-case code, starting with the area (`merge-unknown-option`).
    fn code(&self) -> &'static str;

    /// How bad it is.
    fn severity(&self) -> Severity;

    /// How to fix it, when there is a general answer.
    fn help(&self) -> Option<String> {
        None
    }
}
