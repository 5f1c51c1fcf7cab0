//! `Mark` and `Span`: positions in a source text, as both bytes and line:column.

use super::SourceId;

/// A position in a source text.
///
/// `index` is a byte offset into the text as given (zero-copy slicing);
/// `line` and `column` are 0-based and count code points, as PyYAML's marks do,
/// so messages can say "line 3, column 9" exactly as PyYAML would (1-based there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Mark {
    /// Byte offset.
    pub index: usize,
    /// 0-based line.
    pub line: u32,
    /// 0-based column in code points.
    pub column: u32,
}

impl Mark {
    /// A mark at the given position.
    pub const fn new(index: usize, line: u32, column: u32) -> Self {
        Mark {
            index,
            line,
            column,
        }
    }
}

impl std::fmt::Display for Mark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line + 1, self.column + 1)
    }
}

/// A range of a source text: where a value, token or problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Which source.
    pub source: SourceId,
    /// First position (inclusive).
    pub start: Mark,
    /// End position (exclusive).
    pub end: Mark,
}

impl Span {
    /// A span in `source` from `start` to `end`.
    pub const fn new(source: SourceId, start: Mark, end: Mark) -> Self {
        Span { source, start, end }
    }

    /// The span of a value built in code, not read from a source.
    pub const fn unknown() -> Self {
        Span {
            source: SourceId::UNKNOWN,
            start: Mark::new(0, 0, 0),
            end: Mark::new(0, 0, 0),
        }
    }
}
