//! `QueryError`: why `cloud-init query` has nothing to print.

/// Why [`super::find_var`] finds no value, or [`super::query_text`] cannot print one; the
/// message is cloud-init's (or Python's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// The path's first key is not in the instance data.
    #[error("Undefined instance-data key '{varname}'")]
    UndefinedKey {
        /// The whole path asked for (`ds.meta_data.region`).
        varname: String,
    },
    /// A later key is missing.
    #[error("instance-data '{walked}' has no '{key}'")]
    NoKey {
        /// The path walked so far (`ds.meta_data`).
        walked: String,
        /// The key it lacks.
        key: String,
    },
    /// The value cannot be written as JSON (`json_dumps` raises): Python's message.
    #[error("{0}")]
    NotJson(String),
}
