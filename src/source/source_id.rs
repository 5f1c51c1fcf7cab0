//! `SourceId`: which input (part, file, fragment) a span points into.

/// Identifies one source text (a user-data part, a manifest, a merge fragment).
///
/// Stages hand out ids; only the caller knows what they name (a part number, a
/// file path). `SourceId::UNKNOWN` is for values built in code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SourceId(pub u32);

impl SourceId {
    /// A value that was not read from any source.
    pub const UNKNOWN: SourceId = SourceId(u32::MAX);
}
