//! `DocumentEmitter`: write a representation graph as one YAML document, block style.
//!
//! Collections are written in block style except empty ones (`[]`, `{}`);
//! the walk keeps its own stack. Layout decisions (sequence indentation,
//! simple vs `?` keys, scalar style, tags, anchors, document markers) are the
//! ones PyYAML 6.0.3's emitter makes for a SafeDumper with
//! `default_flow_style=False`.

use super::analysis_cache::AnalysisCache;
use super::dump_text::{DumpText, KEPT_TAIL, Keep};
use super::implicit_resolver::resolves_to_str;
use super::output::Output;
use super::repr_graph::{MapTag, ScalarTag, SeqTag};
use super::scalar_analysis::ScalarAnalysis;
use super::text_unit::{TextUnit, decode_wtf8};
use super::tree::{Enter, Tree, View};
use super::{DumpError, DumpOptions};
use std::fmt::Write;

/// Where a node is written (PyYAML's root/mapping/simple-key contexts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Root,
    SeqItem,
    Mapping,
    SimpleKey,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

#[derive(Debug, Clone, Copy)]
enum MapStep {
    Key,
    SimpleValue,
    ComplexValue,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Seq {
        start: u32,
        len: u32,
        pos: u32,
    },
    Map {
        start: u32,
        len: u32,
        pos: u32,
        step: MapStep,
    },
}

struct DocumentEmitter<'o, Ix> {
    opts: &'o DumpOptions,
    o: Output,
    /// Per anchor number: whether the anchored node was written already.
    written: Vec<bool>,
    /// Code points of the current non-ASCII scalar.
    cps: Vec<u32>,
    stack: Vec<Frame>,
    /// The analysis of the last key checked for simplicity, reused when it
    /// is written right after.
    key_analysis: Option<(Ix, ScalarAnalysis)>,
    /// Analyses of the short ASCII texts written so far.
    analyses: AnalysisCache,
    /// First occurrences of objects that may recur, oldest first.
    checkpoints: Vec<Checkpoint<Ix>>,
    /// Open collections with a checkpoint: (stack depth, checkpoint).
    marks: Vec<(usize, usize)>,
    /// A subtree is being written again (see [`Self::splice`]).
    replaying: bool,
    /// Where each anchored object was first written: (anchor, offset).
    anchored_at: Vec<(u32, usize)>,
    /// How much of the text is kept, and in what.
    keep: Keep,
    /// Pieces of the text moved out of the output (see [`Self::flush`]).
    pieces: Vec<String>,
    /// Bytes of text moved out of the output (kept in `pieces` or dropped).
    moved: usize,
    /// Output length from which the walk checks the size limit and whether
    /// a piece is done (see [`Self::update_check`]): one comparison a node.
    check_at: usize,
}

/// Where the first occurrence of an object that may recur was written, so
/// that it can be written again with an anchor once it does recur.
#[derive(Debug)]
struct Checkpoint<Ix> {
    id: usize,
    ix: Ix,
    ctx: Ctx,
    /// Output offset and layout state before the object.
    start: usize,
    state: Output,

    /// Output offset and layout state after it (once written).
    end: Option<(usize, Output)>,
    /// Still usable (false once the text it describes was replaced).
    valid: bool,
}

/// Checkpoints kept at most (each copies a little state).
const MAX_CHECKPOINTS: usize = 64;

/// Write the document for the tree `g` after `prefix` (stops early, with
/// unusable text, once `g.failed()`); `capacity`: bytes to reserve for it;
/// `keep`: how much of the text to keep, in what.
pub(super) fn emit<G: Tree>(
    g: &mut G,
    opts: &DumpOptions,
    prefix: &str,
    capacity: usize,
    keep: Keep,
) -> Result<DumpText, DumpError> {
    let capacity = capacity.min(opts.max_output_bytes).max(g.size_hint());
    let mut e = DocumentEmitter {
        opts,
        o: Output::new(
            opts.best_indent(),
            opts.best_width(),
            prefix.as_bytes(),
            keep.piece()
                .map_or(capacity, |p| capacity.min(piece_capacity(p))),
        ),
        written: vec![false; g.anchors() as usize + 1],
        cps: Vec::new(),
        stack: Vec::new(),
        key_analysis: None,
        analyses: AnalysisCache::new(),
        checkpoints: Vec::new(),
        marks: Vec::new(),
        replaying: false,
        anchored_at: Vec::new(),
        keep,
        pieces: Vec::new(),
        moved: 0,
        check_at: 0,
    };
    e.update_check();
    if opts.explicit_start {
        e.o.write_indent();
        e.o.write_indicator("---", true, false, false);
    }
    let root = g.root();
    e.node(g, root, Ctx::Root);
    e.run(g)?;
    e.o.write_indent();
    if opts.explicit_end {
        e.o.write_indicator("...", true, false, false);
        e.o.write_indent();
    }
    if e.o.open_ended {
        e.o.write_indicator("...", true, false, false);
        e.o.write_indent();
    }
    let len = e.moved + e.o.out.len();
    let mut pieces = e.pieces;
    pieces.push(utf8(e.o.out));
    Ok(DumpText { pieces, len })
}

/// Text written by the emitter as a string.
fn utf8(text: Vec<u8>) -> String {
    // Everything written was ASCII or whole characters.
    String::from_utf8(text).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Bytes reserved for a piece of about `piece` bytes (a piece ends after
/// the node that reaches its size: room for a few more lines).
fn piece_capacity(piece: usize) -> usize {
    piece.saturating_add(piece / 8)
}

impl<Ix: Copy + PartialEq> DocumentEmitter<'_, Ix> {
    fn run<G: Tree<Ix = Ix>>(&mut self, g: &mut G) -> Result<(), DumpError> {
        while let Some(&top) = self.stack.last() {
            if g.failed() {
                return Ok(());
            }
            let next = match top {
                Frame::Seq { start, len, pos } => {
                    if pos >= len {
                        self.pop_frame(g, start);
                        continue;
                    }
                    self.set_top(Frame::Seq {
                        start,
                        len,
                        pos: pos + 1,
                    });
                    self.o.write_indent();
                    self.o.write_indicator("-", true, false, true);
                    g.kid(start, pos).map(|c| (c, Ctx::SeqItem))
                }
                Frame::Map {
                    start,
                    len,
                    pos,
                    step: MapStep::Key,
                } => {
                    if pos >= len {
                        self.pop_frame(g, start);
                        continue;
                    }
                    let key = g.kid(start, 2 * pos);
                    if let Some(k) = key {
                        g.key(k);
                        if self.simple_str_key(g, k) {
                            self.set_top(Frame::Map {
                                start,
                                len,
                                pos,
                                step: MapStep::SimpleValue,
                            });
                            continue;
                        }
                    }
                    let simple = key.is_some_and(|k| self.is_simple_key(g, k));
                    let step = if simple {
                        MapStep::SimpleValue
                    } else {
                        MapStep::ComplexValue
                    };
                    self.set_top(Frame::Map {
                        start,
                        len,
                        pos,
                        step,
                    });
                    self.o.write_indent();
                    if !simple {
                        self.o.write_indicator("?", true, false, true);
                    }
                    key.map(|k| (k, if simple { Ctx::SimpleKey } else { Ctx::Mapping }))
                }
                Frame::Map {
                    start,
                    len,
                    pos,
                    step,
                } => {
                    self.set_top(Frame::Map {
                        start,
                        len,
                        pos: pos + 1,
                        step: MapStep::Key,
                    });
                    if matches!(step, MapStep::ComplexValue) {
                        self.o.write_indent();
                        self.o.write_indicator(":", true, false, true);
                    } else {
                        self.o.write_indicator(":", false, false, false);
                    }
                    g.kid(start, 2 * pos + 1).map(|v| (v, Ctx::Mapping))
                }
            };
            if let Some((ix, ctx)) = next {
                self.node(g, ix, ctx);
            }
            if self.o.out.len() >= self.check_at {
                if self.o.out.len() > self.max_len() {
                    return Err(DumpError::TooLarge(self.opts.max_output_bytes));
                }
                if let Some(piece) = self.keep.piece()
                    && !self.replaying
                {
                    self.flush(piece);
                }
                self.update_check();
            }
        }
        Ok(())
    }

    /// The longest output within the size limit (a subtree written again
    /// is counted alone).
    fn max_len(&self) -> usize {
        let moved = if self.replaying { 0 } else { self.moved };
        (self.opts.max_output_bytes.saturating_add(self.o.base)).saturating_sub(moved)
    }

    /// Set the output length from which [`Self::run`] looks again: past
    /// the size limit, or (written in pieces, not replaying) a piece's size.
    fn update_check(&mut self) {
        let piece = match self.keep.piece() {
            Some(p) if !self.replaying => p,
            _ => usize::MAX,
        };
        self.check_at = self.max_len().saturating_add(1).min(piece);
    }

    /// Move the text written so far out of the output: into a piece, or
    /// dropped but for its last bytes ([`Keep::Nothing`] after the first).
    /// Text moved out cannot be replaced, so no object written so far is
    /// written again with an anchor in place (one that recurs makes the
    /// caller walk again knowing it, as one beyond [`MAX_CHECKPOINTS`] does).
    fn flush(&mut self, piece: usize) {
        if self.marks.is_empty() {
            self.checkpoints.clear();
        } else {
            for c in &mut self.checkpoints {
                c.valid = false;
            }
        }
        self.anchored_at.clear();
        let len = self.o.out.len();
        if matches!(self.keep, Keep::Nothing(_)) && !self.pieces.is_empty() {
            let cut = len.saturating_sub(KEPT_TAIL);
            self.o.out.copy_within(cut.., 0);
            self.o.out.truncate(len - cut);
            self.moved += cut;
        } else {
            let next = Vec::with_capacity(piece_capacity(piece));
            let text = std::mem::replace(&mut self.o.out, next);
            self.pieces.push(utf8(text));
            self.moved += len;
        }
    }

    /// Close the innermost collection.
    fn pop_frame<G: Tree<Ix = Ix>>(&mut self, g: &mut G, start: u32) {
        self.stack.pop();
        g.close(start);
        self.o.decrease_indent();
        if !self.replaying
            && let Some(&(depth, k)) = self.marks.last()
            && depth > self.stack.len()
        {
            self.marks.pop();
            self.end_checkpoint(k);
        }
    }

    fn end_checkpoint(&mut self, k: usize) {
        let end = (self.o.out.len(), self.o.state());
        if let Some(c) = self.checkpoints.get_mut(k) {
            c.end = Some(end);
        }
    }

    /// The object `id` recurs: write its first occurrence again with an
    /// anchor in place of the text written for it. Done only when the
    /// layout after it comes out the same (an anchor changes only the
    /// object's own first line), so the text that follows stays valid.
    fn splice<G: Tree<Ix = Ix>>(&mut self, g: &mut G, id: usize) -> bool {
        let Some(k) = self.checkpoints.iter().rposition(|c| c.id == id && c.valid) else {
            return false;
        };
        let Some(cp) = self.checkpoints.get(k) else {
            return false;
        };
        let Some((end, end_state)) = cp.end.clone() else {
            return false; // still open: it contains itself
        };
        let (start, ix, ctx) = (cp.start, cp.ix, cp.ctx);
        let a = g.learn(id);
        // Anchored objects first written inside it are written again.
        let mut written = self.written.clone();
        written.resize(written.len().max(a as usize + 1), false);
        for &(b, at) in &self.anchored_at {
            if at >= start
                && at < end
                && let Some(w) = written.get_mut(b as usize)
            {
                *w = false;
            }
        }
        if let Some(w) = written.get_mut(a as usize) {
            *w = false;
        }
        let saved_o = std::mem::replace(&mut self.o, cp.state.clone());
        let saved_stack = std::mem::take(&mut self.stack);
        let saved_written = std::mem::replace(&mut self.written, written);
        let saved_key = self.key_analysis.take();
        self.replaying = true;
        self.update_check();
        g.replay(true);
        self.node(g, ix, ctx);
        let done = self.run(g).is_ok() && !g.failed();
        g.replay(false);
        self.replaying = false;
        let sub = std::mem::replace(&mut self.o, saved_o);
        self.update_check();
        self.stack = saved_stack;
        self.written = saved_written;
        self.key_analysis = saved_key;
        if !done || sub.state() != end_state || start > end || end > self.o.out.len() {
            return false;
        }
        let new_len = sub.out.len();
        self.o.out.splice(start..end, sub.out);
        let shift = |at: usize| at + new_len - (end - start);
        for c in &mut self.checkpoints {
            if c.start >= start && c.start < end {
                // Inside the replaced text: only its anchor still matters.
                c.valid = false;
                c.start = start;
            } else if c.start >= end {
                c.start = shift(c.start);
            }
            if let Some((e, _)) = &mut c.end
                && *e >= end
            {
                *e = shift(*e);
            }
        }
        for (_, at) in &mut self.anchored_at {
            if *at >= start && *at < end {
                *at = start;
            } else if *at >= end {
                *at = shift(*at);
            }
        }
        self.anchored_at.push((a, start));
        self.mark_written(a);
        true
    }

    fn mark_written(&mut self, a: u32) {
        let a = a as usize;
        if a >= self.written.len() {
            self.written.resize(a + 1, false);
        }
        if let Some(w) = self.written.get_mut(a) {
            *w = true;
        }
    }

    fn set_top(&mut self, f: Frame) {
        if let Some(top) = self.stack.last_mut() {
            *top = f;
        }
    }

    /// The anchor of a node, and whether it was written before (an alias now).
    fn anchor_of<G: Tree<Ix = Ix>>(&self, g: &G, ix: Ix) -> (u32, bool) {
        let a = g.anchor(ix);
        (
            a,
            a != 0 && self.written.get(a as usize).copied().unwrap_or(false),
        )
    }

    fn anchor_name_len(a: u32) -> usize {
        if a == 0 {
            0
        } else {
            // "id" + at least three digits.
            2 + a.to_string().len().max(3)
        }
    }

    fn write_anchor(&mut self, indicator: char, a: u32) {
        let mut s = String::with_capacity(8);
        let _ = write!(s, "{indicator}id{a:03}");
        self.o.write_indicator(&s, true, false, false);
    }

    /// Whether a key fits on one line before `:` (PyYAML's simple key: under
    /// 128 characters counting anchor, tag shorthand and text; not empty, not
    /// multi-line; aliases and empty collections qualify).
    fn is_simple_key<G: Tree<Ix = Ix>>(&mut self, g: &G, ix: Ix) -> bool {
        let (a, alias) = self.anchor_of(g, ix);
        if alias {
            return Self::anchor_name_len(a) < 128;
        }
        let length = Self::anchor_name_len(a);
        // `ref`: the view is read where it was returned, not moved first
        // (a copy of its fields just stored stalls the load).
        match g.view(ix) {
            View::Scalar { tag, ref text } => {
                let (analysis, chars) = match text.bytes() {
                    (b, true) if text.is_plain() => (self.plain_analysis(b), b.len()),
                    (b, true) => (self.analyse(b), b.len()),
                    (b, false) => {
                        self.load_cps(b);
                        let cps = std::mem::take(&mut self.cps);
                        let r = (self.analyse(&cps), cps.len());
                        self.cps = cps;
                        r
                    }
                };
                self.key_analysis = Some((ix, analysis));
                length + tag.shorthand().len() + chars < 128
                    && !analysis.empty
                    && !analysis.multiline
            }
            View::Seq { len: 0, .. } | View::Map { len: 0, .. } => true,
            _ => false,
        }
    }

    /// Write key `ix` at once when it is a simple ASCII `str` (nearly every
    /// key): `node` would do the same (a `str` is never anchored, aliased
    /// or a checkpoint) after viewing and analysing it a second time.
    /// False when it is not such a key (nothing written then).
    fn simple_str_key<G: Tree<Ix = Ix>>(&mut self, g: &G, ix: Ix) -> bool {
        let View::Scalar {
            tag: ScalarTag::Str,
            ref text,
        } = g.view(ix)
        else {
            return false;
        };
        let (b, true) = text.bytes() else {
            return false;
        };
        let plain = text.is_plain();
        let analysis = if plain {
            self.plain_analysis(b)
        } else {
            self.analyse(b)
        };
        // `is_simple_key` for a `str` (no anchor: never aliasable).
        if ScalarTag::Str.shorthand().len() + b.len() >= 128 || analysis.empty || analysis.multiline
        {
            return false;
        }
        self.o.write_indent();
        self.key_analysis = Some((ix, analysis));
        self.scalar(ix, b, ScalarTag::Str, 0, Ctx::SimpleKey, plain);
        true
    }

    /// The analysis of a text a loader found plain-safe (see
    /// [`ScalarText::Plain`](super::tree::ScalarText::Plain)); debug builds
    /// check it, and that it reads back as a `str`.
    fn plain_analysis(&self, text: &[u8]) -> ScalarAnalysis {
        debug_assert_eq!(self.analyse(text), ScalarAnalysis::PLAIN, "{text:?}");
        debug_assert!(resolves_to_str(text), "{text:?}");
        ScalarAnalysis::PLAIN
    }

    fn analyse<T: TextUnit>(&self, text: &[T]) -> ScalarAnalysis {
        let of = || ScalarAnalysis::of(text, self.opts.allow_unicode, self.opts.escape_next_line);
        match T::as_ascii(text) {
            Some(bytes) => self.analyses.get(bytes, of),
            None => of(),
        }
    }

    /// Whether `text` written plain loads as a `str` (kept with the
    /// analysis of a short ASCII text: the same keys and values recur).
    fn plain_str<T: TextUnit>(&self, text: &[T]) -> bool {
        match T::as_ascii(text) {
            Some(bytes) => self.analyses.plain_str(bytes, || resolves_to_str(bytes)),
            None => resolves_to_str(text),
        }
    }

    fn load_cps(&mut self, bytes: &[u8]) {
        self.cps.clear();
        decode_wtf8(bytes, &mut self.cps);
    }

    /// Write node `ix` in context `ctx`; a non-empty block collection is
    /// opened and pushed on the stack for [`Self::run`].
    fn node<G: Tree<Ix = Ix>>(&mut self, g: &mut G, ix: Ix, ctx: Ctx) {
        let (a, alias) = self.anchor_of(g, ix);
        if alias {
            self.write_anchor('*', a);
            return;
        }
        if a != 0 {
            self.mark_written(a);
            if !self.replaying {
                self.anchored_at.push((a, self.o.out.len()));
            }
        }
        let mut checkpoint = None;
        match g.enter(ix) {
            Enter::Plain => {}
            Enter::First(id) => {
                if !self.replaying && self.checkpoints.len() < MAX_CHECKPOINTS {
                    checkpoint = Some(self.checkpoints.len());
                    self.checkpoints.push(Checkpoint {
                        id,
                        ix,
                        ctx,
                        start: self.o.out.len(),
                        state: self.o.state(),
                        end: None,
                        valid: true,
                    });
                }
            }
            Enter::Again(id) => {
                if self.splice(g, id) {
                    let (a, _) = self.anchor_of(g, ix);
                    self.write_anchor('*', a);
                } else {
                    g.give_up(id);
                }
                return;
            }
        }
        let (open, len) = match g.view(ix) {
            View::Scalar { tag, ref text } => {
                match text.bytes() {
                    (b, true) => self.scalar(ix, b, tag, a, ctx, text.is_plain()),
                    (b, false) => {
                        self.load_cps(b);
                        let cps = std::mem::take(&mut self.cps);
                        self.scalar(ix, &cps, tag, a, ctx, false);
                        self.cps = cps;
                    }
                }
                // A date or timestamp may recur.
                if let Some(k) = checkpoint {
                    self.end_checkpoint(k);
                }
                return;
            }
            View::Seq { tag, len } => {
                if a != 0 {
                    self.write_anchor('&', a);
                }
                if tag == SeqTag::Pairs {
                    self.o.write_indicator("!!pairs", true, false, false);
                }
                if len == 0 {
                    self.empty_flow("[", "]");
                    if let Some(k) = checkpoint {
                        self.end_checkpoint(k);
                    }
                    return;
                }
                let indentless = ctx == Ctx::Mapping && !self.o.indention;
                self.o.increase_indent(false, indentless);
                (true, len)
            }
            View::Map { tag, len } => {
                if a != 0 {
                    self.write_anchor('&', a);
                }
                if tag == MapTag::Set {
                    self.o.write_indicator("!!set", true, false, false);
                }
                if len == 0 {
                    self.empty_flow("{", "}");
                    if let Some(k) = checkpoint {
                        self.end_checkpoint(k);
                    }
                    return;
                }
                self.o.increase_indent(false, false);
                (false, len)
            }
        };
        g.deeper(self.stack.len() + 1);
        let start = g.open(ix);
        self.stack.push(if open {
            Frame::Seq { start, len, pos: 0 }
        } else {
            Frame::Map {
                start,
                len,
                pos: 0,
                step: MapStep::Key,
            }
        });
        if let Some(k) = checkpoint {
            self.marks.push((self.stack.len(), k));
        }
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.o.write_indicator(open, true, true, false);
        self.o.write_indicator(close, false, false, false);
    }

    /// Write scalar `ix`; `plain`: its text is a `str` a loader found
    /// plain-safe (no analysis or resolver check needed).
    fn scalar<T: TextUnit>(
        &mut self,
        ix: Ix,
        text: &[T],
        tag: ScalarTag,
        anchor: u32,
        ctx: Ctx,
        plain: bool,
    ) {
        let plain = plain && tag == ScalarTag::Str;
        let analysis = match self.key_analysis.take() {
            Some((k, a)) if k == ix => a,
            _ if plain => match T::as_ascii(text) {
                Some(b) => self.plain_analysis(b),
                None => self.analyse(text),
            },
            _ => self.analyse(text),
        };
        let simple_key = ctx == Ctx::SimpleKey;
        // Whether the text read back untagged gives the same type.
        let implicit_plain = match tag {
            ScalarTag::Str => None,
            ScalarTag::Binary => Some(false),
            _ => Some(true),
        };
        let implicit_quoted = tag == ScalarTag::Str;
        let plain_ok =
            analysis.allow_block_plain && !(simple_key && (analysis.empty || analysis.multiline));
        let style = if tag == ScalarTag::Binary {
            if !simple_key && analysis.allow_block {
                Style::Literal
            } else {
                Style::Double
            }
        } else if plain_ok && implicit_plain.unwrap_or_else(|| plain || self.plain_str(text)) {
            Style::Plain
        } else if analysis.allow_single_quoted && !(simple_key && analysis.multiline) {
            Style::Single
        } else {
            Style::Double
        };
        if anchor != 0 {
            self.write_anchor('&', anchor);
        }
        let implicit = if style == Style::Plain {
            true
        } else {
            implicit_quoted
        };
        if !implicit {
            self.o.write_indicator(tag.shorthand(), true, false, false);
        }
        let saved_indent = self.o.scalar_indent();
        let split = !simple_key;
        match style {
            Style::Plain => self.o.write_plain(text, split, ctx == Ctx::Root),
            Style::Single => self.o.write_single_quoted(text, split),
            Style::Double => self
                .o
                .write_double_quoted(text, split, self.opts.allow_unicode),
            Style::Literal => self.o.write_literal(text),
        }
        self.o.indent = saved_indent;
    }
}
