//! `LineIndex`: byte offsets in one text turned into marks (line, column) without rescanning the text.

use super::Mark;
use std::cell::{Cell, OnceCell};

/// A text with the starts of its lines, found once, on the first lookup.
///
/// Counting line breaks from the start of the text for every mark made
/// `validate` quadratic: one `Merge-Type` header per part of a 5000-part
/// payload rescanned up to 4 MB each time (14 s). Lines end at `\n` only,
/// as in PyYAML's marks.
#[derive(Debug, Clone)]
pub struct LineIndex<'t> {
    text: &'t str,
    /// Byte offset of each line's first byte: 0, then one past each `\n`.
    starts: OnceCell<Vec<usize>>,
    /// The last mark's line start, offset and column: marks asked for left to
    /// right along one line count only the characters between them (a
    /// diagnostic per merger of a 1 MB `merge_how` line counted the line
    /// from its start each time: quadratic).
    last: Cell<(usize, usize, usize)>,
}

impl<'t> LineIndex<'t> {
    /// An index of `text` (nothing is scanned until a mark is asked for).
    pub fn new(text: &'t str) -> Self {
        LineIndex {
            text,
            starts: OnceCell::new(),
            last: Cell::new((usize::MAX, 0, 0)),
        }
    }

    /// The text.
    pub fn text(&self) -> &'t str {
        self.text
    }

    fn starts(&self) -> &[usize] {
        self.starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1))
                .collect()
        })
    }

    /// The 0-based line holding byte offset `at` (clamped to the text).
    pub fn line_of(&self, at: usize) -> usize {
        let at = at.min(self.text.len());
        // Lines starting at or before `at`; the first starts at 0.
        self.starts()
            .partition_point(|&s| s <= at)
            .saturating_sub(1)
    }

    /// The byte range of 0-based line `line`, its `\n` included (empty past the end).
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let starts = self.starts();
        let len = self.text.len();
        let start = starts.get(line).copied().unwrap_or(len);
        let end = starts.get(line + 1).copied().unwrap_or(len);
        start..end
    }

    /// The number of lines (a text ending in `\n` has an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts().len()
    }

    /// The mark of byte offset `at`: 0-based line, column in code points.
    /// `at` is clamped to the text and moved back to a character boundary.
    pub fn mark(&self, at: usize) -> Mark {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.line_of(at);
        let line_start = self.line_range(line).start;
        let count = |from: usize| self.text.get(from..at).map_or(0, |s| s.chars().count());
        let (last_start, last_at, last_column) = self.last.get();
        let column = if last_start == line_start && last_at <= at {
            last_column + count(last_at)
        } else {
            count(line_start)
        };
        self.last.set((line_start, at, column));
        Mark::new(
            at,
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mark counted from the start of the text, the way it was done
    /// before the index (the reference the index must equal).
    fn counted(text: &str, at: usize) -> Mark {
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = text.get(..at).unwrap();
        let line = before.bytes().filter(|b| *b == b'\n').count();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before.get(line_start..).unwrap().chars().count();
        Mark::new(at, line as u32, column as u32)
    }

    #[test]
    fn every_offset_gets_the_counted_mark() {
        let texts = [
            "",
            "\n",
            "a",
            "ab\ncd\n\nef",
            "é\n\r\nxü€\n😀😀\n",
            "no newline at all, just text",
            "\n\n\nthree empty lines first",
            "trailing\n",
        ];
        for text in texts {
            let index = LineIndex::new(text);
            // Past the end too: clamped.
            for at in 0..=text.len() + 2 {
                assert_eq!(index.mark(at), counted(text, at), "{text:?} at {at}");
            }
            // Backwards and skipping about: the last mark's column is reused only ahead of it.
            for at in (0..=text.len() + 2).rev().chain([3, 1, 4, 1, 5, 9, 2, 6]) {
                assert_eq!(index.mark(at), counted(text, at), "{text:?} at {at}");
            }
        }
    }
}
