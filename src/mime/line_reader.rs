//! `LineReader`: the input as lines, with push-back and "false EOF" at boundary
//! lines of every enclosing multipart (Python's `BufferedSubFile`).

use super::pystr::eol_len_at_start;
use crate::byte_scan::find_any;
use crate::source::{SharedText, TextSource};

/// One physical line: byte range (terminator included) and 0-based line number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    pub start: usize,
    pub end: usize,
    pub lineno: u32,
}

/// A read result: a line, or end of input (real or "false", at a boundary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Read {
    Line(Line),
    Eof,
}

/// What makes a line look like the end of the current sub-document.
#[derive(Clone, Debug)]
pub(crate) enum EofMatcher {
    /// A `--boundary` or `--boundary--` line (shared by the multipart's
    /// parts: one boundary copy per part was an allocation per part).
    Boundary(std::sync::Arc<str>),
    /// A blank line (between header blocks of message/delivery-status).
    BlankLine,
}

/// How a line matched a boundary (`--B(--)?[ \t]*(\r\n|\r|\n)?$`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoundaryMatch {
    /// It was the closing `--B--`.
    pub close: bool,
    /// It ended with a line terminator.
    pub linesep: bool,
}

/// Does `line` match the delimiter (or close delimiter) of `boundary`?
pub(crate) fn match_boundary(line: &str, boundary: &str) -> Option<BoundaryMatch> {
    let rest = line.strip_prefix("--")?.strip_prefix(boundary)?;
    let tail = |s: &str| -> Option<bool> {
        let t = s.trim_start_matches([' ', '\t']);
        match t {
            "" => Some(false),
            "\r\n" | "\r" | "\n" => Some(true),
            _ => None,
        }
    };
    if let Some(linesep) = rest.strip_prefix("--").and_then(tail) {
        return Some(BoundaryMatch {
            close: true,
            linesep,
        });
    }
    tail(rest).map(|linesep| BoundaryMatch {
        close: false,
        linesep,
    })
}

/// The index of the first `\r` or `\n` in `bytes`: eight bytes at a time,
/// since this scan is most of the parser's time on large bodies.
pub(crate) fn find_eol(bytes: &[u8]) -> Option<usize> {
    find_any(bytes, [b'\n', b'\r'])
}

/// The length of the line `rest` begins with, its line break included.
fn line_len(rest: &[u8]) -> usize {
    match find_eol(rest) {
        Some(i) if rest.get(i..i + 2) == Some(b"\r\n") => i + 2,
        Some(i) => i + 1,
        None => rest.len(),
    }
}

/// The line breaks in `text` (`\r\n`, `\r` and `\n` one each), which does not
/// end between the two bytes of a `\r\n`.
fn line_breaks(text: &[u8]) -> u32 {
    let lf = count_byte(text, b'\n');
    // A `\r` is a break of its own unless a `\n` follows (already counted).
    let lone_cr = match memchr::memchr(b'\r', text) {
        None => 0,
        Some(_) => count_byte(text, b'\r') - memchr::memmem::find_iter(text, b"\r\n").count(),
    };
    u32::try_from(lf + lone_cr).unwrap_or(u32::MAX)
}

/// How many bytes of `text` are `x`.
fn count_byte(text: &[u8], x: u8) -> usize {
    // Counted in byte lanes, a block at a time (a block of 255 cannot
    // overflow one): a `usize` count made the compiler widen every byte.
    text.chunks(255)
        .map(|block| usize::from(block.iter().fold(0u8, |n, &b| n + u8::from(b == x))))
        .sum()
}

/// Can a line starting with this byte match a boundary (`--…`) or a blank line?
fn could_end_part(first: Option<&u8>) -> bool {
    matches!(first, Some(b'-' | b'\r' | b'\n'))
}

/// Lines of a text with push-back and a stack of false-EOF matchers.
#[derive(Debug)]
pub(crate) struct LineReader<'a> {
    text: &'a str,
    /// `text` as a shared source, when the caller has one: bodies are then
    /// slices of it, not copies.
    shared: Option<&'a TextSource>,
    pos: usize,
    lineno: u32,
    pushed: Vec<Read>,
    matchers: Vec<EofMatcher>,
}

impl<'a> LineReader<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        LineReader {
            text,
            shared: None,
            pos: 0,
            lineno: 0,
            pushed: Vec::new(),
            matchers: Vec::new(),
        }
    }

    /// Lines of a shared text, whose bodies [`LineReader::read_rest`] cuts
    /// out as slices.
    pub(crate) fn shared(source: &'a TextSource) -> Self {
        LineReader {
            shared: Some(source),
            ..LineReader::new(source.as_str())
        }
    }

    /// [`LineReader::shared`], starting at byte `pos` (a line start), which
    /// is line `lineno`.
    pub(crate) fn shared_at(source: &'a TextSource, pos: usize, lineno: u32) -> Self {
        LineReader {
            pos,
            lineno,
            ..LineReader::shared(source)
        }
    }

    /// Bytes not read yet (lines pushed back aside).
    pub(crate) fn remaining(&self) -> usize {
        self.text.len().saturating_sub(self.pos)
    }

    /// The shared source, if the reader has one.
    pub(crate) fn source(&self) -> Option<&'a TextSource> {
        self.shared
    }

    /// Go on from byte `pos` (a line start), which is line `lineno`,
    /// forgetting lines pushed back.
    pub(crate) fn jump_to(&mut self, pos: usize, lineno: u32) {
        self.pos = pos;
        self.lineno = lineno;
        self.pushed.clear();
    }

    /// The text of a line.
    pub(crate) fn text(&self, line: Line) -> &'a str {
        self.text.get(line.start..line.end).unwrap_or("")
    }

    fn next_physical(&mut self) -> Read {
        let rest = self.text.get(self.pos..).unwrap_or("");
        if rest.is_empty() {
            return Read::Eof;
        }
        let bytes = rest.as_bytes();
        let len = match find_eol(bytes) {
            Some(i) => i + eol_len_at_start(rest.get(i..).unwrap_or("")),
            None => rest.len(),
        };
        let line = Line {
            start: self.pos,
            end: self.pos + len,
            lineno: self.lineno,
        };
        self.pos += len;
        self.lineno = self.lineno.saturating_add(1);
        Read::Line(line)
    }

    fn is_false_eof(&self, line: Line) -> bool {
        // Every matcher needs a line starting with `--` or a line break.
        if self.matchers.is_empty() || !could_end_part(self.text.as_bytes().get(line.start)) {
            return false;
        }
        let t = self.text(line);
        self.matchers.iter().rev().any(|m| match m {
            EofMatcher::Boundary(b) => match_boundary(t, b).is_some(),
            EofMatcher::BlankLine => eol_len_at_start(t) > 0,
        })
    }

    /// Read the next line; a line matching an enclosing boundary is pushed back
    /// and reads as end of input.
    pub(crate) fn readline(&mut self) -> Read {
        let r = match self.pushed.pop() {
            Some(r) => r,
            None => self.next_physical(),
        };
        match r {
            Read::Line(line) if self.is_false_eof(line) => {
                self.pushed.push(r);
                Read::Eof
            }
            other => other,
        }
    }

    /// All remaining lines up to a real or false end of input, as one string:
    /// the same as appending the text of every `readline()` until `Eof`, but
    /// copying each contiguous run of lines at once and testing only lines that
    /// could be a false end against the matchers.
    pub(crate) fn read_rest(&mut self) -> SharedText {
        let mut out = String::new();
        // Pushed-back results come first, in their own order.
        while let Some(r) = self.pushed.pop() {
            match r {
                Read::Line(l) if !self.is_false_eof(l) => out.push_str(self.text(l)),
                // A pushed-back end reads as end once; a false end stays.
                Read::Line(_) => {
                    self.pushed.push(r);
                    return out.into();
                }
                Read::Eof => return out.into(),
            }
        }
        let start = self.pos;
        let only_boundaries = self
            .matchers
            .iter()
            .all(|m| matches!(m, EofMatcher::Boundary(_)));
        let (stop, p, lineno) = if only_boundaries {
            self.scan_to_delimiter(start)
        } else {
            self.scan_line_by_line(start)
        };
        self.pos = p;
        self.lineno = lineno;
        let end = match stop {
            Some(line) => {
                self.pushed.push(Read::Line(line));
                line.start
            }
            None => p,
        };
        // Nothing pushed back came first: the rest is one run of the text.
        if out.is_empty()
            && let Some(s) = self
                .shared
                .and_then(|src| SharedText::slice(src, start..end))
        {
            return s;
        }
        out.push_str(self.text.get(start..end).unwrap_or(""));
        out.into()
    }

    /// [`LineReader::read_rest`]'s scan from `start` (a line start), line by
    /// line: the line that ends the part, if any, the position after it (or
    /// the end) and the line number there.
    fn scan_line_by_line(&self, start: usize) -> (Option<Line>, usize, u32) {
        let bytes = self.text.as_bytes();
        let mut p = start;
        let mut lineno = self.lineno;
        while p < bytes.len() {
            let len = line_len(bytes.get(p..).unwrap_or_default());
            let line = Line {
                start: p,
                end: p + len,
                lineno,
            };
            p += len;
            lineno = lineno.saturating_add(1);
            if self.is_false_eof(line) {
                return (Some(line), p, lineno);
            }
        }
        (None, p, lineno)
    }

    /// [`LineReader::scan_line_by_line`] when only delimiter lines end the
    /// part: such a line begins with `--`, so only lines that do are read;
    /// the text between is searched for `--` and its line breaks counted.
    /// Line by line, this scan was most of the MIME parse of a large body.
    fn scan_to_delimiter(&self, start: usize) -> (Option<Line>, usize, u32) {
        let bytes = self.text.as_bytes();
        // Line breaks are counted up to `counted`, always a line start.
        let mut counted = start;
        let mut lineno = self.lineno;
        let mut from = start;
        if !self.matchers.is_empty() {
            let dashes = memchr::memmem::Finder::new(b"--");
            while let Some(i) = bytes.get(from..).and_then(|rest| dashes.find(rest)) {
                let q = from + i;
                let at_line_start =
                    q == start || matches!(bytes.get(q.wrapping_sub(1)), Some(b'\n' | b'\r'));
                if !at_line_start {
                    from = q + 1;
                    continue;
                }
                lineno =
                    lineno.saturating_add(line_breaks(bytes.get(counted..q).unwrap_or_default()));
                counted = q;
                let len = line_len(bytes.get(q..).unwrap_or_default());
                let line = Line {
                    start: q,
                    end: q + len,
                    lineno,
                };
                if self.is_false_eof(line) {
                    return (Some(line), q + len, lineno.saturating_add(1));
                }
                from = q + len;
            }
        }
        let tail = bytes.get(counted..).unwrap_or_default();
        let unterminated = !matches!(tail.last(), None | Some(b'\n' | b'\r'));
        let lines = line_breaks(tail).saturating_add(u32::from(unterminated));
        (None, bytes.len(), lineno.saturating_add(lines))
    }

    /// Push a read result back (an `Eof` pushed back reads as end once).
    pub(crate) fn unread(&mut self, r: Read) {
        self.pushed.push(r);
    }

    /// Where the next read starts: byte offset and line number.
    pub(crate) fn next_position(&self) -> (usize, u32) {
        // Pushed-back lines come before `pos`; pushed-back ends are virtual.
        self.pushed
            .iter()
            .rev()
            .find_map(|r| match r {
                Read::Line(l) => Some((l.start, l.lineno)),
                Read::Eof => None,
            })
            .unwrap_or((self.pos, self.lineno))
    }

    pub(crate) fn push_matcher(&mut self, m: EofMatcher) {
        self.matchers.push(m);
    }

    pub(crate) fn pop_matcher(&mut self) {
        self.matchers.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_lines() {
        let m = |l: &str| match_boundary(l, "B");
        assert_eq!(
            m("--B\n"),
            Some(BoundaryMatch {
                close: false,
                linesep: true
            })
        );
        assert_eq!(
            m("--B-- \t\r\n"),
            Some(BoundaryMatch {
                close: true,
                linesep: true
            })
        );
        assert_eq!(
            m("--B--"),
            Some(BoundaryMatch {
                close: true,
                linesep: false
            })
        );
        assert_eq!(m("--B---\n"), None);
        assert_eq!(m("--Bx\n"), None);
        assert_eq!(
            m("--B \n"),
            Some(BoundaryMatch {
                close: false,
                linesep: true
            })
        );
    }

    /// `read_rest` after `skip` lines read and pushed back, with matchers
    /// `m`, against `readline` until `Eof`: the same text and the same state
    /// after, with and without a shared source.
    fn check_read_rest(t: &str, m: &[EofMatcher], skip: usize) {
        let src: TextSource = std::sync::Arc::new(t.to_owned());
        fn prepared<'r>(mut r: LineReader<'r>, skip: usize, m: &[EofMatcher]) -> LineReader<'r> {
            for _ in 0..skip {
                let x = r.readline();
                r.unread(x);
            }
            for x in m {
                r.push_matcher(x.clone());
            }
            r
        }
        let mk = || prepared(LineReader::new(t), skip, m);
        let (mut a, mut b) = (mk(), mk());
        let mut c = prepared(LineReader::shared(&src), skip, m);
        let mut want = String::new();
        while let Read::Line(l) = a.readline() {
            want.push_str(a.text(l));
        }
        assert_eq!(b.read_rest().as_str(), want, "{t:?} {m:?}");
        let shared = c.read_rest();
        assert_eq!(shared.as_str(), want, "{t:?} {m:?}");
        // Lines pushed back come first, copied; else one slice.
        assert_eq!(shared.is_shared(), skip == 0, "{t:?} {m:?}");
        assert_eq!(b.next_position(), c.next_position(), "{t:?} {m:?}");
        assert_eq!(a.next_position(), b.next_position(), "{t:?} {m:?}");
        assert_eq!(a.pushed, b.pushed, "{t:?} {m:?}");
        assert_eq!((a.pos, a.lineno), (b.pos, b.lineno), "{t:?} {m:?}");
    }

    fn stacks() -> [Vec<EofMatcher>; 6] {
        let b = || EofMatcher::Boundary("B".into());
        let c = || EofMatcher::Boundary("C".into());
        [
            vec![],
            vec![b()],
            vec![c(), b()],
            vec![c(), EofMatcher::BlankLine],
            vec![EofMatcher::BlankLine, b()],
            vec![EofMatcher::Boundary("".into())],
        ]
    }

    #[test]
    fn read_rest_is_readline_until_eof() {
        let texts = [
            "a\rb\r\n--B\nc",
            "x\n\r\n--B--\r\ny",
            "--Bx\n-\n\r--C \r\nz",
            "",
            "\n",
            "no break",
            "a\n--C\n--B\n",
            "x--B\n--B",
            "---B\n\r--B\r",
        ];
        for t in texts {
            for m in &stacks() {
                for skip in 0..3 {
                    check_read_rest(t, m, skip);
                }
            }
        }
    }

    #[test]
    fn read_rest_matches_readline_on_generated_texts() {
        // Delimiter-like runs among line breaks of every kind: the delimiter
        // scan (boundaries only) and the line-by-line scan must agree.
        let alphabet = [
            "-", "--", "B", "C", "\r", "\n", "\r\n", "x", " ", "\t", "--B", "--C--",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..3000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = ((seed >> 33) % 14) as usize;
            let mut t = String::new();
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = ((seed >> 33) % alphabet.len() as u64) as usize;
                t.push_str(alphabet.get(i).copied().unwrap_or("x"));
            }
            for m in &stacks() {
                for skip in 0..2 {
                    check_read_rest(&t, m, skip);
                }
            }
        }
    }

    #[test]
    fn find_eol_is_the_first_line_break() {
        let mut text = Vec::new();
        for i in 0..40u8 {
            text.push(match i % 7 {
                0 => b'\n',
                3 => b'\r',
                _ => b'a' + i % 26,
            });
        }
        text.extend_from_slice(&[0x80, 0xff, 0x0b, 0x0c, 0x0e, 0x8a, 0x8d, 0x00]);
        for start in 0..text.len() {
            for end in start..=text.len() {
                let s = text.get(start..end).unwrap();
                let want = s.iter().position(|&b| b == b'\n' || b == b'\r');
                assert_eq!(find_eol(s), want, "{start}..{end}");
            }
        }
    }

    #[test]
    fn lines_split_on_all_terminators() {
        let mut r = LineReader::new("a\rb\r\nc\nd");
        let mut out = Vec::new();
        while let Read::Line(l) = r.readline() {
            out.push(r.text(l));
        }
        assert_eq!(out, vec!["a\r", "b\r\n", "c\n", "d"]);
    }
}
