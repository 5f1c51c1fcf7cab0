//! `HieraError`: why a Hiera lookup failed, with the places of the values involved.

use crate::diagnostic::{DiagnosticKind, Severity};
use crate::source::Span;
use std::fmt;

/// A failed lookup (or a failed reading of `lookup_options`, which fails
/// every lookup).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HieraError {
    /// The diagnostic code (`hiera-type`, `hiera-strategy`, …).
    pub code: &'static str,
    /// The key being looked up, if the error is about one.
    pub key: Option<String>,
    /// What went wrong (puppet's wording where practical).
    pub message: String,
    /// Where the values involved were read: for a conflict, the higher
    /// value first, then the lower.
    pub operands: Vec<Span>,
}

impl HieraError {
    /// An error with no location.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        HieraError {
            code,
            key: None,
            message: message.into(),
            operands: Vec::new(),
        }
    }

    /// The same error about `key`.
    pub fn for_key(mut self, key: &str) -> Self {
        if self.key.is_none() {
            self.key = Some(key.to_owned());
        }
        self
    }

    /// The same error, naming these values' places.
    pub fn with_operands(mut self, operands: impl IntoIterator<Item = Span>) -> Self {
        self.operands = operands.into_iter().collect();
        self
    }
}

impl fmt::Display for HieraError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = &self.key {
            write!(f, "lookup of '{k}': ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for HieraError {}

impl DiagnosticKind for HieraError {
    fn code(&self) -> &'static str {
        self.code
    }

    fn severity(&self) -> Severity {
        Severity::Error
    }
}
