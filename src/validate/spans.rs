//! Span helpers: marks for byte offsets, whole lines, and the first occurrence of a text.

use crate::source::{Mark, SourceId, Span};

/// The mark of byte offset `at` in `text` (0-based line, column in code points;
/// lines end at `\n`). `at` is clamped to the text and moved back to a character boundary.
pub fn mark_at(text: &str, at: usize) -> Mark {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = text.get(..at).unwrap_or("");
    let line = before.bytes().filter(|b| *b == b'\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).map_or(0, |s| s.chars().count());
    Mark::new(
        at,
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// From `start` to the end of its line (the line break excluded).
pub fn rest_of_line(source: SourceId, text: &str, start: usize) -> Span {
    let begin = mark_at(text, start);
    let tail = text.get(begin.index..).unwrap_or("");
    let len = tail.find(['\n', '\r']).unwrap_or(tail.len());
    Span::new(source, begin, mark_at(text, begin.index + len))
}

/// One character at `mark` (or an empty span at the end of the text).
pub fn one_char(source: SourceId, text: &str, mark: Mark) -> Span {
    let len = text
        .get(mark.index..)
        .and_then(|t| t.chars().next())
        .map_or(0, char::len_utf8);
    let end = Mark::new(
        mark.index + len,
        mark.line,
        mark.column + u32::from(len > 0),
    );
    Span::new(source, mark, end)
}

/// The first occurrence of `needle` in `text`.
pub fn find(source: SourceId, text: &str, needle: &str) -> Option<Span> {
    if needle.is_empty() {
        return None;
    }
    let at = text.find(needle)?;
    Some(Span::new(
        source,
        mark_at(text, at),
        mark_at(text, at + needle.len()),
    ))
}

/// The first line that is not blank (the part's header line, usually).
pub fn first_line(source: SourceId, text: &str) -> Span {
    let start = text
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map_or(0, |(i, _)| i);
    rest_of_line(source, text, start)
}

/// The first occurrence of `needle` inside `span` (ASCII case-insensitive, `-` and `_`
/// alike, as merge specs are normalised), else `span` itself.
pub fn narrow(span: Span, text: &str, needle: &str) -> Span {
    let norm = |b: u8| {
        if b == b'-' {
            b'_'
        } else {
            b.to_ascii_lowercase()
        }
    };
    let hay = text.as_bytes();
    let (start, end) = (
        span.start.index.min(hay.len()),
        span.end.index.min(hay.len()),
    );
    let n: Vec<u8> = needle.bytes().map(norm).collect();
    if n.is_empty() || start >= end {
        return span;
    }
    let window = hay.get(start..end).unwrap_or(&[]);
    match window
        .windows(n.len())
        .position(|w| w.iter().map(|b| norm(*b)).eq(n.iter().copied()))
    {
        Some(at) => Span::new(
            span.source,
            mark_at(text, start + at),
            mark_at(text, start + at + n.len()),
        ),
        None => span,
    }
}
