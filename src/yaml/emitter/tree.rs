//! `Tree`: what the document emitter reads — a representation graph, or a value tree directly.

use super::repr_graph::{MapTag, NodeIx, ReprGraph, ReprNode, ScalarTag, SeqTag};

/// The text of a scalar: borrowed from the tree, or formatted (ASCII).
pub(super) enum ScalarText<'t> {
    /// Generalized UTF-8 (`ascii` when every byte is ASCII).
    Borrowed { bytes: &'t [u8], ascii: bool },
    /// ASCII text of a `str` sure to be written plain, as its loader found
    /// (`PyStr::is_plain_safe`): the emitter need not analyse it.
    Plain(&'t [u8]),
    /// Short ASCII text formatted for this node.
    Small { buf: [u8; SMALL], len: u8 },
    /// Longer ASCII text formatted for this node.
    Owned(Vec<u8>),
}

/// Room for every formatted int, float, date and timestamp that is not huge.
pub(super) const SMALL: usize = 48;

impl ScalarText<'_> {
    /// The bytes, and whether they are all ASCII.
    pub(super) fn bytes(&self) -> (&[u8], bool) {
        match self {
            ScalarText::Borrowed { bytes, ascii } => (bytes, *ascii),
            ScalarText::Plain(bytes) => (bytes, true),
            ScalarText::Small { buf, len } => (buf.get(..usize::from(*len)).unwrap_or(&[]), true),
            ScalarText::Owned(v) => (v, v.is_ascii()),
        }
    }

    /// Whether this is a [`ScalarText::Plain`] text.
    pub(super) fn is_plain(&self) -> bool {
        matches!(self, ScalarText::Plain(_))
    }
}

/// One node as the emitter sees it.
pub(super) enum View<'t> {
    Scalar {
        tag: ScalarTag,
        text: ScalarText<'t>,
    },
    Seq {
        tag: SeqTag,
        len: u32,
    },
    Map {
        tag: MapTag,
        len: u32,
    },
}

/// What entering a node found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Enter {
    /// Nothing to remember.
    Plain,
    /// The first occurrence of an object that may recur (address).
    First(usize),
    /// The second occurrence of an object not known to recur: it needs an
    /// anchor at its first occurrence.
    Again(usize),
}

/// A tree of nodes to write. Collections are opened before their children
/// are asked for (`kid`), and closed after, innermost first.
pub(super) trait Tree {
    /// A node.
    type Ix: Copy + PartialEq;
    fn root(&self) -> Self::Ix;
    /// The highest anchor number.
    fn anchors(&self) -> u32;
    /// The anchor number of a node (0: none).
    fn anchor(&self, ix: Self::Ix) -> u32;
    /// The node (no side effects: keys are looked at twice).
    fn view(&self, ix: Self::Ix) -> View<'_>;
    /// The node is being written (once per occurrence, unless aliased).
    fn enter(&mut self, ix: Self::Ix) -> Enter;
    /// Node `ix` is about to be written as a mapping key.
    fn key(&mut self, ix: Self::Ix);
    /// The object `id` recurs: it gets the next anchor number (returned).
    fn learn(&mut self, id: usize) -> u32;
    /// Writing cannot go on: the object `id` recurs (see [`Enter::Again`]).
    fn give_up(&mut self, id: usize);
    /// While set, a subtree written before is written again: its objects
    /// are not new occurrences.
    fn replay(&mut self, on: bool);
    /// Open a non-empty collection; the handle names it for `kid` and `close`.
    fn open(&mut self, ix: Self::Ix) -> u32;
    /// Child `i` of an open collection: item `i`, or for a mapping key
    /// (`2k`) and value (`2k + 1`) of entry `k`.
    fn kid(&self, handle: u32, i: u32) -> Option<Self::Ix>;
    fn close(&mut self, handle: u32);
    /// Nesting reached `depth` collections.
    fn deeper(&mut self, depth: usize);
    /// The tree cannot be written by this walk (the caller falls back).
    fn failed(&self) -> bool;
    /// Bytes to reserve for the output.
    fn size_hint(&self) -> usize;
}

impl Tree for ReprGraph {
    type Ix = NodeIx;

    fn root(&self) -> NodeIx {
        0
    }

    fn anchors(&self) -> u32 {
        self.anchors.iter().copied().max().unwrap_or(0)
    }

    fn anchor(&self, ix: NodeIx) -> u32 {
        self.anchors.get(ix as usize).copied().unwrap_or(0)
    }

    fn view(&self, ix: NodeIx) -> View<'_> {
        match self.node(ix) {
            Some(ReprNode::Scalar { tag, text }) => View::Scalar {
                tag: *tag,
                text: ScalarText::Borrowed {
                    bytes: self.text_bytes(text),
                    ascii: text.ascii,
                },
            },
            Some(ReprNode::Seq { tag, len, .. }) => View::Seq {
                tag: *tag,
                len: *len,
            },
            Some(ReprNode::Map { tag, len, .. }) => View::Map {
                tag: *tag,
                len: *len,
            },
            None => View::Scalar {
                tag: ScalarTag::Null,
                text: ScalarText::Borrowed {
                    bytes: b"null",
                    ascii: true,
                },
            },
        }
    }

    fn enter(&mut self, _: NodeIx) -> Enter {
        Enter::Plain
    }

    fn key(&mut self, _: NodeIx) {}

    fn learn(&mut self, _: usize) -> u32 {
        0
    }

    fn give_up(&mut self, _: usize) {}

    fn replay(&mut self, _: bool) {}

    fn open(&mut self, ix: NodeIx) -> u32 {
        match self.node(ix) {
            Some(ReprNode::Seq { start, .. } | ReprNode::Map { start, .. }) => *start,
            _ => 0,
        }
    }

    fn kid(&self, start: u32, i: u32) -> Option<NodeIx> {
        ReprGraph::kid(self, start, i)
    }

    fn close(&mut self, _: u32) {}

    fn deeper(&mut self, _: usize) {}

    fn failed(&self) -> bool {
        false
    }

    fn size_hint(&self) -> usize {
        self.scratch.len() * 2 + 64
    }
}
