//! Writing one scalar in a chosen style: plain, single-quoted, double-quoted, literal.
//!
//! Long lines are folded at single spaces once the column passes the width;
//! continuation lines start at the scalar's indentation. Rules follow what
//! PyYAML 6.0.3 writes (checked against it by the differential tests).

use super::output::Output;
use super::scalar_analysis::{ascii_chunk, is_break, is_unicode_printable};
use super::text_unit::TextUnit;

const SPACE: u32 = 0x20;
const QUOTE: u32 = 0x27;
const NL: u32 = 0x0A;

fn unit<T: TextUnit>(text: &[T], i: usize) -> Option<u32> {
    text.get(i).map(|&c| c.into())
}

fn run<T: TextUnit>(text: &[T], from: usize, to: usize) -> &[T] {
    text.get(from..to).unwrap_or(&[])
}

/// Whether all eight bytes of `w` are in 0x21..=0x7E and none is `"` or `\`.
fn quoted_chunk(w: u64) -> bool {
    ascii_chunk(w, 0x21, b'"', b'\\')
}

/// A break character to write as-is (`None` means "\n").
fn break_char(c: u32) -> Option<u32> {
    (c != NL).then_some(c)
}

impl Output {
    /// Plain style (never multi-line: the analysis excludes breaks).
    pub(super) fn write_plain<T: TextUnit>(&mut self, text: &[T], split: bool, root: bool) {
        if root {
            self.open_ended = true;
        }
        if text.is_empty() {
            return;
        }
        if !self.whitespace {
            self.raw_str(" ");
        }
        self.whitespace = false;
        self.indention = false;
        if !split || self.column + text.len() <= self.best_width {
            // The column cannot pass the width: nothing to fold.
            self.raw(text);
            return;
        }
        let mut spaces = false;
        let mut start = 0;
        for end in 0..=text.len() {
            let ch = unit(text, end);
            if spaces {
                if ch != Some(SPACE) {
                    if start + 1 == end && self.column > self.best_width && split {
                        self.write_indent();
                        self.whitespace = false;
                        self.indention = false;
                    } else {
                        self.raw(run(text, start, end));
                    }
                    start = end;
                }
            } else if ch.is_none_or(|c| c == SPACE) {
                self.raw(run(text, start, end));
                start = end;
            }
            spaces = ch == Some(SPACE);
        }
    }

    /// Single-quoted style: `'` doubled, line breaks written as a break plus
    /// an empty line (a lone break would fold into a space).
    pub(super) fn write_single_quoted<T: TextUnit>(&mut self, text: &[T], split: bool) {
        self.write_indicator("'", true, false, false);
        let n = text.len();
        if (!split || self.column + n <= self.best_width)
            && text.iter().all(|&c| {
                let c: u32 = c.into();
                c != QUOTE && !is_break(c)
            })
        {
            // One line, nothing to double or fold.
            self.raw(text);
            self.write_indicator("'", false, false, false);
            return;
        }
        let (mut spaces, mut breaks) = (false, false);
        let mut start = 0;
        let mut end = 0;
        while end <= n {
            let ch = unit(text, end);
            if spaces {
                if ch != Some(SPACE) {
                    if start + 1 == end
                        && self.column > self.best_width
                        && split
                        && start != 0
                        && end != n
                    {
                        self.write_indent();
                    } else {
                        self.raw(run(text, start, end));
                    }
                    start = end;
                }
            } else if breaks {
                if ch.is_none_or(|c| !is_break(c)) {
                    if unit(text, start) == Some(NL) {
                        self.write_line_break(None);
                    }
                    for i in start..end {
                        self.write_line_break(unit(text, i).and_then(break_char));
                    }
                    self.write_indent();
                    start = end;
                }
            } else if ch.is_none_or(|c| c == SPACE || c == QUOTE || is_break(c)) && start < end {
                self.raw(run(text, start, end));
                start = end;
            }
            if ch == Some(QUOTE) {
                self.raw_str("''");
                start = end + 1;
            }
            if let Some(c) = ch {
                spaces = c == SPACE;
                breaks = is_break(c);
            }
            end += 1;
            if !spaces && !breaks {
                // Other characters change nothing until the next space,
                // quote or break: skip them.
                while unit(text, end).is_some_and(|c| c != SPACE && c != QUOTE && !is_break(c)) {
                    end += 1;
                }
            }
        }
        self.write_indicator("'", false, false, false);
    }

    /// Whether a character must be escaped inside double quotes.
    fn needs_escape(&self, c: u32, allow_unicode: bool) -> bool {
        matches!(c, 0x22 | 0x5C | 0x85 | 0x2028 | 0x2029 | 0xFEFF)
            || !((0x20..=0x7E).contains(&c)
                || (allow_unicode && is_unicode_printable(c) && c <= 0xFFFD && c != 0x85))
    }

    /// Double-quoted style: escapes for everything else; folded lines end in
    /// `\` and a space starting a continuation line is written `\ `.
    pub(super) fn write_double_quoted<T: TextUnit>(
        &mut self,
        text: &[T],
        split: bool,
        allow_unicode: bool,
    ) {
        self.write_indicator("\"", true, false, false);
        let n = text.len();
        let mut start = 0;
        let mut end = 0;
        while end <= n {
            let ch = unit(text, end);
            if ch.is_none_or(|c| self.needs_escape(c, allow_unicode)) {
                if start < end {
                    self.raw(run(text, start, end));
                    start = end;
                }
                if let Some(c) = ch {
                    self.write_escape(c);
                    start = end + 1;
                }
            }
            if 0 < end
                && end + 1 < n
                && (ch == Some(SPACE) || start >= end)
                && self.column + end > self.best_width + start
                && split
            {
                if start < end {
                    self.raw(run(text, start, end));
                    start = end;
                }
                self.raw_str("\\");
                self.write_indent();
                self.whitespace = false;
                self.indention = false;
                if unit(text, start) == Some(SPACE) {
                    self.raw_str("\\");
                }
            }
            end += 1;
            // A character that is neither escaped nor a space, inside a run
            // (`start < end`), changes nothing: skip such characters, eight
            // at a time in ASCII text.
            if start < end
                && let Some(bytes) = T::as_ascii(text)
            {
                while let Some(w) = bytes
                    .get(end..end + 8)
                    .and_then(|c| <[u8; 8]>::try_from(c).ok())
                    && quoted_chunk(u64::from_le_bytes(w))
                {
                    end += 8;
                }
            }
            while start < end
                && unit(text, end)
                    .is_some_and(|c| (0x21..=0x7E).contains(&c) && c != 0x22 && c != 0x5C)
            {
                end += 1;
            }
        }
        self.write_indicator("\"", false, false, false);
    }

    fn write_escape(&mut self, c: u32) {
        let short = match c {
            0x00 => "0",
            0x07 => "a",
            0x08 => "b",
            0x09 => "t",
            0x0A => "n",
            0x0B => "v",
            0x0C => "f",
            0x0D => "r",
            0x1B => "e",
            0x22 => "\"",
            0x5C => "\\",
            0x85 => "N",
            0xA0 => "_",
            0x2028 => "L",
            0x2029 => "P",
            _ => "",
        };
        let before = self.out.len();
        if short.is_empty() {
            use std::io::Write;
            let _ = if c <= 0xFF {
                write!(self.out, "\\x{c:02X}")
            } else if c <= 0xFFFF {
                write!(self.out, "\\u{c:04X}")
            } else {
                write!(self.out, "\\U{c:08X}")
            };
        } else {
            self.out.push(b'\\');
            self.out.extend_from_slice(short.as_bytes());
        }
        self.column += self.out.len() - before;
    }

    /// Literal block style (`|`), used for `!!binary`.
    pub(super) fn write_literal<T: TextUnit>(&mut self, text: &[T]) {
        let n = text.len();
        let mut hints = String::new();
        if let (Some(first), Some(last)) = (unit(text, 0), unit(text, n.wrapping_sub(1))) {
            if first == SPACE || is_break(first) {
                hints.push_str(&self.best_indent.to_string());
            }
            if !is_break(last) {
                hints.push('-');
            } else if n == 1 || unit(text, n - 2).is_some_and(is_break) {
                hints.push('+');
            }
        }
        self.write_indicator(&format!("|{hints}"), true, false, false);
        if hints.ends_with('+') {
            self.open_ended = true;
        }
        self.write_line_break(None);
        let mut breaks = true;
        let mut start = 0;
        for end in 0..=n {
            let ch = unit(text, end);
            if breaks {
                if ch.is_none_or(|c| !is_break(c)) {
                    for i in start..end {
                        self.write_line_break(unit(text, i).and_then(break_char));
                    }
                    if ch.is_some() {
                        self.write_indent();
                    }
                    start = end;
                }
            } else if ch.is_none_or(is_break) {
                self.raw(run(text, start, end));
                if ch.is_none() {
                    self.write_line_break(None);
                }
                start = end;
            }
            if let Some(c) = ch {
                breaks = is_break(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::quoted_chunk;

    #[test]
    fn quoted_chunk_is_the_byte_test() {
        // Every byte value at every position of an otherwise ordinary word.
        for pos in 0..8 {
            for b in 0..=255u8 {
                let mut w = *b"abcdefgh";
                if let Some(x) = w.get_mut(pos) {
                    *x = b;
                }
                let bytewise = w
                    .iter()
                    .all(|&c| (0x21..=0x7E).contains(&c) && c != b'"' && c != b'\\');
                assert_eq!(quoted_chunk(u64::from_le_bytes(w)), bytewise, "{w:?}");
            }
        }
        // Words mixing the edge bytes (borrows across bytes).
        let edges = [
            0x00, 0x01, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xFF,
        ];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let w: [u8; 8] = std::array::from_fn(|i| {
                let r = (state >> (8 * i)) as usize;
                edges.get(r % 16).copied().unwrap_or(b'a')
            });
            let bytewise = w
                .iter()
                .all(|&c| (0x21..=0x7E).contains(&c) && c != b'"' && c != b'\\');
            assert_eq!(quoted_chunk(u64::from_le_bytes(w)), bytewise, "{w:?}");
        }
    }
}
