//! `represent`: turn a value tree into the representation graph, and number anchors.
//!
//! This is PyYAML's representer and the anchor pass of its serializer in one
//! walk: both visit the same graph in the same depth-first order, and an
//! object met a second time gets the next anchor number at that moment.
//! Objects PyYAML never aliases (None, str, bytes, bool, int, float, the empty
//! tuple) get a fresh node at every occurrence. The walk keeps its own stack,
//! so depth is bounded only by `DumpOptions::max_depth`.

use super::py_order::sort_like_python;
use super::repr_graph::{MapTag, NodeIx, ReprGraph, ReprNode, ScalarTag, SeqTag, Text};
use super::{DumpError, DumpOptions};
use crate::yaml::value::{Int, Node, Value, py_float_repr};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use std::collections::HashMap;
use std::fmt::Write;

/// Children still to represent for one collection.
struct Frame<'a> {
    /// Next slot of `kids` to fill.
    slot: usize,
    /// One past the last slot.
    end: usize,
    /// Where the children come from.
    src: Src<'a>,
}

enum Src<'a> {
    /// Items of a list or tuple.
    Items(&'a [Node]),
    /// Items of a `!!pairs` list: each a 2-tuple written as a mapping.
    PairItems(&'a [Node]),
    /// Keys and values in order; `None` is a set's null value.
    Entries(Vec<Option<&'a Node>>),
}

struct Representer<'a, 'o> {
    g: ReprGraph<'a>,
    /// Graph node of each object that may be aliased, by identity.
    seen: HashMap<usize, NodeIx>,
    next_anchor: u32,
    opts: &'o DumpOptions,
}

/// Build the graph for `root` (node 0).
pub(super) fn represent<'a>(
    root: &'a Node,
    opts: &DumpOptions,
) -> Result<ReprGraph<'a>, DumpError> {
    let mut r = Representer {
        g: ReprGraph::default(),
        seen: HashMap::new(),
        next_anchor: 0,
        opts,
    };
    let mut stack: Vec<Frame<'a>> = Vec::new();
    let (_, frame) = r.visit(Some(root), false)?;
    stack.extend(frame);
    while let Some(top) = stack.last_mut() {
        if top.slot >= top.end {
            stack.pop();
            continue;
        }
        let slot = top.slot;
        let i = slot - (top.end - src_len(&top.src));
        let (child, pair_item) = match &top.src {
            Src::Items(items) => (items.get(i), false),
            Src::PairItems(items) => (items.get(i), true),
            Src::Entries(e) => (e.get(i).copied().flatten(), false),
        };
        top.slot += 1;
        let (ix, frame) = r.visit(child, pair_item)?;
        if let Some(k) = r.g.kids.get_mut(slot) {
            *k = ix;
        }
        if let Some(f) = frame {
            if stack.len() >= r.opts.max_depth {
                return Err(DumpError::TooDeep(r.opts.max_depth));
            }
            stack.push(f);
        }
    }
    Ok(r.g)
}

fn src_len(src: &Src<'_>) -> usize {
    match src {
        Src::Items(i) | Src::PairItems(i) => i.len(),
        Src::Entries(e) => e.len(),
    }
}

/// Whether PyYAML may alias this object (`ignore_aliases` is false).
fn aliasable(v: &Value) -> bool {
    match v {
        Value::Null
        | Value::Bool(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Str(_)
        | Value::Bytes(_) => false,
        Value::Tuple(t) => !t.is_empty(),
        _ => true,
    }
}

/// Whether a list is written as `!!pairs` (readable preset).
fn is_pairs(items: &[Node]) -> bool {
    !items.is_empty()
        && items
            .iter()
            .all(|n| matches!(n.value(), Value::Tuple(t) if t.len() == 2))
}

impl<'a> Representer<'a, '_> {
    fn push(&mut self, node: ReprNode<'a>) -> NodeIx {
        let ix = self.g.nodes.len() as NodeIx;
        self.g.nodes.push(node);
        self.g.anchors.push(0);
        ix
    }

    fn scalar(&mut self, tag: ScalarTag, text: Text<'a>) -> NodeIx {
        self.push(ReprNode::Scalar { tag, text })
    }

    /// A scalar whose text `f` writes into the scratch buffer.
    fn formatted(&mut self, tag: ScalarTag, f: impl FnOnce(&mut String)) -> NodeIx {
        let from = self.g.scratch.len() as u32;
        f(&mut self.g.scratch);
        let to = self.g.scratch.len() as u32;
        self.scalar(tag, Text::Scratch(from, to))
    }

    /// Reserve `n` child slots; returns the first.
    fn reserve(&mut self, n: usize) -> usize {
        let start = self.g.kids.len();
        self.g.kids.resize(start + n, 0);
        start
    }

    fn collection(
        &mut self,
        node: impl FnOnce(u32) -> ReprNode<'a>,
        nkids: usize,
        src: Src<'a>,
    ) -> (NodeIx, Option<Frame<'a>>) {
        let start = self.reserve(nkids);
        let ix = self.push(node(start as u32));
        (
            ix,
            Some(Frame {
                slot: start,
                end: start + nkids,
                src,
            }),
        )
    }

    fn visit(
        &mut self,
        n: Option<&'a Node>,
        pair_item: bool,
    ) -> Result<(NodeIx, Option<Frame<'a>>), DumpError> {
        let Some(n) = n else {
            return Ok((self.scalar(ScalarTag::Null, Text::Static("null")), None));
        };
        if pair_item && let Value::Tuple(t) = n.value() {
            return Ok(self.collection(
                |start| ReprNode::Map {
                    tag: MapTag::Pair,
                    start,
                    len: 1,
                },
                2,
                Src::Items(t.items()),
            ));
        }
        let value = n.value();
        let alias = aliasable(value);
        if alias && let Some(&ix) = self.seen.get(&n.id()) {
            if let Some(a) = self.g.anchors.get_mut(ix as usize)
                && *a == 0
            {
                self.next_anchor += 1;
                *a = self.next_anchor;
            }
            return Ok((ix, None));
        }
        let out = match value {
            Value::Null => (self.scalar(ScalarTag::Null, Text::Static("null")), None),
            Value::Bool(b) => (
                self.scalar(
                    ScalarTag::Bool,
                    Text::Static(if *b { "true" } else { "false" }),
                ),
                None,
            ),
            Value::Int(i) => (
                self.formatted(ScalarTag::Int, |s| {
                    let _ = match i {
                        Int::Small(v) => write!(s, "{v}"),
                        Int::Big(b) => write!(s, "{b}"),
                    };
                }),
                None,
            ),
            Value::Float(f) => (self.float(*f), None),
            Value::Str(s) => (self.scalar(ScalarTag::Str, Text::Py(s)), None),
            Value::Bytes(b) => (
                self.formatted(ScalarTag::Binary, |s| encodebytes(b, s)),
                None,
            ),
            Value::Date(d) => (
                self.formatted(ScalarTag::Timestamp, |s| {
                    let _ = write!(s, "{d}");
                }),
                None,
            ),
            Value::DateTime(d) => (
                self.formatted(ScalarTag::Timestamp, |s| s.push_str(&d.isoformat(' '))),
                None,
            ),
            Value::Seq(items) | Value::Tuple(items) => {
                let items = items.items();
                let pairs =
                    self.opts.tuples_as_pairs && matches!(value, Value::Seq(_)) && is_pairs(items);
                let tag = if pairs { SeqTag::Pairs } else { SeqTag::Seq };
                let src = if pairs {
                    Src::PairItems(items)
                } else {
                    Src::Items(items)
                };
                let len = items.len() as u32;
                self.collection(|start| ReprNode::Seq { tag, start, len }, items.len(), src)
            }
            Value::Map(m) => {
                let mut entries: Vec<(&'a Node, &'a Node)> = m.iter().collect();
                if self.opts.sort_keys {
                    sort_like_python(&mut entries, |e| e.0);
                }
                let kids: Vec<Option<&'a Node>> = entries
                    .iter()
                    .flat_map(|&(k, v)| [Some(k), Some(v)])
                    .collect();
                let len = entries.len() as u32;
                self.collection(
                    |start| ReprNode::Map {
                        tag: MapTag::Map,
                        start,
                        len,
                    },
                    kids.len(),
                    Src::Entries(kids),
                )
            }
            Value::Set(m) => {
                let mut keys: Vec<&'a Node> = m.keys().collect();
                if self.opts.sort_keys {
                    sort_like_python(&mut keys, |k| k);
                }
                let kids: Vec<Option<&'a Node>> =
                    keys.iter().flat_map(|&k| [Some(k), None]).collect();
                let len = keys.len() as u32;
                self.collection(
                    |start| ReprNode::Map {
                        tag: MapTag::Set,
                        start,
                        len,
                    },
                    kids.len(),
                    Src::Entries(kids),
                )
            }
        };
        if alias {
            self.seen.insert(n.id(), out.0);
        }
        Ok(out)
    }

    /// `repr(f)` lower-cased, with `.0` put before an exponent that lacks a
    /// point (`1e+16` → `1.0e+16`) so that it reads back as a float.
    fn float(&mut self, f: f64) -> NodeIx {
        if f.is_nan() {
            return self.scalar(ScalarTag::Float, Text::Static(".nan"));
        }
        if f.is_infinite() {
            return self.scalar(
                ScalarTag::Float,
                Text::Static(if f > 0.0 { ".inf" } else { "-.inf" }),
            );
        }
        let repr = py_float_repr(f);
        self.formatted(ScalarTag::Float, |s| {
            if !repr.contains('.')
                && let Some((m, e)) = repr.split_once('e')
            {
                s.push_str(m);
                s.push_str(".0e");
                s.push_str(e);
            } else {
                s.push_str(&repr);
            }
        })
    }
}

/// Python's `base64.encodebytes`: lines of 76 characters, each ending in "\n".
fn encodebytes(data: &[u8], out: &mut String) {
    // 57 input bytes make one 76-character line.
    for chunk in data.chunks(57) {
        B64.encode_string(chunk, out);
        out.push('\n');
    }
}
