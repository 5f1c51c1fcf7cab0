//! Span helpers: whole lines, one character, the first occurrence of a text, where include URLs are, as spans.

use crate::source::{LineIndex, Mark, SourceId, Span};
use std::collections::HashMap;

/// From `start` to the end of its line (the line break excluded).
pub(super) fn rest_of_line(source: SourceId, lines: &LineIndex<'_>, start: usize) -> Span {
    let begin = lines.mark(start);
    let tail = lines.text().get(begin.index..).unwrap_or("");
    let len = tail.find(['\n', '\r']).unwrap_or(tail.len());
    Span::new(source, begin, lines.mark(begin.index + len))
}

/// One character at `mark` (or an empty span at the end of the text).
pub(super) fn one_char(source: SourceId, text: &str, mark: Mark) -> Span {
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
pub(super) fn find(source: SourceId, lines: &LineIndex<'_>, needle: &str) -> Option<Span> {
    if needle.is_empty() {
        return None;
    }
    let at = lines.text().find(needle)?;
    Some(Span::new(
        source,
        lines.mark(at),
        lines.mark(at + needle.len()),
    ))
}

/// Where each URL an include line can name first appears in the text: the
/// line trimmed, and for an `#include URL` (`#include-once URL`) line the URL
/// after the marker. One pass over the text: searching it again for every
/// URL that could not be fetched was quadratic in the includes.
pub(super) fn include_urls_at<'t>(lines: &LineIndex<'t>) -> HashMap<&'t str, usize> {
    let text = lines.text();
    let mut out = HashMap::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        let at = start + (line.len() - line.trim_start().len());
        if !trimmed.is_empty() {
            out.entry(trimmed).or_insert(at);
        }
        for marker in ["#include-once", "#include"] {
            let head = trimmed.get(..marker.len());
            if head.is_some_and(|h| h.eq_ignore_ascii_case(marker)) {
                let rest = trimmed.get(marker.len()..).unwrap_or("");
                let url = rest.trim();
                if !url.is_empty() {
                    let skip = marker.len() + (rest.len() - rest.trim_start().len());
                    out.entry(url).or_insert(at + skip);
                }
                break;
            }
        }
        start += line.len();
    }
    out
}

/// The span of `url` starting at byte `at`.
pub(super) fn span_at(source: SourceId, lines: &LineIndex<'_>, at: usize, len: usize) -> Span {
    Span::new(source, lines.mark(at), lines.mark(at + len))
}

/// The first line that is not blank (the part's header line, usually).
pub(super) fn first_line(source: SourceId, lines: &LineIndex<'_>) -> Span {
    let start = lines
        .text()
        .char_indices()
        // Where our own diagnostic points, not an emulated Python check.
        .find(|(_, c)| !c.is_whitespace())
        .map_or(0, |(i, _)| i);
    rest_of_line(source, lines, start)
}

/// The first occurrence of `needle` inside `span` (ASCII case-insensitive, `-` and `_`
/// alike, as merge specs are normalised), else `span` itself.
pub(super) fn narrow(span: Span, lines: &LineIndex<'_>, needle: &str) -> Span {
    let norm = |b: u8| {
        if b == b'-' {
            b'_'
        } else {
            b.to_ascii_lowercase()
        }
    };
    let hay = lines.text().as_bytes();
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
            lines.mark(start + at),
            lines.mark(start + at + n.len()),
        ),
        None => span,
    }
}
