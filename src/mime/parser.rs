//! The parser: Python's `FeedParser` algorithm (compat32) over a whole text —
//! headers until the first non-header line, `message/*` parts parsed as
//! sub-messages, multiparts split at boundary lines (any enclosing boundary
//! also ends a part), defects recorded instead of errors.

use super::content_type::{self, MESSAGE_RFC822, TEXT_PLAIN, content_type_of};
use super::defect::{Defect, DefectKind};
use super::error::{ParseError, PyError};
use super::header::{Header, is_header_line};
use super::line_reader::{EofMatcher, Line, LineReader, Read, match_boundary};
use super::message::{Message, Payload};
use super::param::{ParamValue, params_preserve, unquote_value};
use super::pystr::{eol_len_at_end, eol_len_at_start};
use super::split_parse::{MIN_SPLIT_BYTES, SplitParse};
use crate::python::{py_eq_lower, py_lower, py_rstrip};
use crate::run_aside::RunAside;
use crate::source::{Mark, SharedText, TextSource};
use std::borrow::Cow;

/// The deepest level (root = 0) at which CPython 3.11's `email` parser, as cloud-init
/// calls it, still parses a part; a part nested deeper makes it raise `RecursionError`.
///
/// Python's parser is a chain of generators, one frame per nesting level, under a
/// recursion limit of 1000 frames; what the innermost level calls on top decides
/// where it gives up. Measured against the oracle (cloud-init 22.4 and 25.1 on
/// CPython 3.11): every part at level 981 parses, any part at level 982 raises.
pub const MAX_DEPTH: usize = 981;

/// The deepest level at which a multipart *with a boundary* still parses: compiling
/// its boundary pattern costs the frames that a leaf or a `message/*` part does not
/// need, so one at level 977 already raises (measured as for [`MAX_DEPTH`]; a
/// multipart without a boundary parameter follows [`MAX_DEPTH`]).
pub const MAX_MULTIPART_DEPTH: usize = 976;

#[derive(Debug)]
enum Body {
    Unset,
    Text(SharedText),
    Children(Vec<usize>),
}

#[derive(Debug)]
struct Node {
    headers: Vec<Header>,
    unixfrom: Option<String>,
    default_type: &'static str,
    /// The default type until the headers are read (not copied: they
    /// usually name another).
    content_type: Cow<'static, str>,
    body: Body,
    preamble: Option<String>,
    epilogue: Option<String>,
    defects: Vec<Defect>,
    start: Mark,
    body_start: Mark,
    end: Mark,
}

struct Parser<'a> {
    r: LineReader<'a>,
    /// The parts by id (pre-order), up to the ones [`Parser::adopt`]ed.
    nodes: Vec<Node>,
    /// The parts a [`SplitParse`] parsed, left where the helper built them
    /// (moving them into `nodes` was a copy into fresh memory, ~600 KB for
    /// 5000 parts): part `nodes.len() + k - 1` is `adopted[k]`, and
    /// `adopted[0]`, the helper's stand-in for the multipart, is emptied.
    adopted: Vec<Node>,
    stack: Vec<usize>,
    last: usize,
    /// Deepest level parsed on the caller's stack; deeper documents are parsed
    /// again on a thread of our own (see [`parse`]). `None` on that thread.
    inline_depth: Option<usize>,
    /// The thread a large root multipart's second half may be parsed on,
    /// and the body size from which it is.
    aside: Option<(&'a dyn RunAside, usize)>,
    /// That second half, handed out.
    split: Option<SplitParse>,
    /// The header lines of the message being read (kept for the next one:
    /// a buffer per part was an allocation per part).
    header_lines: Vec<Line>,
}

/// What [`parse_rest`] gives: the parts from a delimiter line on.
pub(super) struct ParsedRest {
    /// Node 0 stands for the multipart; the others are its parts, in order.
    nodes: Vec<Node>,
    /// Where the reader stopped: byte and line.
    end: usize,
    lineno: u32,
}

/// Why the recursive descent stopped.
enum Halt {
    /// What [`parse`] reports.
    Error(ParseError),
    /// The document nests deeper than [`Parser::inline_depth`].
    NeedsDeepStack,
}

impl From<ParseError> for Halt {
    fn from(e: ParseError) -> Self {
        Halt::Error(e)
    }
}

/// Nodes a parser reserves room for at most before it has seen them.
const MAX_RESERVED_NODES: usize = 1 << 16;

/// Levels parsed on the caller's stack: at a few KiB per level (debug builds),
/// well inside the smallest thread stack a caller is likely to have.
const INLINE_DEPTH: usize = 100;

/// Stack of the thread that parses deeper documents: [`MAX_DEPTH`] levels need
/// about 1.3 MiB in a release build and 4 MiB in a debug build.
const DEEP_STACK: usize = 32 << 20;

fn mark_of(line: Line) -> Mark {
    Mark::new(line.start, line.lineno, 0)
}

/// `get_boundary()` on a header list.
fn boundary_of(headers: &[Header]) -> Result<Option<String>, PyError> {
    let Some(h) = headers
        .iter()
        .find(|h| py_eq_lower(&h.name, "Content-Type"))
    else {
        return Ok(None);
    };
    let found: Option<ParamValue> = params_preserve(&h.value)?
        .into_iter()
        .find(|(k, _)| py_eq_lower(k, "boundary"))
        .map(|(_, v)| unquote_value(v));
    match found {
        Some(v) => Ok(Some(py_rstrip(&v.collapse()?).to_string())),
        None => Ok(None),
    }
}

impl<'a> Parser<'a> {
    fn new(
        r: LineReader<'a>,
        inline_depth: Option<usize>,
        aside: Option<(&'a dyn RunAside, usize)>,
    ) -> Self {
        // Sized once for about two parts per KiB still to read: a large
        // multipart no longer regrows (and copies) its arena as it goes,
        // and room not used is never touched.
        let expected = r.remaining() / 512;
        Parser {
            r,
            nodes: Vec::with_capacity(expected.min(MAX_RESERVED_NODES)),
            adopted: Vec::new(),
            stack: Vec::new(),
            last: 0,
            inline_depth,
            aside,
            split: None,
            header_lines: Vec::new(),
        }
    }

    /// Parts so far.
    fn len(&self) -> usize {
        self.nodes.len() + self.adopted.len().saturating_sub(1)
    }

    fn get(&self, id: usize) -> Option<&Node> {
        match id.checked_sub(self.nodes.len()) {
            None => self.nodes.get(id),
            Some(k) => self.adopted.get(k + 1),
        }
    }

    fn node(&mut self, id: usize) -> Option<&mut Node> {
        match id.checked_sub(self.nodes.len()) {
            None => self.nodes.get_mut(id),
            Some(k) => self.adopted.get_mut(k + 1),
        }
    }

    fn defect(&mut self, id: usize, kind: DefectKind, at: Mark) {
        if let Some(n) = self.node(id) {
            n.defects.push(Defect { kind, at });
        }
    }

    fn next_mark(&self) -> Mark {
        let (index, line) = self.r.next_position();
        Mark::new(index, line, 0)
    }

    fn content_type(&self, id: usize) -> &str {
        self.get(id).map_or(TEXT_PLAIN, |n| &*n.content_type)
    }

    fn new_message(&mut self) -> usize {
        let parent = self.stack.last().copied();
        let default_type = match parent {
            Some(p) if self.content_type(p) == "multipart/digest" => MESSAGE_RFC822,
            _ => TEXT_PLAIN,
        };
        let start = self.next_mark();
        let id = self.len();
        let arena = if self.adopted.is_empty() {
            &mut self.nodes
        } else {
            &mut self.adopted
        };
        arena.push(Node {
            headers: Vec::new(),
            unixfrom: None,
            default_type,
            content_type: Cow::Borrowed(default_type),
            body: Body::Unset,
            preamble: None,
            epilogue: None,
            defects: Vec::new(),
            start,
            body_start: start,
            end: start,
        });
        if let Some(p) = parent.and_then(|p| self.node(p)) {
            match &mut p.body {
                Body::Children(c) => c.push(id),
                // A container only gets text after its last child; never both.
                b => *b = Body::Children(vec![id]),
            }
        }
        self.stack.push(id);
        self.last = id;
        id
    }

    fn pop_message(&mut self) -> Option<usize> {
        self.stack.pop()
    }

    /// All remaining lines (up to a real or false end of input).
    fn read_rest(&mut self) -> SharedText {
        self.r.read_rest()
    }

    fn parse_headers(&mut self, id: usize, lines: &[Line]) {
        let mut current: Option<Line> = None;
        let mut conts: Vec<Line> = Vec::new();
        let mut headers = Vec::with_capacity(lines.len());
        let flush =
            |r: &LineReader<'a>, first: Line, conts: &mut Vec<Line>, out: &mut Vec<Header>| {
                // Continuations follow their first line directly in the text, so
                // the header is one slice (the general path stays for safety).
                let mut end = first.end;
                let contiguous = conts.iter().all(|l| {
                    let ok = l.start == end;
                    end = l.end;
                    ok
                });
                let header = if contiguous {
                    let whole = Line { end, ..first };
                    Header::from_lines(r.text(whole), &[], mark_of(first))
                } else {
                    let c: Vec<&str> = conts.iter().map(|l| r.text(*l)).collect();
                    Header::from_lines(r.text(first), &c, mark_of(first))
                };
                out.push(header);
                conts.clear();
            };
        for (i, &line) in lines.iter().enumerate() {
            let t = self.r.text(line);
            if t.starts_with([' ', '\t']) {
                if current.is_none() {
                    self.defect(id, DefectKind::FirstHeaderLineIsContinuation, mark_of(line));
                } else {
                    conts.push(line);
                }
                continue;
            }
            if let Some(first) = current.take() {
                flush(&self.r, first, &mut conts, &mut headers);
            }
            if t.starts_with("From ") {
                if i == 0 {
                    let keep = t.len() - eol_len_at_end(t);
                    let unixfrom = t.get(..keep).unwrap_or(t).to_string();
                    if let Some(n) = self.node(id) {
                        n.unixfrom = Some(unixfrom);
                    }
                } else if i + 1 == lines.len() {
                    // Probably the first body line: give it back.
                    self.r.unread(Read::Line(line));
                    break;
                } else {
                    self.defect(id, DefectKind::MisplacedEnvelopeHeader, mark_of(line));
                }
                continue;
            }
            match memchr::memchr(b':', t.as_bytes()) {
                Some(0) | None => self.defect(id, DefectKind::InvalidHeader, mark_of(line)),
                Some(_) => current = Some(line),
            }
        }
        if let Some(first) = current.take() {
            flush(&self.r, first, &mut conts, &mut headers);
        }
        let default_type = self.get(id).map_or(TEXT_PLAIN, |n| n.default_type);
        let ctype = content_type_of(
            headers
                .iter()
                .find(|h: &&Header| py_eq_lower(&h.name, "Content-Type"))
                .map(|h| h.value.as_str()),
            default_type,
        );
        if let Some(n) = self.node(id) {
            n.headers = headers;
            n.content_type = Cow::Owned(ctype);
        }
    }

    fn parse_message(&mut self, depth: usize) -> Result<(), Halt> {
        let id = self.new_message();
        self.parse_message_body(id, depth)?;
        let end = self.next_mark();
        if let Some(n) = self.node(id) {
            n.end = end;
        }
        Ok(())
    }

    fn parse_message_body(&mut self, id: usize, depth: usize) -> Result<(), Halt> {
        if depth > MAX_DEPTH {
            return Err(self.recursion_error(id, depth));
        }
        if self.inline_depth.is_some_and(|d| depth > d) {
            return Err(Halt::NeedsDeepStack);
        }
        let mut lines = std::mem::take(&mut self.header_lines);
        lines.clear();
        while let Read::Line(l) = self.r.readline() {
            let t = self.r.text(l);
            if !is_header_line(t) {
                if eol_len_at_start(t) == 0 {
                    self.defect(id, DefectKind::MissingHeaderBodySeparator, mark_of(l));
                    self.r.unread(Read::Line(l));
                }
                break;
            }
            lines.push(l);
        }
        self.parse_headers(id, &lines);
        self.header_lines = lines;
        let body_start = self.next_mark();
        if let Some(n) = self.node(id) {
            n.body_start = body_start;
        }
        // What the type says, read (not copied) before the parse borrows the
        // parser again.
        enum Kind {
            Message,
            Multipart,
            Other,
        }
        let (delivery_status, kind) = {
            let ctype = self.content_type(id);
            let kind = match content_type::maintype(ctype) {
                "message" => Kind::Message,
                "multipart" => Kind::Multipart,
                _ => Kind::Other,
            };
            (ctype == "message/delivery-status", kind)
        };
        if delivery_status {
            // Blank-line-separated header blocks, each a sub-message.
            loop {
                self.r.push_matcher(EofMatcher::BlankLine);
                self.parse_message(depth + 1)?;
                self.pop_message();
                self.r.pop_matcher();
                let _ = self.r.readline();
                match self.r.readline() {
                    Read::Eof => break,
                    l => self.r.unread(l),
                }
            }
            return Ok(());
        }
        match kind {
            Kind::Message => {
                self.parse_message(depth + 1)?;
                self.pop_message();
                Ok(())
            }
            Kind::Multipart => self.parse_multipart(id, depth),
            Kind::Other => {
                let body = self.read_rest();
                if let Some(n) = self.node(id) {
                    n.body = Body::Text(body);
                }
                Ok(())
            }
        }
    }

    /// CPython's `RecursionError` for part `id` at nesting level `depth`.
    fn recursion_error(&self, id: usize, depth: usize) -> Halt {
        Halt::Error(ParseError::Python {
            error: PyError::RecursionError { depth },
            at: self.get(id).map_or_else(Mark::default, |n| n.start),
        })
    }

    fn set_text(&mut self, id: usize, text: SharedText) {
        if let Some(n) = self.node(id) {
            n.body = Body::Text(text);
        }
    }

    fn parse_multipart(&mut self, id: usize, depth: usize) -> Result<(), Halt> {
        let (boundary, start, body_start, cte) = {
            let Some(n) = self.get(id) else {
                return Ok(());
            };
            let cte = n
                .headers
                .iter()
                .find(|h| py_eq_lower(&h.name, "Content-Transfer-Encoding"))
                .map_or_else(|| "8bit".to_string(), |h| py_lower(&h.value));
            (boundary_of(&n.headers), n.start, n.body_start, cte)
        };
        let boundary = match boundary {
            Ok(b) => b,
            Err(error) => return Err(ParseError::Python { error, at: start }.into()),
        };
        if boundary.is_some() && depth > MAX_MULTIPART_DEPTH {
            return Err(self.recursion_error(id, depth));
        }
        let Some(boundary) = boundary else {
            self.defect(id, DefectKind::NoBoundaryInMultipart, start);
            let body = self.read_rest();
            self.set_text(id, body);
            return Ok(());
        };
        if !matches!(cte.as_str(), "7bit" | "8bit" | "binary") {
            self.defect(
                id,
                DefectKind::InvalidMultipartContentTransferEncoding,
                start,
            );
        }
        if id == 0 && depth == 0 {
            let ctype = self.content_type(id).to_owned();
            self.split = SplitParse::start(&self.r, self.aside, id, &boundary, &ctype);
        }
        self.delimited_parts(id, depth, &boundary, body_start, true)
    }

    /// A multipart's body from where the reader is: the preamble (while
    /// `capturing_preamble`), then a part after each delimiter line, up to
    /// the close delimiter (then the epilogue) or the end of input.
    fn delimited_parts(
        &mut self,
        id: usize,
        depth: usize,
        boundary: &str,
        body_start: Mark,
        mut capturing_preamble: bool,
    ) -> Result<(), Halt> {
        let mut preamble = String::new();
        let mut preamble_lines = 0usize;
        let mut linesep = false;
        let mut close_seen = false;
        let matcher: std::sync::Arc<str> = boundary.into();
        while let Read::Line(l) = self.r.readline() {
            if !capturing_preamble
                && let Some(split) = self.split.take_if(|s| s.begins_at(id, l.start))
                && let Some(rest) = split.finish()
            {
                // The rest of the body was parsed from this very line on.
                self.adopt(id, rest, l.lineno);
                return Ok(());
            }
            let t = self.r.text(l);
            let Some(m) = match_boundary(t, boundary) else {
                // Only reachable while capturing the preamble.
                preamble.push_str(t);
                preamble_lines += 1;
                continue;
            };
            if m.close {
                close_seen = true;
                linesep = m.linesep;
                break;
            }
            if capturing_preamble {
                if preamble_lines > 0 {
                    // The line break before the boundary belongs to the boundary.
                    let keep = preamble.len() - eol_len_at_end(&preamble);
                    preamble.truncate(keep);
                    if let Some(n) = self.node(id) {
                        n.preamble = Some(std::mem::take(&mut preamble));
                    }
                }
                capturing_preamble = false;
                self.r.unread(Read::Line(l));
                continue;
            }
            // Repeated boundary lines delimit no parts.
            loop {
                match self.r.readline() {
                    Read::Line(l2) if match_boundary(self.r.text(l2), boundary).is_some() => {}
                    other => {
                        self.r.unread(other);
                        break;
                    }
                }
            }
            self.r
                .push_matcher(EofMatcher::Boundary(std::sync::Arc::clone(&matcher)));
            self.parse_message(depth + 1)?;
            self.trim_last();
            self.r.pop_matcher();
            self.pop_message();
            self.last = self.stack.last().copied().unwrap_or(id);
        }
        if capturing_preamble {
            self.defect(id, DefectKind::StartBoundaryNotFound, body_start);
            self.set_text(id, preamble.into());
            // Whatever follows a close boundary seen in the preamble is dropped.
            let _ = self.r.read_rest();
            if let Some(n) = self.node(id) {
                n.epilogue = Some(String::new());
            }
            return Ok(());
        }
        if !close_seen {
            let at = self.next_mark();
            self.defect(id, DefectKind::CloseBoundaryNotFound, at);
            return Ok(());
        }
        let rest = self.r.read_rest();
        // A close boundary without its own line break takes the next one (a
        // `\r` line is never followed by `\n`: that would have been one line).
        let skip = if linesep { 0 } else { eol_len_at_start(&rest) };
        let epilogue = rest.get(skip..).unwrap_or("").to_string();
        if let Some(n) = self.node(id) {
            n.epilogue = Some(epilogue);
        }
        Ok(())
    }

    /// The rest of multipart `id`'s body, parsed aside ([`SplitParse`])
    /// from line `first_line` on: its parts follow ours (ids and line
    /// numbers shifted), its defects and epilogue are `id`'s, and the reader
    /// goes to where that parse ended.
    fn adopt(&mut self, id: usize, rest: ParsedRest, first_line: u32) {
        let ParsedRest {
            mut nodes,
            end,
            lineno,
        } = rest;
        // Node 0 stands for `id`; the others follow ours.
        let offset = self.len() - 1;
        let shift = |m: &mut Mark| m.line = m.line.saturating_add(first_line);
        for n in &mut nodes {
            if let Body::Children(ids) = &mut n.body {
                ids.iter_mut().for_each(|k| *k += offset);
            }
            for m in [&mut n.start, &mut n.body_start, &mut n.end] {
                shift(m);
            }
            n.headers.iter_mut().for_each(|h| shift(&mut h.at));
            n.defects.iter_mut().for_each(|d| shift(&mut d.at));
        }
        let Some(stand_in) = nodes.first_mut() else {
            return;
        };
        let kids = std::mem::replace(&mut stand_in.body, Body::Unset);
        let mut defects = std::mem::take(&mut stand_in.defects);
        let epilogue = stand_in.epilogue.take();
        if self.adopted.is_empty() {
            self.adopted = nodes;
        } else {
            // Only a root multipart is split, once; kept general all the same.
            self.adopted.extend(nodes.into_iter().skip(1));
        }
        if let Some(n) = self.node(id) {
            if let Body::Children(mut kids) = kids {
                match &mut n.body {
                    Body::Children(c) => c.append(&mut kids),
                    b => *b = Body::Children(kids),
                }
            }
            n.defects.append(&mut defects);
            n.epilogue = epilogue;
        }
        self.r.jump_to(end, lineno.saturating_add(first_line));
    }

    /// The line break before a boundary belongs to the boundary: remove it from
    /// the last message created (its text, or its epilogue if a multipart).
    fn trim_last(&mut self) {
        let Some(n) = self.node(self.last) else {
            return;
        };
        if content_type::maintype(&n.content_type) == "multipart" {
            match &mut n.epilogue {
                Some(e) if e.is_empty() => n.epilogue = None,
                Some(e) => {
                    let keep = e.len() - eol_len_at_end(e);
                    e.truncate(keep);
                }
                None => {}
            }
        } else if let Body::Text(s) = &mut n.body {
            let keep = s.len() - eol_len_at_end(s);
            s.truncate(keep);
        }
    }

    /// The parts by id, in one list.
    fn into_nodes(mut self) -> Vec<Node> {
        self.nodes.extend(self.adopted.into_iter().skip(1));
        self.nodes
    }

    /// Turn the arena into an owned tree, children first (no recursion).
    ///
    /// Ids are in pre-order (a part is created before its sub-parts, which
    /// are created while it is open), so a part's subtree is the ids right
    /// after it. Built from the last id back, a part's children are then the
    /// top of the stack of parts built so far, its first child topmost: each
    /// message is moved once into that stack and once into its parent's list,
    /// and the root's list is the stack itself.
    fn into_tree(self, root: usize) -> Option<Message> {
        let len = self.len();
        let mut built: Vec<Message> = Vec::with_capacity(len);
        let mut built_ids: Vec<usize> = Vec::with_capacity(len);
        // Last id first: the adopted parts, then ours.
        let adopted = self.adopted.into_iter().skip(1).rev();
        let nodes = adopted.chain(self.nodes.into_iter().rev());
        for (id, node) in (0..len).rev().zip(nodes) {
            let payload = match node.body {
                Body::Unset => Payload::Text(SharedText::default()),
                Body::Text(s) => Payload::Text(s),
                Body::Children(ids) => {
                    let from = built.len().checked_sub(ids.len())?;
                    if !built_ids.get(from..)?.iter().rev().eq(&ids) {
                        return None;
                    }
                    built_ids.truncate(from);
                    let mut kids = if from == 0 {
                        std::mem::take(&mut built)
                    } else {
                        built.split_off(from)
                    };
                    kids.reverse();
                    if content_type::maintype(&node.content_type) == "multipart" {
                        Payload::Multipart(kids)
                    } else {
                        Payload::Message(kids)
                    }
                }
            };
            built.push(Message {
                headers: node.headers,
                unixfrom: node.unixfrom,
                default_type: node.default_type,
                content_type: node.content_type.into_owned(),
                payload,
                preamble: node.preamble,
                epilogue: node.epilogue,
                defects: node.defects,
                start: node.start,
                body_start: node.body_start,
                end: node.end,
            });
            built_ids.push(id);
        }
        let at = built_ids.iter().position(|&id| id == root)?;
        (at < built.len()).then(|| built.swap_remove(at))
    }
}

/// Parse a MIME document exactly as `email.message_from_string(text)` does
/// (compat32 policy). Python's parser records defects instead of failing; the
/// `Err` cases are the exceptions Python raises itself: malformed RFC 2231
/// `boundary` parameters, and `RecursionError` beyond [`MAX_DEPTH`] /
/// [`MAX_MULTIPART_DEPTH`] levels of nesting.
///
/// The parser recurses once per nesting level. A document nested deeper than
/// a hundred levels is parsed again on a thread of its own with a large stack,
/// so that any caller's thread suffices up to Python's own limit.
pub fn parse(text: &str) -> Result<Message, ParseError> {
    parse_reading(&|| LineReader::new(text), None)
}

/// [`parse`] of a shared text: leaf bodies are slices of `source` (see
/// [`SharedText`]), not copies.
///
/// With `aside`, a large multipart document is parsed on two threads (see
/// `SplitParse`); the result is the same.
pub fn parse_shared(
    source: &TextSource,
    aside: Option<&dyn RunAside>,
) -> Result<Message, ParseError> {
    parse_shared_splitting(source, aside, MIN_SPLIT_BYTES)
}

/// [`parse_shared`], splitting root multipart bodies of `min_bytes` and more
/// (tests split small documents).
#[doc(hidden)]
pub fn parse_shared_splitting(
    source: &TextSource,
    aside: Option<&dyn RunAside>,
    min_bytes: usize,
) -> Result<Message, ParseError> {
    parse_reading(
        &|| LineReader::shared(source),
        aside.map(|a| (a, min_bytes)),
    )
}

/// [`parse`], the lines coming from a reader made by `reader` (once more
/// for a deep document).
fn parse_reading<'a>(
    reader: &(dyn Fn() -> LineReader<'a> + Sync),
    aside: Option<(&'a dyn RunAside, usize)>,
) -> Result<Message, ParseError> {
    let deep = match parse_on_this_stack(reader(), Some(INLINE_DEPTH), aside) {
        Ok(m) => return Ok(m),
        Err(Halt::Error(e)) => return Err(e),
        Err(Halt::NeedsDeepStack) => std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("mime-deep-parse".into())
                .stack_size(DEEP_STACK)
                .spawn_scoped(scope, || parse_on_this_stack(reader(), None, None))
                .ok()
                .and_then(|t| t.join().ok())
        }),
    };
    match deep {
        Some(Ok(m)) => Ok(m),
        Some(Err(Halt::Error(e))) => Err(e),
        // The thread could not be started (or, impossibly, asked for yet another).
        Some(Err(Halt::NeedsDeepStack)) | None => Err(ParseError::Internal {
            at: Mark::default(),
        }),
    }
}

fn parse_on_this_stack<'a>(
    r: LineReader<'a>,
    inline_depth: Option<usize>,
    aside: Option<(&'a dyn RunAside, usize)>,
) -> Result<Message, Halt> {
    let mut p = Parser::new(r, inline_depth, aside);
    p.parse_message(0)?;
    let root = p.pop_message().unwrap_or(0);
    let root_mark = p.get(root).map_or_else(Mark::default, |n| n.start);
    if let Some(n) = p.node(root)
        && content_type::maintype(&n.content_type) == "multipart"
        && !matches!(n.body, Body::Children(_))
    {
        n.defects.push(Defect {
            kind: DefectKind::MultipartInvariantViolation,
            at: root_mark,
        });
    }
    p.into_tree(root)
        .ok_or(Halt::Error(ParseError::Internal { at: root_mark }))
}

/// The body of a multipart with content type `content_type`, from its
/// delimiter line at byte `at` of `source` on (counted as line 0), parsed as
/// [`Parser::delimited_parts`] parses it once the preamble is behind: what
/// [`SplitParse`] runs on the other thread. `None` if it fails (the caller's
/// own parse then meets the failure itself).
pub(super) fn parse_rest(
    source: &TextSource,
    at: usize,
    boundary: &str,
    content_type: &str,
) -> Option<ParsedRest> {
    let mut p = Parser::new(
        LineReader::shared_at(source, at, 0),
        Some(INLINE_DEPTH),
        None,
    );
    // Node 0 stands for the multipart (its type decides its parts' default).
    let id = p.new_message();
    p.node(id)?.content_type = Cow::Owned(content_type.to_owned());
    p.delimited_parts(id, 0, boundary, Mark::default(), false)
        .ok()?;
    let (end, lineno) = p.r.next_position();
    Some(ParsedRest {
        nodes: p.into_nodes(),
        end,
        lineno,
    })
}
