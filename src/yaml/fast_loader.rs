//! `FastLoader`: text straight to values for the common block-style document,
//! with no tokens or events; anything else hands back to the full pipeline.
//!
//! It covers printable-ASCII documents made of block mappings and sequences
//! (indentless and compact `- key: value` ones too), single-line plain and
//! quoted scalars, literal and folded block scalars, single-line flow
//! collections, anchors on values, aliases and `<<` merges (through the
//! direct builder, which owns those rules), and comments. It gives up
//! ([`None`]) on anything else — tabs, CR, non-ASCII, directives and document
//! markers, tags, complex or multi-line keys, multi-line plain/quoted scalars
//! or flow collections, anything PyYAML would reject — and the caller runs
//! the full pipeline from the start, which decides (and reports every error).
//! When it succeeds it builds what that pipeline builds: the same values,
//! spans (PyYAML's event marks) and sharing; the tests check this node for
//! node on every corpus.

use super::direct_builder::{Builder, recycled};
use super::event::ScalarText;
use super::load_options::LoadOptions;
use super::scanner::is_indicator;
use super::value::Node;
use crate::byte_scan::find_any;
use crate::source::Mark;
use std::borrow::Cow;
use std::cell::Cell;

/// Longest simple key kept well inside PyYAML's 1024-character limit.
const MAX_KEY: usize = 1000;

thread_local! {
    /// The stack of open block collections, kept between documents (see
    /// [`FastLoader`]'s `Drop`).
    static CTX: Cell<Vec<Ctx>> = const { Cell::new(Vec::new()) };
}

/// An open block collection.
#[derive(Clone, Copy)]
struct Ctx {
    /// Its column.
    indent: usize,
    seq: bool,
    /// A sequence at its parent mapping's column.
    indentless: bool,
}

/// An anchor read before a node: name and marks.
type Anchor<'a> = (Cow<'a, str>, Mark, Mark);

/// A `key:` or `-` whose value is not on its line.
struct Pending<'a> {
    anchor: Option<Anchor<'a>>,
    /// The end of the `:` or `-` (where PyYAML puts an empty value).
    empty_at: Mark,
}

/// Where a plain scalar on one line stopped.
#[derive(Clone, Copy)]
enum Stop {
    /// End of line (or of the text).
    Eol,
    /// Spaces and a `#`.
    Comment,
    /// A `:` followed by a blank (at this byte).
    Colon(usize),
    /// A flow indicator (`,`, `]`, `}`, `[`, `{`).
    Flow,
}

/// Flow collection being read.
#[derive(Clone, Copy, PartialEq)]
enum Flow {
    /// `[`.
    Seq,
    /// `{`.
    Map,
}

/// The flow collections open on a line, innermost last, as bits: no
/// allocation per flow collection (a cloud-config part has several:
/// `packages: [...]`, `runcmd: [[sh, -c, ...]]`). Deeper nesting than it holds
/// is left to the full pipeline.
#[derive(Default)]
struct FlowStack {
    /// Bit `i` set: the `i`-th open collection is a mapping.
    maps: u64,
    len: u32,
}

impl FlowStack {
    /// Push `f`; `None` when full.
    fn push(&mut self, f: Flow) -> Option<()> {
        if self.len == u64::BITS {
            return None;
        }
        if f == Flow::Map {
            self.maps |= 1 << self.len;
        } else {
            self.maps &= !(1 << self.len);
        }
        self.len += 1;
        Some(())
    }

    fn last(&self) -> Option<Flow> {
        let top = self.len.checked_sub(1)?;
        Some(if self.maps >> top & 1 == 1 {
            Flow::Map
        } else {
            Flow::Seq
        })
    }

    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

struct FastLoader<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    ctx: Vec<Ctx>,
    pending: Option<Pending<'a>>,
    builder: Builder<'a>,
    /// The last block-context plain scan (start, end, stop, clean): a `- `
    /// entry is scanned for a key first, then read as a value or key from
    /// the same start.
    last_scan: Cell<(usize, usize, Stop, bool)>,
}

/// Texts longer than this have their lines counted first, to size the
/// builder's item stack once (see `Builder::expect_lines`).
const LINES_COUNTED_FROM: usize = 1 << 16;

/// Load the single document of `text` if it is in the covered subset:
/// `Some(None)` for an empty stream, `None` to leave it to the full pipeline.
pub(crate) fn load_fast(text: &str, opts: &LoadOptions) -> Option<Option<Node>> {
    // Printable ASCII and `\n` only: columns are byte offsets, no tabs, no
    // other line breaks, nothing the reader could reject.
    // (A block at a time without early exit, so that it vectorizes.)
    let ok = |c: &u8| (0x20..0x7f).contains(c) | (*c == b'\n');
    if !text
        .as_bytes()
        .chunks(256)
        .all(|block| block.iter().fold(true, |all, c| all & ok(c)))
    {
        return None;
    }
    let mut l = FastLoader {
        src: text,
        b: text.as_bytes(),
        pos: 0,
        line: 0,
        line_start: 0,
        ctx: CTX.with(Cell::take),
        pending: None,
        builder: Builder::new(opts),
        last_scan: Cell::new((usize::MAX, 0, Stop::Eol, false)),
    };
    if text.len() > LINES_COUNTED_FROM {
        let lines = text
            .as_bytes()
            .chunks(256)
            .map(|block| block.iter().filter(|&&c| c == b'\n').count())
            .sum::<usize>();
        l.builder.expect_lines(lines);
    }
    let mut any = false;
    while let Some(col) = l.next_content_line() {
        any = true;
        l.content_line(col)?;
    }
    if !any {
        return Some(None);
    }
    let end = l.mark(l.pos);
    if let Some(p) = l.pending.take() {
        l.empty(p)?;
    }
    while l.ctx.pop().is_some() {
        l.builder.close(end)?;
    }
    l.builder.finish().map(Some)
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\n' || c == 0
}

fn is_anchor_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-' || c == b'_'
}

impl Drop for FastLoader<'_> {
    /// The stack goes back to the thread, emptied, for the next document
    /// (a render loads thousands of parts on each thread).
    fn drop(&mut self) {
        let ctx = recycled(std::mem::take(&mut self.ctx));
        CTX.with(|c| c.set(ctx));
    }
}

impl<'a> FastLoader<'a> {
    /// The byte at `p`, 0 past the end (the text holds no NUL).
    fn at(&self, p: usize) -> u8 {
        self.b.get(p).copied().unwrap_or(0)
    }

    fn mark(&self, p: usize) -> Mark {
        Mark::new(p, self.line, (p - self.line_start) as u32)
    }

    fn text(&self, s: usize, e: usize) -> Option<&'a str> {
        self.src.get(s..e)
    }

    /// The `\n` ending the line at `p`, or the end of the text.
    fn eol(&self, p: usize) -> usize {
        let rest = self.b.get(p..).unwrap_or_default();
        find_any(rest, [b'\n']).map_or(self.b.len(), |i| p + i)
    }

    /// `e` moved back over the spaces before it, not before `s`.
    fn trim_spaces(&self, s: usize, mut e: usize) -> usize {
        while e > s && self.at(e - 1) == b' ' {
            e -= 1;
        }
        e
    }

    fn skip_spaces(&mut self) {
        while self.at(self.pos) == b' ' {
            self.pos += 1;
        }
    }

    /// Past a `\n` at `pos`.
    fn new_line(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// Skip blank and comment lines; the column of the next content line's
    /// first character (`pos` is there), `None` at the end of the text.
    fn next_content_line(&mut self) -> Option<usize> {
        loop {
            self.skip_spaces();
            match self.at(self.pos) {
                0 => return None,
                b'\n' => self.new_line(),
                b'#' => {
                    self.skip_line();
                }
                _ => return Some(self.pos - self.line_start),
            }
        }
    }

    /// Skip to the end of the line and past its `\n`.
    fn skip_line(&mut self) {
        self.pos = self.eol(self.pos);
        if self.at(self.pos) == b'\n' {
            self.new_line();
        }
    }

    /// After a value: only spaces and a comment may follow on its line.
    fn end_of_line(&mut self) -> Option<()> {
        self.skip_spaces();
        match self.at(self.pos) {
            0 => Some(()),
            b'\n' => {
                self.new_line();
                Some(())
            }
            b'#' if self.pos > 0 && self.at(self.pos - 1) == b' ' => {
                self.skip_line();
                Some(())
            }
            _ => None,
        }
    }

    /// Whether a `-` entry indicator is at `p`.
    fn dash_at(&self, p: usize) -> bool {
        self.at(p) == b'-' && is_blank(self.at(p + 1))
    }

    fn content_line(&mut self, col: usize) -> Option<()> {
        if col == 0
            && (self.b.get(self.pos..self.pos + 3) == Some(b"---")
                || self.b.get(self.pos..self.pos + 3) == Some(b"..."))
        {
            return None;
        }
        let here = self.mark(self.pos);
        let dash = self.dash_at(self.pos);
        if let Some(p) = self.pending.take() {
            let top = *self.ctx.last()?;
            // A mapping value's `- ` at the key's own indentation opens an
            // indentless sequence.
            let indentless = col == top.indent && dash && !top.seq;
            if col > top.indent || indentless {
                // The pending value is a block collection starting here.
                let start = p.anchor.as_ref().map_or(here, |a| a.1);
                self.builder.open(dash, p.anchor.map(|a| a.0), start)?;
                self.ctx.push(Ctx {
                    indent: col,
                    seq: dash,
                    indentless,
                });
                return self.entry(dash);
            }
            self.empty(p)?;
        }
        while let Some(top) = self.ctx.last() {
            if top.indent > col || (top.indent == col && top.indentless && !dash) {
                self.ctx.pop();
                self.builder.close(here)?;
            } else {
                break;
            }
        }
        match self.ctx.last() {
            None => {
                if self.builder.done() {
                    return None;
                }
                self.builder.open(dash, None, here)?;
                self.ctx.push(Ctx {
                    indent: col,
                    seq: dash,
                    indentless: false,
                });
            }
            Some(top) if top.indent != col || top.seq != dash => return None,
            Some(_) => {}
        }
        self.entry(dash)
    }

    /// An empty value (`key:` or `-` with nothing after it).
    fn empty(&mut self, p: Pending<'a>) -> Option<()> {
        let (anchor, start, end) = match p.anchor {
            Some((name, s, e)) => (Some(name), s, e),
            None => (None, p.empty_at, p.empty_at),
        };
        self.builder.scalar(
            ScalarText::Text(Cow::Borrowed("")),
            true,
            anchor,
            start,
            end,
        )
    }

    /// A sequence entry (`seq`) or mapping entry at `pos`.
    fn entry(&mut self, seq: bool) -> Option<()> {
        if !seq {
            return self.map_entry();
        }
        if self.indicator_then_empty() {
            return self.end_of_line();
        }
        if self.dash_at(self.pos) {
            return None;
        }
        if self.key_ahead() {
            // `- key: value`: a mapping at the key's column.
            let here = self.mark(self.pos);
            self.builder.open(false, None, here)?;
            self.ctx.push(Ctx {
                indent: self.pos - self.line_start,
                seq: false,
                indentless: false,
            });
            return self.map_entry();
        }
        self.value()
    }

    /// Whether a simple key (a scalar, then `:` and a blank) starts at
    /// `pos`; when not, [`Self::value`] reads it (or gives up).
    fn key_ahead(&self) -> bool {
        let s = self.pos;
        let after = match self.at(s) {
            b'"' | b'\'' => match self.quoted_end(s) {
                Some((e, _)) => e,
                None => return false,
            },
            _ if self.plain_start(s, false) => {
                return matches!(self.scan_plain(s, false), (_, Stop::Colon(p), _) if p - s <= MAX_KEY);
            }
            _ => return false,
        };
        let mut p = after;
        while self.at(p) == b' ' {
            p += 1;
        }
        self.at(p) == b':' && is_blank(self.at(p + 1)) && p - s <= MAX_KEY
    }

    /// `key: value` at `pos`.
    fn map_entry(&mut self) -> Option<()> {
        let s = self.pos;
        let start = self.mark(s);
        let (text, plain, clean, end) = match self.at(s) {
            b'"' | b'\'' => {
                let (text, after) = self.quoted(s)?;
                self.pos = after;
                (text, false, false, self.mark(after))
            }
            _ if self.plain_start(s, false) => match self.scan_plain(s, false) {
                (e, Stop::Colon(_), clean) => {
                    self.pos = e;
                    (Cow::Borrowed(self.text(s, e)?), true, clean, self.mark(e))
                }
                _ => return None,
            },
            _ => return None,
        };
        self.skip_spaces();
        if self.at(self.pos) != b':' || !is_blank(self.at(self.pos + 1)) || self.pos - s > MAX_KEY {
            return None;
        }
        self.put_scalar(text, plain, clean, None, start, end)?;
        if self.indicator_then_empty() {
            return self.end_of_line();
        }
        self.value()
    }

    /// Steps over the `-` or `:` at `pos` and the spaces after it. When the
    /// line ends there (or a comment starts), the value is empty: it is left
    /// pending at the indicator's end and `true` is returned.
    #[inline]
    fn indicator_then_empty(&mut self) -> bool {
        self.pos += 1;
        let empty_at = self.mark(self.pos);
        self.skip_spaces();
        if !matches!(self.at(self.pos), 0 | b'\n' | b'#') {
            return false;
        }
        self.pending = Some(Pending {
            anchor: None,
            empty_at,
        });
        true
    }

    /// A value after `key: ` or `- ` (`pos` at its first character).
    fn value(&mut self) -> Option<()> {
        let mut anchor = None;
        if self.at(self.pos) == b'&' {
            let s = self.pos;
            let e = self.name_end(s + 1)?;
            anchor = Some((
                Cow::Borrowed(self.text(s + 1, e)?),
                self.mark(s),
                self.mark(e),
            ));
            self.pos = e;
            self.skip_spaces();
            if matches!(self.at(self.pos), 0 | b'\n' | b'#') {
                let empty_at = self.mark(self.pos);
                self.pending = Some(Pending { anchor, empty_at });
                return self.end_of_line();
            }
        }
        let s = self.pos;
        let start = anchor.as_ref().map_or(self.mark(s), |a| a.1);
        let name = anchor.map(|a| a.0);
        match self.at(s) {
            b'*' => {
                if name.is_some() {
                    return None;
                }
                let e = self.name_end(s + 1)?;
                self.builder.alias(self.text(s + 1, e)?)?;
                self.pos = e;
            }
            b'"' | b'\'' => {
                let (text, after) = self.quoted(s)?;
                self.pos = after;
                let end = self.mark(after);
                self.put_scalar(text, false, false, name, start, end)?;
            }
            b'[' | b'{' => self.flow(name, start)?,
            b'|' | b'>' => return self.block_scalar(name, start),
            _ if self.plain_start(s, false) => {
                let (e, stop, clean) = self.scan_plain(s, false);
                if matches!(stop, Stop::Colon(_) | Stop::Flow) {
                    return None;
                }
                let end = self.mark(e);
                self.put_scalar(
                    Cow::Borrowed(self.text(s, e)?),
                    true,
                    clean,
                    name,
                    start,
                    end,
                )?;
                self.pos = e;
            }
            _ => return None,
        }
        self.end_of_line()
    }

    /// A scalar read from the text: unanchored ones borrowed from it take the
    /// builder's short path (`clean`: the text holds no `:` or `#`, as a
    /// plain scan found; the whole text is printable ASCII).
    #[inline(always)]
    fn put_scalar(
        &mut self,
        text: Cow<'a, str>,
        plain: bool,
        clean: bool,
        anchor: Option<Cow<'a, str>>,
        start: Mark,
        end: Mark,
    ) -> Option<()> {
        match (text, anchor) {
            (Cow::Borrowed(t), None) => self.builder.str_scalar(t, plain, clean, start, end),
            (text, anchor) => {
                self.builder
                    .scalar(ScalarText::Text(text), plain, anchor, start, end)
            }
        }
    }

    /// The end of an anchor or alias name starting at `s` (non-empty, then a
    /// blank).
    fn name_end(&self, s: usize) -> Option<usize> {
        let mut e = s;
        while is_anchor_char(self.at(e)) {
            e += 1;
        }
        (e > s && is_blank(self.at(e))).then_some(e)
    }

    /// Whether a plain scalar may start at `p` (only the unambiguous starts).
    fn plain_start(&self, p: usize, flow: bool) -> bool {
        let c = self.at(p);
        if c == b'-' {
            let next = self.at(p + 1);
            return if flow {
                next.is_ascii_alphanumeric()
            } else {
                !is_blank(next)
            };
        }
        !is_indicator(c) && c != 0 && c != b' ' && c != b'\n'
    }

    /// Scan a plain scalar on one line from `s`: the end of its text, what
    /// stopped it, and whether the text is clean (holds no `:` or `#`). In
    /// flow context a `:` or `?` inside, or a `#`, gives an end at `s` with
    /// `Stop::Flow` (the caller gives up), so a text is always clean there.
    fn scan_plain(&self, s: usize, flow: bool) -> (usize, Stop, bool) {
        if !flow {
            return self.scan_plain_block(s);
        }
        let mut p = s;
        let mut end = s;
        loop {
            let c = self.at(p);
            match c {
                0 | b'\n' => return (end, Stop::Eol, true),
                b' ' => {
                    let mut q = p;
                    while self.at(q) == b' ' {
                        q += 1;
                    }
                    if self.at(q) == b'#' {
                        return (end, Stop::Comment, true);
                    }
                    p = q;
                    continue;
                }
                b':' if is_blank(self.at(p + 1)) => return (end, Stop::Colon(p), true),
                b':' | b'?' | b'#' if flow => return (s, Stop::Flow, true),
                b',' | b'[' | b']' | b'{' | b'}' if flow => return (end, Stop::Flow, true),
                _ => {}
            }
            p += 1;
            end = p;
        }
    }

    /// [`Self::scan_plain`] in block context: only a `\n`, a `:` before a
    /// blank or a `#` after a space ends the scalar, so it jumps between those
    /// bytes; trailing spaces are not part of the text.
    fn scan_plain_block(&self, s: usize) -> (usize, Stop, bool) {
        let (last, end, stop, clean) = self.last_scan.get();
        if last == s {
            return (end, stop, clean);
        }
        let mut p = s;
        // No `:` or `#` skipped over inside the text.
        let mut clean = true;
        loop {
            let rest = self.b.get(p..).unwrap_or_default();
            let i = find_any(rest, [b'\n', b':', b'#']).map_or(self.b.len(), |i| p + i);
            let stop = match self.at(i) {
                b':' if is_blank(self.at(i + 1)) => Stop::Colon(i),
                b'#' if i > s && self.at(i - 1) == b' ' => Stop::Comment,
                b':' | b'#' => {
                    p = i + 1;
                    clean = false;
                    continue;
                }
                _ => Stop::Eol,
            };
            let end = self.trim_spaces(s, i);
            self.last_scan.set((s, end, stop, clean));
            return (end, stop, clean);
        }
    }

    /// The byte after the closing quote of the quoted scalar at `s`, and
    /// whether its text holds an escape (`\` in double quotes, `''` in
    /// single quotes; a `\` in single quotes is a character).
    fn quoted_end(&self, s: usize) -> Option<(usize, bool)> {
        let q = self.at(s);
        let mut p = s + 1;
        let mut escaped = false;
        loop {
            let rest = self.b.get(p..).unwrap_or_default();
            let i = p + find_any(rest, [q, b'\\', b'\n'])?;
            match self.at(i) {
                b'\n' => return None,
                b'\\' if q == b'"' => {
                    escaped = true;
                    p = i + 2;
                }
                b'\\' => p = i + 1,
                _ if q == b'\'' && self.at(i + 1) == b'\'' => {
                    escaped = true;
                    p = i + 2;
                }
                _ => return Some((i + 1, escaped)),
            }
        }
    }

    /// A quoted scalar on one line at `s`: its text and the byte after it.
    fn quoted(&self, s: usize) -> Option<(Cow<'a, str>, usize)> {
        let (e, escaped) = self.quoted_end(s)?;
        let inner = self.text(s + 1, e - 1)?;
        if !escaped {
            return Some((Cow::Borrowed(inner), e));
        }
        if self.at(s) == b'\'' {
            return Some((Cow::Owned(inner.replace("''", "'")), e));
        }
        let mut out = String::with_capacity(inner.len());
        let mut rest = inner;
        while let Some(i) = rest.find('\\') {
            out.push_str(rest.get(..i)?);
            let esc = rest.get(i + 1..)?;
            let code = esc.as_bytes().first().copied()?;
            let simple = match code {
                b'0' => Some('\0'),
                b'a' => Some('\x07'),
                b'b' => Some('\x08'),
                b't' => Some('\t'),
                b'n' => Some('\n'),
                b'v' => Some('\x0b'),
                b'f' => Some('\x0c'),
                b'r' => Some('\r'),
                b'e' => Some('\x1b'),
                b' ' => Some(' '),
                b'"' => Some('"'),
                b'/' => Some('/'),
                b'\\' => Some('\\'),
                b'N' => Some('\u{85}'),
                b'_' => Some('\u{a0}'),
                b'L' => Some('\u{2028}'),
                b'P' => Some('\u{2029}'),
                _ => None,
            };
            if let Some(c) = simple {
                out.push(c);
                rest = esc.get(1..)?;
                continue;
            }
            let n = match code {
                b'x' => 2,
                b'u' => 4,
                b'U' => 8,
                _ => return None,
            };
            let hex = esc.get(1..1 + n)?;
            if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            // Lone surrogates and out-of-range code points: the full pipeline.
            out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            rest = esc.get(1 + n..)?;
        }
        out.push_str(rest);
        Some((Cow::Owned(out), e))
    }

    /// A flow collection on one line at `pos`, then the rest of the line.
    fn flow(&mut self, anchor: Option<Cow<'a, str>>, start: Mark) -> Option<()> {
        let mut stack = FlowStack::default();
        let mut anchor = anchor;
        let mut start = Some(start);
        loop {
            // A node is expected here (first entry, after `,`, a map value).
            let s = self.pos;
            let node_start = start.take().unwrap_or_else(|| self.mark(s));
            let name = anchor.take();
            match self.at(s) {
                c @ (b'[' | b'{') => {
                    self.builder.open(c == b'[', name, node_start)?;
                    self.pos += 1;
                    stack.push(if c == b'[' { Flow::Seq } else { Flow::Map })?;
                    self.skip_spaces();
                    match (self.at(self.pos), stack.last()) {
                        (b']', Some(Flow::Seq)) | (b'}', Some(Flow::Map)) => {}
                        _ => {
                            if stack.last() == Some(Flow::Map) {
                                self.flow_key()?;
                            }
                            continue;
                        }
                    }
                }
                b'"' | b'\'' => {
                    let (text, after) = self.quoted(s)?;
                    self.pos = after;
                    let end = self.mark(after);
                    self.put_scalar(text, false, false, name, node_start, end)?;
                }
                b'*' if name.is_none() => {
                    let mut e = s + 1;
                    while is_anchor_char(self.at(e)) {
                        e += 1;
                    }
                    if e == s + 1 || !matches!(self.at(e), b' ' | b',' | b']' | b'}') {
                        return None;
                    }
                    self.builder.alias(self.text(s + 1, e)?)?;
                    self.pos = e;
                }
                _ if self.plain_start(s, true) => {
                    let (e, stop, clean) = self.scan_plain(s, true);
                    if e == s || !matches!(stop, Stop::Flow) {
                        return None;
                    }
                    let end = self.mark(e);
                    let text = Cow::Borrowed(self.text(s, e)?);
                    self.put_scalar(text, true, clean, name, node_start, end)?;
                    self.pos = e;
                }
                _ => return None,
            }
            // After a node: `,` or the end of collections.
            loop {
                self.skip_spaces();
                let c = self.at(self.pos);
                let top = stack.last()?;
                match (c, top) {
                    (b']', Flow::Seq) | (b'}', Flow::Map) => {
                        self.pos += 1;
                        stack.pop();
                        self.builder.close(self.mark(self.pos))?;
                        if stack.is_empty() {
                            return Some(());
                        }
                    }
                    (b',', Flow::Seq) => {
                        self.pos += 1;
                        self.skip_spaces();
                        if matches!(self.at(self.pos), b']' | b',') {
                            return None;
                        }
                        break;
                    }
                    (b',', Flow::Map) => {
                        self.pos += 1;
                        self.skip_spaces();
                        self.flow_key()?;
                        break;
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A flow mapping key at `pos` (a scalar), then `: `; `pos` at the value.
    fn flow_key(&mut self) -> Option<()> {
        let s = self.pos;
        let start = self.mark(s);
        let (text, plain, clean, e) = match self.at(s) {
            b'"' | b'\'' => {
                let (text, after) = self.quoted(s)?;
                (text, false, false, after)
            }
            _ if self.plain_start(s, true) => match self.scan_plain(s, true) {
                (e, Stop::Colon(_), clean) if e > s => {
                    (Cow::Borrowed(self.text(s, e)?), true, clean, e)
                }
                _ => return None,
            },
            _ => return None,
        };
        self.pos = e;
        self.skip_spaces();
        if self.at(self.pos) != b':' || self.at(self.pos + 1) != b' ' || self.pos - s > MAX_KEY {
            return None;
        }
        let end = self.mark(e);
        self.put_scalar(text, plain, clean, None, start, end)?;
        self.pos += 1;
        self.skip_spaces();
        if matches!(self.at(self.pos), b',' | b'}' | b'\n' | 0 | b'#') {
            return None;
        }
        Some(())
    }

    /// A literal (`|`) or folded (`>`) block scalar whose indicator is at
    /// `pos`, up to the first line that is not part of it.
    fn block_scalar(&mut self, anchor: Option<Cow<'a, str>>, start: Mark) -> Option<()> {
        let folded = self.at(self.pos) == b'>';
        self.pos += 1;
        // Chomping: None clip, Some(false) strip, Some(true) keep.
        let mut chomp = None;
        let mut increment = None;
        for _ in 0..2 {
            match self.at(self.pos) {
                b'+' if chomp.is_none() => chomp = Some(true),
                b'-' if chomp.is_none() => chomp = Some(false),
                c @ b'1'..=b'9' if increment.is_none() => increment = Some(usize::from(c - b'0')),
                _ => break,
            }
            self.pos += 1;
        }
        if !is_blank(self.at(self.pos)) {
            return None;
        }
        self.skip_spaces();
        if self.at(self.pos) == b'#' {
            self.pos = self.eol(self.pos);
        }
        if self.at(self.pos) != b'\n' {
            return None;
        }
        self.new_line();
        let min_indent = self.ctx.last().map_or(0, |c| c.indent) + 1;
        let (indent, mut breaks, mut end) = match increment {
            Some(inc) => {
                let indent = min_indent + inc - 1;
                let (breaks, end) = self.block_breaks(indent);
                (indent, breaks, end)
            }
            None => {
                let mut max_indent = 0;
                let mut breaks = 0;
                let mut end = self.mark(self.pos);
                loop {
                    match self.at(self.pos) {
                        b' ' => {
                            self.pos += 1;
                            max_indent = max_indent.max(self.pos - self.line_start);
                        }
                        b'\n' => {
                            self.new_line();
                            breaks += 1;
                            end = self.mark(self.pos);
                        }
                        _ => break,
                    }
                }
                (max_indent.max(min_indent), breaks, end)
            }
        };
        // Most block scalars are a few short lines: one allocation, not four.
        let mut out = String::with_capacity(64);
        let mut line_break = false;
        while self.pos - self.line_start == indent && self.at(self.pos) != 0 {
            for _ in 0..breaks {
                out.push('\n');
            }
            let leading_non_space = self.at(self.pos) != b' ';
            let s = self.pos;
            self.pos = self.eol(s);
            out.push_str(self.text(s, self.pos)?);
            line_break = self.at(self.pos) == b'\n';
            if line_break {
                self.new_line();
            }
            (breaks, end) = self.block_breaks(indent);
            if self.pos - self.line_start == indent && self.at(self.pos) != 0 {
                if folded && line_break && leading_non_space && self.at(self.pos) != b' ' {
                    if breaks == 0 {
                        out.push(' ');
                    }
                } else if line_break {
                    out.push('\n');
                }
            } else {
                break;
            }
        }
        if chomp != Some(false) && line_break {
            out.push('\n');
        }
        if chomp == Some(true) {
            for _ in 0..breaks {
                out.push('\n');
            }
        }
        self.builder
            .scalar(ScalarText::Text(Cow::Owned(out)), false, anchor, start, end)?;
        // The line that ended the scalar is read from its start again.
        if self.at(self.pos) != 0 {
            self.pos = self.line_start;
        }
        Some(())
    }

    /// Blank lines inside a block scalar: spaces up to `indent`, then line
    /// breaks; their count and the mark after the last one.
    fn block_breaks(&mut self, indent: usize) -> (usize, Mark) {
        let mut end = self.mark(self.pos);
        let mut breaks = 0;
        loop {
            while self.pos - self.line_start < indent && self.at(self.pos) == b' ' {
                self.pos += 1;
            }
            if self.at(self.pos) != b'\n' {
                return (breaks, end);
            }
            self.new_line();
            breaks += 1;
            end = self.mark(self.pos);
        }
    }
}
