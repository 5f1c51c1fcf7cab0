//! `ReprGraph`: the representation graph (PyYAML's nodes) the emitter writes.
//!
//! One entry per represented object; a shared object is one entry reached
//! from several parents, and carries the anchor number the serializer gives
//! it. Children live in one flat index vector.

use crate::yaml::value::PyStr;

/// Index of a node in the graph.
pub(super) type NodeIx = u32;

/// The YAML tag of a scalar (written as `!!name` when not implicit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScalarTag {
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
    Str,
    Binary,
}

impl ScalarTag {
    /// The shorthand PyYAML prepares for the tag (`!!str`); its length counts
    /// towards the 128-character limit of simple keys even when not written.
    pub(super) fn shorthand(self) -> &'static str {
        match self {
            ScalarTag::Null => "!!null",
            ScalarTag::Bool => "!!bool",
            ScalarTag::Int => "!!int",
            ScalarTag::Float => "!!float",
            ScalarTag::Timestamp => "!!timestamp",
            ScalarTag::Str => "!!str",
            ScalarTag::Binary => "!!binary",
        }
    }
}

/// Where a scalar's text is.
#[derive(Debug, Clone, Copy)]
pub(super) enum Text<'a> {
    /// A Python string of the input.
    Py(&'a PyStr),
    /// A range of [`ReprGraph::scratch`] (formatted numbers, dates, base64).
    Scratch(u32, u32),
    /// A constant.
    Static(&'static str),
}

/// The kind of a sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SeqTag {
    /// A list or tuple (implicit `!!seq`).
    Seq,
    /// A list of 2-tuples written as `!!pairs` (readable preset).
    Pairs,
}

/// The kind of a mapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MapTag {
    /// A dict (implicit `!!map`).
    Map,
    /// A set: keys with null values, tagged `!!set`.
    Set,
    /// One 2-tuple of a `!!pairs` list, written as a one-entry mapping.
    Pair,
}

/// One represented node.
#[derive(Debug, Clone, Copy)]
pub(super) enum ReprNode<'a> {
    /// A scalar.
    Scalar {
        /// Its tag.
        tag: ScalarTag,
        /// Its text.
        text: Text<'a>,
    },
    /// A sequence: items are `kids[start..start + len]`.
    Seq { tag: SeqTag, start: u32, len: u32 },
    /// A mapping: key and value of entry `i` are `kids[start + 2i]` and
    /// `kids[start + 2i + 1]`.
    Map { tag: MapTag, start: u32, len: u32 },
}

/// The graph of one document.
#[derive(Debug, Default)]
pub(super) struct ReprGraph<'a> {
    /// The nodes; the root is node 0.
    pub nodes: Vec<ReprNode<'a>>,
    /// Anchor number per node (`id001` is 1), 0 when the node is written once.
    pub anchors: Vec<u32>,
    /// Children of collections.
    pub kids: Vec<NodeIx>,
    /// Text of formatted scalars.
    pub scratch: String,
}

impl<'a> ReprGraph<'a> {
    /// Node `ix`.
    pub(super) fn node(&self, ix: NodeIx) -> Option<&ReprNode<'a>> {
        self.nodes.get(ix as usize)
    }

    /// Child `i` of the collection whose children start at `start`.
    pub(super) fn kid(&self, start: u32, i: u32) -> Option<NodeIx> {
        self.kids.get(start as usize + i as usize).copied()
    }

    /// The text of a formatted scalar.
    pub(super) fn scratch_text(&self, from: u32, to: u32) -> &str {
        self.scratch.get(from as usize..to as usize).unwrap_or("")
    }
}
