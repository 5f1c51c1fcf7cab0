//! `VolumeSpecError`: why compose-go refuses a short volume spec.

/// Why [`super::parse_volume`] refuses a spec; the messages are compose-go's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VolumeSpecError {
    /// The spec is empty.
    #[error("invalid empty volume spec")]
    Empty,
    /// Two colons with nothing between them.
    #[error("invalid spec: {0}: empty section between colons")]
    EmptySection(String),
    /// More than `source:target:options`.
    #[error("invalid spec: {0}: too many colons")]
    TooManyColons(String),
}
