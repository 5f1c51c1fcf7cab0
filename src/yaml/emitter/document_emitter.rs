//! `DocumentEmitter`: write a representation graph as one YAML document, block style.
//!
//! Collections are written in block style except empty ones (`[]`, `{}`);
//! the walk keeps its own stack. Layout decisions (sequence indentation,
//! simple vs `?` keys, scalar style, tags, anchors, document markers) are the
//! ones PyYAML 6.0.3's emitter makes for a SafeDumper with
//! `default_flow_style=False`.

use super::implicit_resolver::resolves_to_str;
use super::output::Output;
use super::repr_graph::{MapTag, NodeIx, ReprGraph, ReprNode, ScalarTag, SeqTag, Text};
use super::scalar_analysis::ScalarAnalysis;
use super::text_unit::TextUnit;
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

struct DocumentEmitter<'g, 'a, 'o> {
    g: &'g ReprGraph<'a>,
    opts: &'o DumpOptions,
    o: Output,
    /// Per anchor number: whether the anchored node was written already.
    written: Vec<bool>,
    /// Code points of the current non-ASCII scalar.
    cps: Vec<u32>,
    stack: Vec<Frame>,
}

/// Write the document for `g` (root node 0).
pub(super) fn emit(g: &ReprGraph<'_>, opts: &DumpOptions) -> Result<String, DumpError> {
    let anchors = g.anchors.iter().copied().max().unwrap_or(0) as usize;
    let mut e = DocumentEmitter {
        g,
        opts,
        o: Output::new(
            opts.best_indent(),
            opts.best_width(),
            g.scratch.len() * 2 + 64,
        ),
        written: vec![false; anchors + 1],
        cps: Vec::new(),
        stack: Vec::new(),
    };
    if opts.explicit_start {
        e.o.write_indent();
        e.o.write_indicator("---", true, false, false);
    }
    e.node(0, Ctx::Root);
    e.run()?;
    e.o.write_indent();
    if opts.explicit_end {
        e.o.write_indicator("...", true, false, false);
        e.o.write_indent();
    }
    if e.o.open_ended {
        e.o.write_indicator("...", true, false, false);
        e.o.write_indent();
    }
    Ok(e.o.out)
}

/// The scalar's text as ASCII bytes, when it is ASCII.
fn ascii_text<'t>(g: &'t ReprGraph<'_>, text: &Text<'t>) -> Option<&'t [u8]> {
    let s: &str = match text {
        Text::Py(p) => p.as_str()?,
        Text::Scratch(a, b) => g.scratch_text(*a, *b),
        Text::Static(s) => s,
    };
    s.is_ascii().then_some(s.as_bytes())
}

impl DocumentEmitter<'_, '_, '_> {
    fn run(&mut self) -> Result<(), DumpError> {
        while let Some(&top) = self.stack.last() {
            let next = match top {
                Frame::Seq { start, len, pos } => {
                    if pos >= len {
                        self.stack.pop();
                        self.o.decrease_indent();
                        continue;
                    }
                    self.set_top(Frame::Seq {
                        start,
                        len,
                        pos: pos + 1,
                    });
                    self.o.write_indent();
                    self.o.write_indicator("-", true, false, true);
                    self.g.kid(start, pos).map(|c| (c, Ctx::SeqItem))
                }
                Frame::Map {
                    start,
                    len,
                    pos,
                    step: MapStep::Key,
                } => {
                    if pos >= len {
                        self.stack.pop();
                        self.o.decrease_indent();
                        continue;
                    }
                    let key = self.g.kid(start, 2 * pos);
                    let simple = key.is_some_and(|k| self.is_simple_key(k));
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
                    self.g.kid(start, 2 * pos + 1).map(|v| (v, Ctx::Mapping))
                }
            };
            if let Some((ix, ctx)) = next {
                self.node(ix, ctx);
            }
            if self.o.out.len() > self.opts.max_output_bytes {
                return Err(DumpError::TooLarge(self.opts.max_output_bytes));
            }
        }
        Ok(())
    }

    fn set_top(&mut self, f: Frame) {
        if let Some(top) = self.stack.last_mut() {
            *top = f;
        }
    }

    /// The anchor of a node, and whether it was written before (an alias now).
    fn anchor_of(&self, ix: NodeIx) -> (u32, bool) {
        let a = self.g.anchors.get(ix as usize).copied().unwrap_or(0);
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
    fn is_simple_key(&mut self, ix: NodeIx) -> bool {
        let (a, alias) = self.anchor_of(ix);
        if alias {
            return Self::anchor_name_len(a) < 128;
        }
        let length = Self::anchor_name_len(a);
        match self.g.node(ix) {
            Some(ReprNode::Scalar { tag, text }) => {
                let (tag, text) = (*tag, *text);
                let (analysis, chars) = match ascii_text(self.g, &text) {
                    Some(b) => (self.analyse(b), b.len()),
                    None => {
                        self.load_cps(&text);
                        let cps = std::mem::take(&mut self.cps);
                        let r = (self.analyse(&cps), cps.len());
                        self.cps = cps;
                        r
                    }
                };
                length + tag.shorthand().len() + chars < 128
                    && !analysis.empty
                    && !analysis.multiline
            }
            Some(ReprNode::Seq { len: 0, .. } | ReprNode::Map { len: 0, .. }) => true,
            _ => false,
        }
    }

    fn analyse<T: TextUnit>(&self, text: &[T]) -> ScalarAnalysis {
        ScalarAnalysis::of(text, self.opts.allow_unicode, self.opts.escape_next_line)
    }

    fn load_cps(&mut self, text: &Text<'_>) {
        self.cps.clear();
        match text {
            Text::Py(p) => self.cps.extend(p.chars()),
            Text::Scratch(a, b) => self
                .cps
                .extend(self.g.scratch_text(*a, *b).chars().map(u32::from)),
            Text::Static(s) => self.cps.extend(s.chars().map(u32::from)),
        }
    }

    /// Write node `ix` in context `ctx`; a non-empty block collection is
    /// opened and pushed on the stack for [`Self::run`].
    fn node(&mut self, ix: NodeIx, ctx: Ctx) {
        let (a, alias) = self.anchor_of(ix);
        if alias {
            self.write_anchor('*', a);
            return;
        }
        if let Some(w) = self.written.get_mut(a as usize)
            && a != 0
        {
            *w = true;
        }
        let Some(&node) = self.g.node(ix) else {
            return;
        };
        match node {
            ReprNode::Scalar { tag, text } => {
                if let Some(b) = ascii_text(self.g, &text) {
                    self.scalar(b, tag, a, ctx);
                } else {
                    self.load_cps(&text);
                    let cps = std::mem::take(&mut self.cps);
                    self.scalar(&cps, tag, a, ctx);
                    self.cps = cps;
                }
            }
            ReprNode::Seq { tag, start, len } => {
                if a != 0 {
                    self.write_anchor('&', a);
                }
                if tag == SeqTag::Pairs {
                    self.o.write_indicator("!!pairs", true, false, false);
                }
                if len == 0 {
                    self.empty_flow("[", "]");
                } else {
                    let indentless = ctx == Ctx::Mapping && !self.o.indention;
                    self.o.increase_indent(false, indentless);
                    self.stack.push(Frame::Seq { start, len, pos: 0 });
                }
            }
            ReprNode::Map { tag, start, len } => {
                if a != 0 {
                    self.write_anchor('&', a);
                }
                if tag == MapTag::Set {
                    self.o.write_indicator("!!set", true, false, false);
                }
                if len == 0 {
                    self.empty_flow("{", "}");
                } else {
                    self.o.increase_indent(false, false);
                    self.stack.push(Frame::Map {
                        start,
                        len,
                        pos: 0,
                        step: MapStep::Key,
                    });
                }
            }
        }
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.o.write_indicator(open, true, true, false);
        self.o.write_indicator(close, false, false, false);
    }

    fn scalar<T: TextUnit>(&mut self, text: &[T], tag: ScalarTag, anchor: u32, ctx: Ctx) {
        let analysis = self.analyse(text);
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
        } else if plain_ok && implicit_plain.unwrap_or_else(|| resolves_to_str(text)) {
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
        self.o.increase_indent(true, false);
        let split = !simple_key;
        match style {
            Style::Plain => self.o.write_plain(text, split, ctx == Ctx::Root),
            Style::Single => self.o.write_single_quoted(text, split),
            Style::Double => self
                .o
                .write_double_quoted(text, split, self.opts.allow_unicode),
            Style::Literal => self.o.write_literal(text),
        }
        self.o.decrease_indent();
    }
}
