//! `HieraError`: why a Hiera lookup failed, with the places of the values involved.

use crate::source::Span;

/// A failed lookup (or a failed reading of `lookup_options`, which fails
/// every lookup).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", key.as_deref().map(|k| format!("key '{k}': ")).unwrap_or_default())]
pub struct HieraError {
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
    pub fn new(message: impl Into<String>) -> Self {
        HieraError {
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
