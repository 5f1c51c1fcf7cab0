//! `SchemaError`: why a JSON schema could not be read.

/// Why [`super::JsonSchema`] could not be built from a text, a JSON value or cloudfold's
/// schema facts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// The text is not JSON (serde_json's message).
    #[error("not a JSON schema: {0}")]
    NotJson(String),
    /// The document is JSON but not an object.
    #[error("not a JSON schema: the document is not an object")]
    NotAnObject,
    /// cloudfold's own schema facts file does not parse (a bug in cloudfold):
    /// `schema facts line N: …`.
    #[error("{0}")]
    Facts(String),
}
