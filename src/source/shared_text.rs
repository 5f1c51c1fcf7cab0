//! `SharedText`: a piece of a text that many owners hold at once (a MIME part's body is a slice of the payload, not a copy).

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A whole text that [`SharedText`] slices point into.
pub type TextSource = Arc<String>;

/// A string that is either a range of a shared [`TextSource`] or its own.
///
/// A payload's parts are most of its bytes: cut out as slices, they cost
/// neither a copy nor fresh memory, and cloning one clones a reference.
/// Equality, order and hashing are the text's.
#[derive(Clone)]
pub struct SharedText(Repr);

#[derive(Clone)]
enum Repr {
    /// `source[start..end]`, on character boundaries (checked when made).
    Slice {
        source: TextSource,
        start: usize,
        end: usize,
    },
    Owned(String),
}

impl SharedText {
    /// `source[range]`, sharing `source`; `None` if the range is out of
    /// bounds or not on character boundaries.
    pub fn slice(source: &TextSource, range: Range<usize>) -> Option<SharedText> {
        source.get(range.clone())?;
        Some(SharedText(Repr::Slice {
            source: Arc::clone(source),
            start: range.start,
            end: range.end,
        }))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Checked in `slice` and `truncate`.
            Repr::Slice { source, start, end } => source.get(*start..*end).unwrap_or_default(),
            Repr::Owned(s) => s,
        }
    }

    /// Keep the first `len` bytes, as `String::truncate` (nothing happens if
    /// `len` is not below the length or not on a character boundary).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() || !self.is_char_boundary(len) {
            return;
        }
        match &mut self.0 {
            Repr::Slice { start, end, .. } => *end = *start + len,
            Repr::Owned(s) => s.truncate(len),
        }
    }

    /// Whether this is a slice of a shared source (and so costs no copy).
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Slice { .. })
    }

    /// The text as an owned `String` (copied if shared).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Owned(s) => s,
            Repr::Slice { .. } => self.as_str().to_owned(),
        }
    }
}

impl Default for SharedText {
    fn default() -> Self {
        SharedText(Repr::Owned(String::new()))
    }
}

impl Deref for SharedText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for SharedText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<String> for SharedText {
    fn from(s: String) -> Self {
        SharedText(Repr::Owned(s))
    }
}

impl From<&str> for SharedText {
    fn from(s: &str) -> Self {
        SharedText(Repr::Owned(s.to_owned()))
    }
}

impl PartialEq for SharedText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SharedText {}

impl PartialEq<str> for SharedText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::hash::Hash for SharedText {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SharedText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_is_its_range_and_truncates_on_char_boundaries() {
        let src: TextSource = Arc::new("héllo wörld".to_owned());
        assert!(SharedText::slice(&src, 0..2).is_none(), "inside é");
        assert!(SharedText::slice(&src, 0..99).is_none());
        let mut t = SharedText::slice(&src, 7..13).unwrap();
        assert_eq!(t, "wörld");
        assert!(t.is_shared());
        t.truncate(2);
        assert_eq!(t, "wörld", "inside ö: unchanged");
        t.truncate(3);
        assert_eq!(t, "wö");
        t.truncate(1);
        assert_eq!(t, "w");
        t.truncate(5);
        assert_eq!(t.into_string(), "w");
        let mut o = SharedText::from("wörld");
        o.truncate(3);
        assert_eq!(o, "wö");
        assert_eq!(o, SharedText::slice(&src, 7..10).unwrap());
    }
}
