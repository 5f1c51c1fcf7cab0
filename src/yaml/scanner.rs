//! `Scanner`: YAML text to tokens with PyYAML's rules (simple keys, indentation
//! columns, scalar folding and escapes, error wording and marks).
//!
//! Positions are byte offsets into the `&str`; line/column/char-index are kept
//! alongside because PyYAML's marks and its 1024-character simple-key limit
//! count code points. Scalars borrow from the input unless folding or escapes
//! changed them.

use super::error::{PyErrorClass, YamlError};
use super::event::{ScalarStyle, ScalarText};
use super::token::{Directive, Token, TokenKind};
use super::value::PyStrBuilder;
use crate::python::py_repr_char;
use crate::source::Mark;
use std::borrow::Cow;
use std::collections::VecDeque;

/// Errors are boxed inside the engine: they are rare, and a small `Result`
/// keeps the hot token paths cheap to move.
type Res<T> = Result<T, Box<YamlError>>;

/// A place where a simple key (`key: value` without `?`) may start.
#[derive(Clone, Copy, Debug)]
struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: u32,
    level: i64,
    mark: Mark,
}

/// Scalar text under construction: stays a borrowed range while the pieces
/// pushed are contiguous in the source, becomes owned otherwise.
#[derive(Debug)]
enum Buf {
    Borrowed(usize, usize),
    Owned(String),
    Wide(PyStrBuilder),
}

impl Buf {
    fn new() -> Self {
        Buf::Borrowed(usize::MAX, usize::MAX)
    }

    fn push_src(&mut self, src: &str, s: usize, e: usize) {
        if s >= e {
            return;
        }
        let piece = src.get(s..e).unwrap_or("");
        match self {
            Buf::Borrowed(a, b) if *a == usize::MAX => {
                *a = s;
                *b = e;
            }
            Buf::Borrowed(_, b) if *b == s => *b = e,
            Buf::Borrowed(a, b) => {
                let mut o = String::with_capacity((*b - *a) + piece.len() + 16);
                o.push_str(src.get(*a..*b).unwrap_or(""));
                o.push_str(piece);
                *self = Buf::Owned(o);
            }
            Buf::Owned(o) => o.push_str(piece),
            Buf::Wide(w) => w.push_str(piece),
        }
    }

    fn owned(&mut self, src: &str) -> Option<&mut String> {
        if let Buf::Borrowed(a, b) = *self {
            let o = if a == usize::MAX {
                String::new()
            } else {
                src.get(a..b).unwrap_or("").to_owned()
            };
            *self = Buf::Owned(o);
        }
        match self {
            Buf::Owned(o) => Some(o),
            _ => None,
        }
    }

    fn push_str(&mut self, src: &str, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Buf::Wide(w) = self {
            w.push_str(s);
        } else if let Some(o) = self.owned(src) {
            o.push_str(s);
        }
    }

    fn push_char(&mut self, src: &str, c: char) {
        if let Buf::Wide(w) = self {
            w.push(c);
        } else if let Some(o) = self.owned(src) {
            o.push(c);
        }
    }

    /// A code point from an escape; lone surrogates switch to the wide form.
    fn push_code_point(&mut self, src: &str, cp: u32) {
        if let Some(c) = char::from_u32(cp) {
            self.push_char(src, c);
            return;
        }
        if !matches!(self, Buf::Wide(_)) {
            let text = self.owned(src).map(std::mem::take).unwrap_or_default();
            let mut w = PyStrBuilder::with_capacity(text.len() + 4);
            w.push_str(&text);
            *self = Buf::Wide(w);
        }
        if let Buf::Wide(w) = self {
            w.push_code_point(cp);
        }
    }

    fn finish<'a>(self, src: &'a str) -> ScalarText<'a> {
        match self {
            Buf::Borrowed(a, _) if a == usize::MAX => ScalarText::Text(Cow::Borrowed("")),
            Buf::Borrowed(a, b) => ScalarText::Text(Cow::Borrowed(src.get(a..b).unwrap_or(""))),
            Buf::Owned(o) => ScalarText::Text(Cow::Owned(o)),
            Buf::Wide(w) => {
                let p = w.finish();
                match p.as_str() {
                    Some(s) => ScalarText::Text(Cow::Owned(s.to_owned())),
                    None => ScalarText::Wide(Box::new(p)),
                }
            }
        }
    }
}

/// A piece of whitespace or line breaks held back until more text follows.
#[derive(Clone, Copy, Debug)]
enum Piece {
    Src(usize, usize),
    Char(char),
}

/// A consumed line break: `'\n'` (from `\n`, `\r\n`, `\r`, NEL), LS or PS.
#[derive(Clone, Copy, Debug)]
struct LineBreak {
    ch: char,
    start: usize,
    end: usize,
}

impl LineBreak {
    /// As a piece: borrowed when the source held exactly this character
    /// (a raw `\n`, LS or PS); `\r\n`, `\r` and NEL normalise to `\n`.
    fn piece(self, b: &[u8]) -> Piece {
        let raw_lf = self.end == self.start + 1 && b.get(self.start) == Some(&b'\n');
        if raw_lf || self.ch != '\n' {
            Piece::Src(self.start, self.end)
        } else {
            Piece::Char('\n')
        }
    }
}

fn is_break_byte_start(b: &[u8], p: usize) -> usize {
    match b.get(p) {
        Some(b'\n' | b'\r') => 1,
        Some(0xC2) if b.get(p + 1) == Some(&0x85) => 2,
        Some(0xE2) if b.get(p + 1) == Some(&0x80) && matches!(b.get(p + 2), Some(0xA8 | 0xA9)) => 3,
        _ => 0,
    }
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0..=0x7F => 1,
        0x80..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

fn is_break_char(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `'\0 \t\r\n\x85\u2028\u2029'`: end of input, blank or break.
fn is_blankz(c: char) -> bool {
    matches!(c, '\0' | ' ' | '\t') || is_break_char(c)
}

/// `'\0 \r\n\x85\u2028\u2029'` (no tab): where tags, directives and block-scalar headers may end.
fn is_spacez(c: char) -> bool {
    matches!(c, '\0' | ' ') || is_break_char(c)
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn is_uri_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-;/?:@&=+$,_.!~*'()[]%".contains(c)
}

fn scanner_error(context: &str, context_mark: Mark, problem: String, mark: Mark) -> Box<YamlError> {
    Box::new(
        YamlError::new(PyErrorClass::Scanner, problem, mark).with_context(context, context_mark),
    )
}

fn scanner_problem(problem: &str, mark: Mark) -> Box<YamlError> {
    Box::new(YamlError::new(PyErrorClass::Scanner, problem, mark))
}

/// The scanner: a token queue fed on demand.
#[derive(Debug)]
pub(crate) struct Scanner<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    index: usize,
    line: u32,
    column: u32,
    done: bool,
    flow_level: i64,
    tokens: VecDeque<Token<'a>>,
    tokens_taken: usize,
    indent: i64,
    indents: Vec<i64>,
    allow_simple_key: bool,
    /// Possible simple keys, one per flow level at most, ordered by level
    /// (so also by position and token number): the last is the current level's.
    keys: VecDeque<SimpleKey>,
    spaces: Vec<Piece>,
    /// The queue head is final until the next `get_token` (PyYAML's
    /// `need_more_tokens` would answer `False` again, with no side effect).
    settled: bool,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        let mut s = Scanner {
            src,
            b: src.as_bytes(),
            pos: 0,
            index: 0,
            line: 0,
            column: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::new(),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            keys: VecDeque::new(),
            spaces: Vec::new(),
            settled: false,
        };
        let m = s.mark();
        s.tokens.push_back(Token {
            kind: TokenKind::StreamStart,
            start: m,
            end: m,
        });
        s
    }

    // ----- reading -----

    fn mark(&self) -> Mark {
        Mark::new(self.pos, self.line, self.column)
    }

    fn ch_at(&self, p: usize) -> char {
        match self.b.get(p) {
            None => '\0',
            Some(&c) if c < 0x80 => c as char,
            Some(_) => self
                .src
                .get(p..)
                .and_then(|s| s.chars().next())
                .unwrap_or('\0'),
        }
    }

    fn peek(&self) -> char {
        self.ch_at(self.pos)
    }

    fn byte(&self) -> u8 {
        self.b.get(self.pos).copied().unwrap_or(0)
    }

    /// Byte offset `k` characters ahead.
    fn pos_ahead(&self, k: usize) -> usize {
        let mut p = self.pos;
        for _ in 0..k {
            match self.b.get(p) {
                Some(&c) => p += utf8_len(c),
                None => return self.b.len() + 1,
            }
        }
        p
    }

    fn peek_at(&self, k: usize) -> char {
        self.ch_at(self.pos_ahead(k))
    }

    fn forward(&mut self) {
        let Some(&c) = self.b.get(self.pos) else {
            return;
        };
        self.index += 1;
        if c < 0x80 {
            self.pos += 1;
            if c == b'\n' || (c == b'\r' && self.b.get(self.pos) != Some(&b'\n')) {
                self.line = self.line.saturating_add(1);
                self.column = 0;
            } else {
                self.column = self.column.saturating_add(1);
            }
            return;
        }
        let ch = self.peek();
        self.pos += ch.len_utf8().max(1);
        match ch {
            '\u{85}' | '\u{2028}' | '\u{2029}' => {
                self.line = self.line.saturating_add(1);
                self.column = 0;
            }
            '\u{FEFF}' => {}
            _ => self.column = self.column.saturating_add(1),
        }
    }

    fn forward_n(&mut self, n: usize) {
        for _ in 0..n {
            self.forward();
        }
    }

    /// Move to byte offset `end` over text known to hold no line break.
    fn forward_inline(&mut self, end: usize) {
        let seg = self.b.get(self.pos..end).unwrap_or_default();
        if seg.is_ascii() {
            let n = seg.len();
            self.index += n;
            self.column = self.column.saturating_add(n as u32);
        } else {
            let chars = seg.iter().filter(|&&c| (c & 0xC0) != 0x80).count();
            let boms = seg.windows(3).filter(|w| *w == [0xEF, 0xBB, 0xBF]).count();
            self.index += chars;
            self.column = self.column.saturating_add((chars - boms) as u32);
        }
        self.pos = end;
    }

    /// Byte offset of the next line break (or the end) from `p`.
    fn find_break(&self, mut p: usize) -> usize {
        while let Some(&c) = self.b.get(p) {
            match c {
                b'\n' | b'\r' => return p,
                0xC2 | 0xE2 if is_break_byte_start(self.b, p) > 0 => return p,
                _ => p += 1,
            }
        }
        p
    }

    fn at_break(&self) -> bool {
        is_break_byte_start(self.b, self.pos) > 0
    }

    fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }

    /// `scan_line_break`: consume one break, normalising CR LF, CR and NEL to LF.
    fn line_break(&mut self) -> Option<LineBreak> {
        let start = self.pos;
        if self.byte() == b'\n' {
            // The common case, without the general `forward`.
            self.pos += 1;
            self.index += 1;
            self.line = self.line.saturating_add(1);
            self.column = 0;
            return Some(LineBreak {
                ch: '\n',
                start,
                end: self.pos,
            });
        }
        let ch = match self.byte() {
            b'\r' | b'\n' => '\n',
            0xC2 | 0xE2 if self.at_break() => match self.peek() {
                '\u{85}' => '\n',
                c => c,
            },
            _ => return None,
        };
        if self.b.get(self.pos) == Some(&b'\r') && self.b.get(self.pos + 1) == Some(&b'\n') {
            self.forward();
            self.forward();
        } else {
            self.forward();
        }
        Some(LineBreak {
            ch,
            start,
            end: self.pos,
        })
    }

    fn prefix_is(&self, s: &[u8]) -> bool {
        self.b.get(self.pos..self.pos + s.len()) == Some(s)
    }

    /// `---` or `...` followed by a blank or the end.
    fn at_document_indicator(&self) -> bool {
        (self.prefix_is(b"---") || self.prefix_is(b"...")) && is_blankz(self.ch_at(self.pos + 3))
    }

    fn skip_spaces(&mut self) {
        let start = self.pos;
        let mut p = self.pos;
        while self.b.get(p) == Some(&b' ') {
            p += 1;
        }
        if p > start {
            self.forward_inline(p);
        }
    }

    fn skip_comment(&mut self) {
        if self.byte() == b'#' {
            let e = self.find_break(self.pos);
            self.forward_inline(e);
        }
    }

    fn push(&mut self, kind: TokenKind<'a>, start: Mark, end: Mark) {
        self.tokens.push_back(Token { kind, start, end });
    }

    /// Takes the one-character indicator at the cursor as a `kind` token.
    #[inline]
    fn push_indicator(&mut self, kind: TokenKind<'a>) {
        let start = self.mark();
        self.forward();
        let end = self.mark();
        self.push(kind, start, end);
    }

    /// In block context, the checks of an indicator that may open a
    /// collection (`-`, `?`, `:`): refused (`problem`) where no simple key
    /// is allowed; a deeper column opens the collection with a `start` token.
    #[inline]
    fn block_indicator(&mut self, problem: &str, start: TokenKind<'a>) -> Res<()> {
        if self.flow_level != 0 {
            return Ok(());
        }
        if !self.allow_simple_key {
            return Err(scanner_problem(problem, self.mark()));
        }
        if self.add_indent(i64::from(self.column)) {
            let m = self.mark();
            self.push(start, m, m);
        }
        Ok(())
    }

    // ----- the token queue -----

    /// The next token without taking it (`None` once the stream end was taken).
    #[inline]
    fn settle(&mut self) -> Res<()> {
        if !self.settled {
            self.settle_slow()?;
        }
        Ok(())
    }

    fn settle_slow(&mut self) -> Res<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        self.settled = true;
        Ok(())
    }

    /// Take the next token, keeping only its marks (most tokens carry nothing else
    /// the parser needs; not moving the payload keeps this path cheap).
    pub(crate) fn skip_token(&mut self) -> Res<Option<(Mark, Mark)>> {
        self.settle()?;
        self.settled = false;
        let m = self.tokens.front().map(|t| (t.start, t.end));
        if m.is_some() {
            self.tokens.pop_front();
            self.tokens_taken += 1;
        }
        Ok(m)
    }

    #[inline]
    pub(crate) fn peek_token(&mut self) -> Res<Option<&Token<'a>>> {
        self.settle()?;
        Ok(self.tokens.front())
    }

    pub(crate) fn get_token(&mut self) -> Res<Option<Token<'a>>> {
        self.settle()?;
        self.settled = false;
        let t = self.tokens.pop_front();
        if t.is_some() {
            self.tokens_taken += 1;
        }
        Ok(t)
    }

    fn need_more_tokens(&mut self) -> Res<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        self.stale_possible_simple_keys()?;
        Ok(self.keys.front().map(|k| k.token_number) == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> Res<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(i64::from(self.column));
        let ch = self.peek();
        let nb = matches!(ch, '-' | '?' | ':') && is_blankz(self.peek_at(1));
        match ch {
            '\0' if self.at_end() => self.fetch_stream_end(),
            '%' if self.column == 0 => self.fetch_directive(),
            '-' if self.column == 0 && self.at_document_indicator() => {
                self.fetch_document_indicator(TokenKind::DocumentStart)
            }
            '.' if self.column == 0 && self.at_document_indicator() => {
                self.fetch_document_indicator(TokenKind::DocumentEnd)
            }
            '[' => self.fetch_flow_collection_start(TokenKind::FlowSequenceStart),
            '{' => self.fetch_flow_collection_start(TokenKind::FlowMappingStart),
            ']' => self.fetch_flow_collection_end(TokenKind::FlowSequenceEnd),
            '}' => self.fetch_flow_collection_end(TokenKind::FlowMappingEnd),
            ',' => self.fetch_flow_entry(),
            '-' if nb => self.fetch_block_entry(),
            '?' if self.flow_level != 0 || nb => self.fetch_key(),
            ':' if self.flow_level != 0 || nb => self.fetch_value(),
            '*' => self.fetch_anchor(true),
            '&' => self.fetch_anchor(false),
            '!' => self.fetch_tag(),
            '|' if self.flow_level == 0 => self.fetch_block_scalar(false),
            '>' if self.flow_level == 0 => self.fetch_block_scalar(true),
            '\'' => self.fetch_flow_scalar(false),
            '"' => self.fetch_flow_scalar(true),
            _ if self.check_plain() => self.fetch_plain(),
            _ => {
                let m = self.mark();
                Err(scanner_error(
                    "while scanning for the next token",
                    m,
                    format!(
                        "found character {} that cannot start any token",
                        py_repr_char(ch)
                    ),
                    m,
                ))
            }
        }
    }

    fn check_plain(&self) -> bool {
        let c = self.byte();
        let indicator = is_indicator(c);
        if !(indicator || self.at_end() || is_blankz(self.peek())) {
            return true;
        }
        !is_blankz(self.peek_at(1))
            && (c == b'-' || (self.flow_level == 0 && (c == b'?' || c == b':')))
    }

    // ----- simple keys -----

    fn stale_possible_simple_keys(&mut self) -> Res<()> {
        while let Some(k) = self.keys.front() {
            if k.line != self.line || self.index - k.index > 1024 {
                if k.required {
                    return Err(scanner_error(
                        "while scanning a simple key",
                        k.mark,
                        "could not find expected ':'".to_owned(),
                        self.mark(),
                    ));
                }
                self.keys.pop_front();
            } else {
                break;
            }
        }
        Ok(())
    }

    fn save_possible_simple_key(&mut self) -> Res<()> {
        let required = self.flow_level == 0 && self.indent == i64::from(self.column);
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            self.keys.push_back(SimpleKey {
                token_number: self.tokens_taken + self.tokens.len(),
                required,
                index: self.index,
                line: self.line,
                level: self.flow_level,
                mark: self.mark(),
            });
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> Res<()> {
        if let Some(k) = self.keys.back()
            && k.level == self.flow_level
        {
            if k.required {
                return Err(scanner_error(
                    "while scanning a simple key",
                    k.mark,
                    "could not find expected ':'".to_owned(),
                    self.mark(),
                ));
            }
            self.keys.pop_back();
        }
        Ok(())
    }

    // ----- indentation -----

    fn unwind_indent(&mut self, column: i64) {
        if self.flow_level != 0 {
            return;
        }
        while self.indent > column {
            let m = self.mark();
            self.indent = self.indents.pop().unwrap_or(-1);
            self.push(TokenKind::BlockEnd, m, m);
        }
    }

    fn add_indent(&mut self, column: i64) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            true
        } else {
            false
        }
    }

    // ----- fetchers -----

    fn fetch_stream_end(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.keys.clear();
        let m = self.mark();
        self.push(TokenKind::StreamEnd, m, m);
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let t = self.scan_directive()?;
        self.tokens.push_back(t);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, kind: TokenKind<'a>) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.mark();
        self.forward_inline(self.pos + 3);
        let end = self.mark();
        self.push(kind, start, end);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: TokenKind<'a>) -> Res<()> {
        self.save_possible_simple_key()?;
        self.flow_level += 1;
        self.allow_simple_key = true;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: TokenKind<'a>) -> Res<()> {
        self.remove_possible_simple_key()?;
        self.flow_level -= 1;
        self.allow_simple_key = false;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_indicator(TokenKind::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Res<()> {
        self.block_indicator(
            "sequence entries are not allowed here",
            TokenKind::BlockSequenceStart,
        )?;
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_indicator(TokenKind::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> Res<()> {
        self.block_indicator(
            "mapping keys are not allowed here",
            TokenKind::BlockMappingStart,
        )?;
        self.allow_simple_key = self.flow_level == 0;
        self.remove_possible_simple_key()?;
        self.push_indicator(TokenKind::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> Res<()> {
        let key = match self.keys.back() {
            Some(k) if k.level == self.flow_level => Some(*k),
            _ => None,
        };
        if let Some(k) = key {
            self.keys.pop_back();
            let at = k
                .token_number
                .saturating_sub(self.tokens_taken)
                .min(self.tokens.len());
            self.tokens.insert(
                at,
                Token {
                    kind: TokenKind::Key,
                    start: k.mark,
                    end: k.mark,
                },
            );
            if self.flow_level == 0 && self.add_indent(i64::from(k.mark.column)) {
                self.tokens.insert(
                    at,
                    Token {
                        kind: TokenKind::BlockMappingStart,
                        start: k.mark,
                        end: k.mark,
                    },
                );
            }
            self.allow_simple_key = false;
        } else {
            self.block_indicator(
                "mapping values are not allowed here",
                TokenKind::BlockMappingStart,
            )?;
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        self.push_indicator(TokenKind::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let t = self.scan_anchor(alias)?;
        self.tokens.push_back(t);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let t = self.scan_tag()?;
        self.tokens.push_back(t);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, folded: bool) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let t = self.scan_block_scalar(folded)?;
        self.tokens.push_back(t);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, double: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let t = self.scan_flow_scalar(double)?;
        self.tokens.push_back(t);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let t = self.scan_plain();
        self.tokens.push_back(t);
        Ok(())
    }

    // ----- scanners -----

    fn scan_to_next_token(&mut self) {
        if self.index == 0 && self.peek() == '\u{FEFF}' {
            self.forward();
        }
        loop {
            self.skip_spaces();
            self.skip_comment();
            if self.line_break().is_some() {
                if self.flow_level == 0 {
                    self.allow_simple_key = true;
                }
            } else {
                break;
            }
        }
    }

    fn directive_error(&self, start: Mark, problem: String) -> Box<YamlError> {
        scanner_error("while scanning a directive", start, problem, self.mark())
    }

    fn scan_directive(&mut self) -> Res<Token<'a>> {
        let start = self.mark();
        self.forward();
        // Directive name.
        let name_start = self.pos;
        let mut p = self.pos;
        while self.b.get(p).is_some_and(|&c| is_word(c as char)) {
            p += 1;
        }
        if p == name_start {
            let found = py_repr_char(self.peek());
            return Err(self.directive_error(
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        self.forward_inline(p);
        if !is_spacez(self.peek()) {
            let found = py_repr_char(self.peek());
            return Err(self.directive_error(
                start,
                format!("expected alphabetic or numeric character, but found {found}"),
            ));
        }
        let name = self.src.get(name_start..p).unwrap_or("");
        let (value, end) = match name {
            "YAML" => {
                self.skip_spaces();
                let major = self.scan_version_number(start)?;
                if self.peek() != '.' {
                    let found = py_repr_char(self.peek());
                    return Err(self.directive_error(
                        start,
                        format!("expected a digit or '.', but found {found}"),
                    ));
                }
                self.forward();
                let minor = self.scan_version_number(start)?;
                if !is_spacez(self.peek()) {
                    let found = py_repr_char(self.peek());
                    return Err(self.directive_error(
                        start,
                        format!("expected a digit or ' ', but found {found}"),
                    ));
                }
                (Directive::Yaml(major, minor), self.mark())
            }
            "TAG" => {
                self.skip_spaces();
                let handle = self.scan_tag_handle("directive", start)?;
                if self.peek() != ' ' {
                    let found = py_repr_char(self.peek());
                    return Err(
                        self.directive_error(start, format!("expected ' ', but found {found}"))
                    );
                }
                self.skip_spaces();
                let prefix = self.scan_tag_uri("directive", start)?;
                if !is_spacez(self.peek()) {
                    let found = py_repr_char(self.peek());
                    return Err(
                        self.directive_error(start, format!("expected ' ', but found {found}"))
                    );
                }
                (Directive::Tag(handle, prefix), self.mark())
            }
            _ => {
                let end = self.mark();
                let e = self.find_break(self.pos);
                self.forward_inline(e);
                (Directive::Other, end)
            }
        };
        // The rest of the line: spaces and a comment only.
        self.skip_spaces();
        self.skip_comment();
        if !(self.at_end() || self.at_break()) {
            let found = py_repr_char(self.peek());
            return Err(self.directive_error(
                start,
                format!("expected a comment or a line break, but found {found}"),
            ));
        }
        self.line_break();
        Ok(Token {
            kind: TokenKind::Directive(value),
            start,
            end,
        })
    }

    fn scan_version_number(&mut self, start: Mark) -> Res<u32> {
        if !self.peek().is_ascii_digit() {
            let found = py_repr_char(self.peek());
            return Err(self.directive_error(start, format!("expected a digit, but found {found}")));
        }
        let mut v: u32 = 0;
        while self.byte().is_ascii_digit() {
            v = v
                .saturating_mul(10)
                .saturating_add(u32::from(self.byte() - b'0'));
            self.forward();
        }
        Ok(v)
    }

    fn scan_anchor(&mut self, alias: bool) -> Res<Token<'a>> {
        let start = self.mark();
        let what = if alias {
            "while scanning an alias"
        } else {
            "while scanning an anchor"
        };
        self.forward();
        let name_start = self.pos;
        let mut p = self.pos;
        while self.b.get(p).is_some_and(|&c| is_word(c as char)) {
            p += 1;
        }
        let bad = |s: &Self| {
            scanner_error(
                what,
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    py_repr_char(s.peek())
                ),
                s.mark(),
            )
        };
        if p == name_start {
            return Err(bad(self));
        }
        self.forward_inline(p);
        let ch = self.peek();
        if !(is_blankz(ch) || "?:,]}%@`".contains(ch)) {
            return Err(bad(self));
        }
        let name = Cow::Borrowed(self.src.get(name_start..p).unwrap_or(""));
        let end = self.mark();
        let kind = if alias {
            TokenKind::Alias(name)
        } else {
            TokenKind::Anchor(name)
        };
        Ok(Token { kind, start, end })
    }

    fn scan_tag(&mut self) -> Res<Token<'a>> {
        let start = self.mark();
        let ch = self.peek_at(1);
        let (handle, suffix) = if ch == '<' {
            self.forward_n(2);
            let suffix = self.scan_tag_uri("tag", start)?;
            if self.peek() != '>' {
                return Err(scanner_error(
                    "while parsing a tag",
                    start,
                    format!("expected '>', but found {}", py_repr_char(self.peek())),
                    self.mark(),
                ));
            }
            self.forward();
            (None, suffix)
        } else if is_blankz(ch) {
            self.forward();
            (None, Cow::Borrowed("!"))
        } else {
            // A second `!` before the next space means a named handle (`!e!x`, `!!x`).
            let mut p = self.pos + 1;
            let mut use_handle = false;
            loop {
                let c = self.ch_at(p);
                if is_spacez(c) {
                    break;
                }
                if c == '!' {
                    use_handle = true;
                    break;
                }
                p += c.len_utf8();
            }
            let handle = if use_handle {
                self.scan_tag_handle("tag", start)?
            } else {
                self.forward();
                Cow::Borrowed("!")
            };
            let suffix = self.scan_tag_uri("tag", start)?;
            (Some(handle), suffix)
        };
        if !is_spacez(self.peek()) {
            return Err(scanner_error(
                "while scanning a tag",
                start,
                format!("expected ' ', but found {}", py_repr_char(self.peek())),
                self.mark(),
            ));
        }
        let end = self.mark();
        Ok(Token {
            kind: TokenKind::Tag(handle, suffix),
            start,
            end,
        })
    }

    fn scan_tag_handle(&mut self, name: &str, start: Mark) -> Res<Cow<'a, str>> {
        let ctx = format!("while scanning a {name}");
        if self.peek() != '!' {
            return Err(scanner_error(
                &ctx,
                start,
                format!("expected '!', but found {}", py_repr_char(self.peek())),
                self.mark(),
            ));
        }
        let s = self.pos;
        let mut p = self.pos + 1;
        if self.ch_at(p) != ' ' {
            while self.b.get(p).is_some_and(|&c| is_word(c as char)) {
                p += 1;
            }
            if self.ch_at(p) != '!' {
                let found = py_repr_char(self.ch_at(p));
                self.forward_inline(p);
                return Err(scanner_error(
                    &ctx,
                    start,
                    format!("expected '!', but found {found}"),
                    self.mark(),
                ));
            }
            p += 1;
        }
        self.forward_inline(p);
        Ok(Cow::Borrowed(self.src.get(s..p).unwrap_or("")))
    }

    fn scan_tag_uri(&mut self, name: &str, start: Mark) -> Res<Cow<'a, str>> {
        let mut buf = Buf::new();
        let mut any = false;
        loop {
            let s = self.pos;
            let mut p = s;
            while self
                .b
                .get(p)
                .is_some_and(|&c| c != b'%' && is_uri_char(c as char))
            {
                p += 1;
            }
            if p > s {
                any = true;
                buf.push_src(self.src, s, p);
                self.forward_inline(p);
            }
            if self.byte() == b'%' {
                any = true;
                let text = self.scan_uri_escapes(name, start)?;
                buf.push_str(self.src, &text);
            } else {
                break;
            }
        }
        if !any {
            return Err(scanner_error(
                &format!("while parsing a {name}"),
                start,
                format!("expected URI, but found {}", py_repr_char(self.peek())),
                self.mark(),
            ));
        }
        Ok(match buf.finish(self.src) {
            ScalarText::Text(t) => t,
            ScalarText::Wide(w) => Cow::Owned(w.to_string_lossy().into_owned()),
        })
    }

    fn scan_uri_escapes(&mut self, name: &str, start: Mark) -> Res<String> {
        let mark = self.mark();
        let mut codes = Vec::new();
        while self.byte() == b'%' {
            self.forward();
            for k in 0..2 {
                let c = self.peek_at(k);
                if !c.is_ascii_hexdigit() {
                    return Err(scanner_error(
                        &format!("while scanning a {name}"),
                        start,
                        format!(
                            "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                            py_repr_char(c)
                        ),
                        self.mark(),
                    ));
                }
            }
            let hex = self.src.get(self.pos..self.pos + 2).unwrap_or("0");
            codes.push(u8::from_str_radix(hex, 16).unwrap_or(0));
            self.forward_n(2);
        }
        match String::from_utf8(codes) {
            Ok(s) => Ok(s),
            Err(e) => {
                let bytes = e.as_bytes();
                let err = e.utf8_error();
                let at = err.valid_up_to();
                let (len, reason) = match err.error_len() {
                    None => (bytes.len() - at, "unexpected end of data"),
                    Some(n) if matches!(bytes.get(at), Some(0x80..=0xC1 | 0xF5..=0xFF)) => {
                        (n, "invalid start byte")
                    }
                    Some(n) => (n, "invalid continuation byte"),
                };
                let problem = if len > 1 {
                    format!(
                        "'utf-8' codec can't decode bytes in position {}-{}: {reason}",
                        at,
                        at + len - 1
                    )
                } else {
                    format!(
                        "'utf-8' codec can't decode byte 0x{:02x} in position {at}: {reason}",
                        bytes.get(at).copied().unwrap_or(0)
                    )
                };
                Err(scanner_error(
                    &format!("while scanning a {name}"),
                    start,
                    problem,
                    mark,
                ))
            }
        }
    }

    fn scan_block_scalar(&mut self, folded: bool) -> Res<Token<'a>> {
        let start = self.mark();
        let ctx = "while scanning a block scalar";
        self.forward();
        // Header: chomping and indentation indicators in either order.
        let mut chomping: Option<bool> = None;
        let mut increment: Option<i64> = None;
        let zero = |s: &Self| {
            scanner_error(
                ctx,
                start,
                "expected indentation indicator in the range 1-9, but found 0".to_owned(),
                s.mark(),
            )
        };
        let c = self.byte();
        if c == b'+' || c == b'-' {
            chomping = Some(c == b'+');
            self.forward();
            if self.byte().is_ascii_digit() {
                if self.byte() == b'0' {
                    return Err(zero(self));
                }
                increment = Some(i64::from(self.byte() - b'0'));
                self.forward();
            }
        } else if c.is_ascii_digit() {
            if c == b'0' {
                return Err(zero(self));
            }
            increment = Some(i64::from(c - b'0'));
            self.forward();
            let c = self.byte();
            if c == b'+' || c == b'-' {
                chomping = Some(c == b'+');
                self.forward();
            }
        }
        if !is_spacez(self.peek()) {
            return Err(scanner_error(
                ctx,
                start,
                format!(
                    "expected chomping or indentation indicators, but found {}",
                    py_repr_char(self.peek())
                ),
                self.mark(),
            ));
        }
        self.skip_spaces();
        self.skip_comment();
        if !(self.at_end() || self.at_break()) {
            return Err(scanner_error(
                ctx,
                start,
                format!(
                    "expected a comment or a line break, but found {}",
                    py_repr_char(self.peek())
                ),
                self.mark(),
            ));
        }
        self.line_break();

        let min_indent = (self.indent + 1).max(1);
        let mut breaks: Vec<Piece> = Vec::new();
        let mut end_mark;
        let indent = match increment {
            None => {
                // Auto-detect: the deepest indentation among leading blank lines, at least min_indent.
                let mut max_indent: i64 = 0;
                end_mark = self.mark();
                loop {
                    if self.byte() == b' ' {
                        self.forward();
                        max_indent = max_indent.max(i64::from(self.column));
                    } else if let Some(lb) = self.line_break() {
                        breaks.push(lb.piece(self.b));
                        end_mark = self.mark();
                    } else {
                        break;
                    }
                }
                min_indent.max(max_indent)
            }
            Some(inc) => {
                let indent = min_indent + inc - 1;
                end_mark = self.block_scalar_breaks(indent, &mut breaks);
                indent
            }
        };

        let mut buf = Buf::new();
        let mut last_break: Option<LineBreak> = None;
        while i64::from(self.column) == indent && !self.at_end() {
            for p in breaks.drain(..) {
                push_piece(&mut buf, self.src, p);
            }
            let leading_non_space = !matches!(self.byte(), b' ' | b'\t');
            let s = self.pos;
            let e = self.find_break(s);
            buf.push_src(self.src, s, e);
            self.forward_inline(e);
            last_break = self.line_break();
            end_mark = self.block_scalar_breaks(indent, &mut breaks);
            if i64::from(self.column) == indent && !self.at_end() {
                let lb_is_lf = last_break.is_some_and(|l| l.ch == '\n');
                if folded && lb_is_lf && leading_non_space && !matches!(self.byte(), b' ' | b'\t') {
                    if breaks.is_empty() {
                        buf.push_char(self.src, ' ');
                    }
                } else if let Some(lb) = last_break {
                    push_piece(&mut buf, self.src, lb.piece(self.b));
                }
            } else {
                break;
            }
        }
        if chomping != Some(false)
            && let Some(lb) = last_break
        {
            push_piece(&mut buf, self.src, lb.piece(self.b));
        }
        if chomping == Some(true) {
            for p in breaks.drain(..) {
                push_piece(&mut buf, self.src, p);
            }
        }
        let style = if folded {
            ScalarStyle::Folded
        } else {
            ScalarStyle::Literal
        };
        Ok(Token {
            kind: TokenKind::Scalar(buf.finish(self.src), style),
            start,
            end: end_mark,
        })
    }

    /// Blank lines inside a block scalar, indentation up to `indent` eaten.
    fn block_scalar_breaks(&mut self, indent: i64, breaks: &mut Vec<Piece>) -> Mark {
        let mut end = self.mark();
        loop {
            while i64::from(self.column) < indent && self.byte() == b' ' {
                self.forward();
            }
            match self.line_break() {
                Some(lb) => {
                    breaks.push(lb.piece(self.b));
                    end = self.mark();
                }
                None => return end,
            }
        }
    }

    fn scan_flow_scalar(&mut self, double: bool) -> Res<Token<'a>> {
        let start = self.mark();
        let quote = self.byte();
        self.forward();
        let mut buf = Buf::new();
        self.flow_scalar_non_spaces(double, start, &mut buf)?;
        while self.byte() != quote || self.at_end() {
            self.flow_scalar_spaces(double, start, &mut buf)?;
            self.flow_scalar_non_spaces(double, start, &mut buf)?;
        }
        self.forward();
        let end = self.mark();
        let style = if double {
            ScalarStyle::DoubleQuoted
        } else {
            ScalarStyle::SingleQuoted
        };
        Ok(Token {
            kind: TokenKind::Scalar(buf.finish(self.src), style),
            start,
            end,
        })
    }

    fn flow_scalar_non_spaces(&mut self, double: bool, start: Mark, buf: &mut Buf) -> Res<()> {
        loop {
            let s = self.pos;
            let mut p = s;
            loop {
                match self.b.get(p) {
                    None | Some(b'\'' | b'"' | b'\\' | b' ' | b'\t' | b'\r' | b'\n') => break,
                    Some(0xC2 | 0xE2) if is_break_byte_start(self.b, p) > 0 => break,
                    Some(_) => p += 1,
                }
            }
            if p > s {
                buf.push_src(self.src, s, p);
                self.forward_inline(p);
            }
            let c = self.byte();
            if self.at_end() {
                return Ok(());
            }
            if !double && c == b'\'' && self.b.get(self.pos + 1) == Some(&b'\'') {
                buf.push_src(self.src, self.pos, self.pos + 1);
                self.forward_n(2);
            } else if (double && c == b'\'') || (!double && (c == b'"' || c == b'\\')) {
                buf.push_src(self.src, self.pos, self.pos + 1);
                self.forward();
            } else if double && c == b'\\' {
                self.forward();
                let e = self.peek();
                let simple = match e {
                    '0' => Some('\0'),
                    'a' => Some('\x07'),
                    'b' => Some('\x08'),
                    't' | '\t' => Some('\t'),
                    'n' => Some('\n'),
                    'v' => Some('\x0B'),
                    'f' => Some('\x0C'),
                    'r' => Some('\r'),
                    'e' => Some('\x1B'),
                    ' ' => Some(' '),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '/' => Some('/'),
                    'N' => Some('\u{85}'),
                    '_' => Some('\u{A0}'),
                    'L' => Some('\u{2028}'),
                    'P' => Some('\u{2029}'),
                    _ => None,
                };
                if let Some(r) = simple {
                    buf.push_char(self.src, r);
                    self.forward();
                } else if let Some(len) = match e {
                    'x' => Some(2),
                    'u' => Some(4),
                    'U' => Some(8),
                    _ => None,
                } {
                    self.forward();
                    for k in 0..len {
                        let h = self.peek_at(k);
                        if !h.is_ascii_hexdigit() {
                            return Err(scanner_error(
                                "while scanning a double-quoted scalar",
                                start,
                                format!(
                                    "expected escape sequence of {len} hexadecimal numbers, but found {}",
                                    py_repr_char(h)
                                ),
                                self.mark(),
                            ));
                        }
                    }
                    let hex = self.src.get(self.pos..self.pos + len).unwrap_or("0");
                    let code = u32::from_str_radix(hex, 16).unwrap_or(0);
                    if code > 0x10FFFF {
                        // Python's chr() refuses it with a bare exception, no mark:
                        // OverflowError beyond a C int, ValueError otherwise.
                        let (class, problem) = if code > 0x7FFF_FFFF {
                            (
                                PyErrorClass::Overflow,
                                "Python int too large to convert to C int",
                            )
                        } else {
                            (PyErrorClass::Value, "chr() arg not in range(0x110000)")
                        };
                        return Err(Box::new(YamlError {
                            class,
                            context: None,
                            problem: problem.to_owned(),
                            mark: None,
                        }));
                    }
                    buf.push_code_point(self.src, code);
                    self.forward_inline(self.pos + len);
                } else if is_break_char(e) {
                    self.line_break();
                    self.flow_scalar_breaks(start, buf)?;
                } else {
                    return Err(scanner_error(
                        "while scanning a double-quoted scalar",
                        start,
                        format!("found unknown escape character {}", py_repr_char(e)),
                        self.mark(),
                    ));
                }
            } else {
                return Ok(());
            }
        }
    }

    fn flow_scalar_spaces(&mut self, _double: bool, start: Mark, buf: &mut Buf) -> Res<()> {
        let s = self.pos;
        let mut p = s;
        while matches!(self.b.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        self.forward_inline(p);
        if self.at_end() {
            return Err(scanner_error(
                "while scanning a quoted scalar",
                start,
                "found unexpected end of stream".to_owned(),
                self.mark(),
            ));
        }
        if let Some(lb) = self.line_break() {
            let mut breaks = std::mem::take(&mut self.spaces);
            breaks.clear();
            let r = self.flow_scalar_breaks_into(start, &mut breaks);
            if r.is_ok() {
                if lb.ch != '\n' {
                    push_piece(buf, self.src, lb.piece(self.b));
                } else if breaks.is_empty() {
                    buf.push_char(self.src, ' ');
                }
                for p in breaks.drain(..) {
                    push_piece(buf, self.src, p);
                }
            }
            self.spaces = breaks;
            r
        } else {
            buf.push_src(self.src, s, p);
            Ok(())
        }
    }

    fn flow_scalar_breaks(&mut self, start: Mark, buf: &mut Buf) -> Res<()> {
        let mut breaks = std::mem::take(&mut self.spaces);
        breaks.clear();
        let r = self.flow_scalar_breaks_into(start, &mut breaks);
        for p in breaks.drain(..) {
            push_piece(buf, self.src, p);
        }
        self.spaces = breaks;
        r
    }

    fn flow_scalar_breaks_into(&mut self, start: Mark, breaks: &mut Vec<Piece>) -> Res<()> {
        loop {
            if self.at_document_indicator() {
                return Err(scanner_error(
                    "while scanning a quoted scalar",
                    start,
                    "found unexpected document separator".to_owned(),
                    self.mark(),
                ));
            }
            let mut p = self.pos;
            while matches!(self.b.get(p), Some(b' ' | b'\t')) {
                p += 1;
            }
            self.forward_inline(p);
            match self.line_break() {
                Some(lb) => breaks.push(lb.piece(self.b)),
                None => return Ok(()),
            }
        }
    }

    fn scan_plain(&mut self) -> Token<'a> {
        let start = self.mark();
        let mut end = start;
        let indent = self.indent + 1;
        let mut buf = Buf::new();
        let mut spaces = std::mem::take(&mut self.spaces);
        spaces.clear();
        let flow = self.flow_level != 0;
        loop {
            if self.byte() == b'#' {
                break;
            }
            let s = self.pos;
            let mut p = s;
            while let Some(&c) = self.b.get(p) {
                match c {
                    b' ' | b'\t' | b'\r' | b'\n' => break,
                    b':' => {
                        let n = self.ch_at(p + 1);
                        if is_blankz(n) || (flow && ",[]{}".contains(n)) {
                            break;
                        }
                        p += 1;
                    }
                    b',' | b'?' | b'[' | b']' | b'{' | b'}' if flow => break,
                    0xC2 | 0xE2 if is_break_byte_start(self.b, p) > 0 => break,
                    _ => p += 1,
                }
            }
            if p == s {
                break;
            }
            self.allow_simple_key = false;
            for piece in spaces.drain(..) {
                push_piece(&mut buf, self.src, piece);
            }
            buf.push_src(self.src, s, p);
            self.forward_inline(p);
            end = self.mark();
            let more = self.plain_spaces(&mut spaces);
            if !more
                || spaces.is_empty()
                || self.byte() == b'#'
                || (!flow && i64::from(self.column) < indent)
            {
                break;
            }
        }
        spaces.clear();
        self.spaces = spaces;
        Token {
            kind: TokenKind::Scalar(buf.finish(self.src), ScalarStyle::Plain),
            start,
            end,
        }
    }

    /// Whitespace after a plain scalar's words; `false` when a document
    /// indicator ends the scalar (PyYAML returns `None`).
    fn plain_spaces(&mut self, out: &mut Vec<Piece>) -> bool {
        let s = self.pos;
        let mut p = s;
        while self.b.get(p) == Some(&b' ') {
            p += 1;
        }
        self.forward_inline(p);
        if let Some(lb) = self.line_break() {
            self.allow_simple_key = true;
            if self.at_document_indicator() {
                return false;
            }
            let mut breaks: Vec<Piece> = Vec::new();
            loop {
                if self.byte() == b' ' {
                    self.skip_spaces();
                } else if let Some(b2) = self.line_break() {
                    breaks.push(b2.piece(self.b));
                    if self.at_document_indicator() {
                        return false;
                    }
                } else {
                    break;
                }
            }
            if lb.ch != '\n' {
                out.push(lb.piece(self.b));
            } else if breaks.is_empty() {
                out.push(Piece::Char(' '));
            }
            out.extend(breaks);
        } else if p > s {
            out.push(Piece::Src(s, p));
        }
        true
    }
}

fn push_piece(buf: &mut Buf, src: &str, p: Piece) {
    match p {
        Piece::Src(s, e) => buf.push_src(src, s, e),
        Piece::Char(c) => buf.push_char(src, c),
    }
}

/// Characters that cannot start a plain scalar (PyYAML's indicators; `-`, `?`
/// and `:` may, when a non-space follows).
pub(crate) const fn is_indicator(c: u8) -> bool {
    matches!(
        c,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}
