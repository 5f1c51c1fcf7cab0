//! `represent`: turn a value tree into the representation graph, and number anchors.
//!
//! This is PyYAML's representer and the anchor pass of its serializer in one
//! walk: both visit the same graph in the same depth-first order, and an
//! object met a second time gets the next anchor number at that moment.
//! Objects PyYAML never aliases (None, str, bytes, bool, int, float, the empty
//! tuple) get a fresh node at every occurrence. The walk keeps its own stack,
//! so depth is bounded only by `DumpOptions::max_depth`.

use super::py_order::{StrSortKey, sort_like_python_fast};
use super::repr_graph::{MapTag, NodeIx, ReprGraph, ReprNode, ScalarTag, SeqTag, Text};
use super::scalar_text::{scalar_tag, write_scalar};
use super::{DumpError, DumpOptions};
use crate::yaml::value::{Node, Value};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
    /// `len` entries at `pending[start..]`: key, then value (`None` is a
    /// set's null value).
    Entries { start: usize, len: usize },
}

struct Representer<'a, 'o> {
    g: ReprGraph,
    /// Graph node of each object that may be aliased, by identity.
    seen: HashMap<usize, NodeIx, BuildHasherDefault<AddressHasher>>,
    next_anchor: u32,
    /// More text than 32-bit offsets can address.
    overflow: bool,
    opts: &'o DumpOptions,
    /// Entries of the mappings being represented, innermost last (one
    /// buffer for all, so a mapping costs no allocation).
    pending: Vec<(&'a Node, Option<&'a Node>)>,
    /// Scratch space for sorting keys.
    sort_buf: Vec<StrSortKey<'a, (&'a Node, Option<&'a Node>)>>,
}

/// Build the graph for `root` (node 0).
pub(super) fn represent<'a>(root: &'a Node, opts: &DumpOptions) -> Result<ReprGraph, DumpError> {
    let mut r = Representer {
        g: ReprGraph::default(),
        seen: HashMap::default(),
        next_anchor: 0,
        overflow: false,
        opts,
        pending: Vec::new(),
        sort_buf: Vec::new(),
    };
    let mut stack: Vec<Frame<'a>> = Vec::new();
    let (_, frame) = r.visit(Some(root), false)?;
    stack.extend(frame);
    while let Some(top) = stack.last_mut() {
        if top.slot >= top.end {
            if let Src::Entries { start, .. } = top.src {
                r.pending.truncate(start);
            }
            stack.pop();
            continue;
        }
        let slot = top.slot;
        let i = slot - (top.end - src_len(&top.src));
        let (child, pair_item) = match &top.src {
            Src::Items(items) => (items.get(i), false),
            Src::PairItems(items) => (items.get(i), true),
            Src::Entries { start, .. } => {
                let e = r.pending.get(start + i / 2);
                (
                    e.and_then(|e| if i.is_multiple_of(2) { Some(e.0) } else { e.1 }),
                    false,
                )
            }
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
    if r.overflow {
        return Err(DumpError::TooLarge(u32::MAX as usize));
    }
    Ok(r.g)
}

fn src_len(src: &Src<'_>) -> usize {
    match src {
        Src::Items(i) | Src::PairItems(i) => i.len(),
        Src::Entries { len, .. } => 2 * len,
    }
}

/// Whether PyYAML may alias this object (`ignore_aliases` is false).
pub(super) fn aliasable(v: &Value) -> bool {
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
pub(super) fn is_pairs(items: &[Node]) -> bool {
    !items.is_empty()
        && items
            .iter()
            .all(|n| matches!(n.value(), Value::Tuple(t) if t.len() == 2))
}

impl<'a> Representer<'a, '_> {
    fn push(&mut self, node: ReprNode) -> NodeIx {
        let ix = self.g.nodes.len() as NodeIx;
        self.g.nodes.push(node);
        self.g.anchors.push(0);
        ix
    }

    fn scalar(&mut self, tag: ScalarTag, text: Text) -> NodeIx {
        self.push(ReprNode::Scalar { tag, text })
    }

    /// A scalar whose text `f` writes into the scratch buffer.
    fn formatted(&mut self, tag: ScalarTag, f: impl FnOnce(&mut Vec<u8>)) -> NodeIx {
        let from = self.g.scratch.len();
        f(&mut self.g.scratch);
        let to = self.g.scratch.len();
        let ascii = self.g.scratch.get(from..to).is_some_and(<[u8]>::is_ascii);
        // Text offsets are 32-bit; more than 4 GiB of text is refused.
        let (Ok(from), Ok(len)) = (u32::try_from(from), u32::try_from(to - from)) else {
            self.overflow = true;
            return self.scalar(
                tag,
                Text {
                    from: 0,
                    len: 0,
                    ascii: true,
                },
            );
        };
        self.scalar(tag, Text { from, len, ascii })
    }

    /// A scalar with constant (ASCII) text.
    fn constant(&mut self, tag: ScalarTag, text: &str) -> NodeIx {
        self.formatted(tag, |b| b.extend_from_slice(text.as_bytes()))
    }

    /// Reserve `n` child slots; returns the first.
    fn reserve(&mut self, n: usize) -> usize {
        let start = self.g.kids.len();
        self.g.kids.resize(start + n, 0);
        start
    }

    fn collection(
        &mut self,
        node: impl FnOnce(u32) -> ReprNode,
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
            return Ok((self.constant(ScalarTag::Null, "null"), None));
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
        // A node held by one reference occurs once: no need to remember it.
        let alias = aliasable(value) && n.is_shared();
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
            _ if let Some(tag) = scalar_tag(value) => {
                (self.formatted(tag, |s| write_scalar(value, s)), None)
            }
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
                let start = self.pending.len();
                self.pending.extend(m.iter().map(|(k, v)| (k, Some(v))));
                self.entries(start, MapTag::Map)
            }
            Value::Set(m) => {
                let start = self.pending.len();
                self.pending.extend(m.keys().map(|k| (k, None)));
                self.entries(start, MapTag::Set)
            }
            // Scalars were written above.
            _ => (self.constant(ScalarTag::Null, "null"), None),
        };
        if alias {
            self.seen.insert(n.id(), out.0);
        }
        Ok(out)
    }

    /// A mapping whose entries were pushed at `pending[start..]`.
    fn entries(&mut self, start: usize, tag: MapTag) -> (NodeIx, Option<Frame<'a>>) {
        let len = self.pending.len() - start;
        if self.opts.sort_keys
            && let Some(seg) = self.pending.get_mut(start..)
        {
            sort_like_python_fast(seg, |e| e.0, &mut self.sort_buf);
        }
        self.collection(
            |s| ReprNode::Map {
                tag,
                start: s,
                len: len as u32,
            },
            2 * len,
            Src::Entries { start, len },
        )
    }
}

/// Hashes node addresses (already unique; only their low bits are poor).
#[derive(Default)]
pub(super) struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 ^ (n as u64 >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}
