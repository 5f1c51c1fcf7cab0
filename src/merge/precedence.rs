//! `Precedence`: which of two values meeting at a mapping key survives before any merging (priorities, `!override`, `!reset`).

/// The answer of [`super::Rules::precedence`] in [`super::DictMode::Symmetric`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// Same rank: merge old and new through the table.
    Merge,
    /// Old outranks new: new is dropped (Nickel: the higher priority erases the lower).
    Old,
    /// New outranks or overrides old: old is dropped, new taken as it is.
    New,
    /// The key is removed (a `!reset`): neither value survives.
    Drop,
}
