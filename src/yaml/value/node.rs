//! `Node` and `Value`: one shared, spanned value of the tree PyYAML's SafeLoader builds.

use super::{Date, DateTime, Int, Map, PyStr, Seq};
use crate::source::{Mark, SourceId, Span};
// No weak count: building a node, checking it is unshared and freeing it
// take one atomic operation fewer each (std's `Arc::get_mut` is a locked
// compare-exchange on the weak count, its drop a second decrement).
use triomphe::{Arc, UniqueArc};

/// One value with the span it was read from.
///
/// Nodes are shared (`Arc`): a YAML alias is the *same* node as its anchor, as
/// in PyYAML, so aliases cost nothing and a dump can write `&id001`/`*id001`
/// for values referenced twice. Cloning a `Node` clones the reference.
/// `Node::ptr_eq` is Python's `is`. A tree is `Send` and `Sync`: a part
/// loaded on one thread is merged on another (`userdata`'s preloader).
#[derive(Clone)]
pub struct Node(Arc<NodeData>);

struct NodeData {
    value: Value,
    /// Set once more, while the node is still unshared, when a collection
    /// opened with [`Node::open_collection`] closes; fixed from then on.
    span: NodeSpan,
}

/// A [`Span`] as a node keeps it: offsets in 32 bits, so the span takes 28
/// bytes, not 40, and a node (with its 32-byte value and the `Arc`'s
/// count) is one 72-byte allocation. Every command holds a
/// node per item of a list: a 20 MB list is ~1M of them.
#[derive(Clone, Copy)]
struct NodeSpan {
    source: SourceId,
    start: NodeMark,
    end: NodeMark,
}

/// A [`Mark`] in 32 bits. A byte offset past 4 GiB (a single part's text
/// that long, past every default limit) is kept as `u32::MAX`: its line and
/// column, which messages show, stay exact.
#[derive(Clone, Copy)]
struct NodeMark {
    index: u32,
    line: u32,
    column: u32,
}

impl NodeMark {
    fn pack(m: Mark) -> NodeMark {
        NodeMark {
            index: u32::try_from(m.index).unwrap_or(u32::MAX),
            line: m.line,
            column: m.column,
        }
    }

    fn unpack(self) -> Mark {
        Mark::new(self.index as usize, self.line, self.column)
    }
}

impl NodeSpan {
    fn pack(s: Span) -> NodeSpan {
        NodeSpan {
            source: s.source,
            start: NodeMark::pack(s.start),
            end: NodeMark::pack(s.end),
        }
    }

    fn unpack(self) -> Span {
        Span::new(self.source, self.start.unpack(), self.end.unpack())
    }
}

/// What a node holds: the Python types SafeLoader constructs.
#[derive(Debug)]
pub enum Value {
    /// `None` (`~`, `null`, empty).
    Null,
    /// `bool` (`yes`/`no`/`on`/`off`/`true`/`false`, all cases PyYAML accepts).
    Bool(bool),
    /// `int`, unbounded.
    Int(Int),
    /// `float`. NaN from `.nan` is the one canonical NaN (`CANONICAL_NAN`):
    /// PyYAML returns one shared object for it, so such keys collide.
    Float(f64),
    /// `str`.
    Str(PyStr),
    /// `bytes` (`!!binary`).
    Bytes(Box<[u8]>),
    /// `datetime.date`.
    Date(Date),
    /// `datetime.datetime`.
    DateTime(DateTime),
    /// `list`.
    Seq(Seq),
    /// `tuple`: the pairs of `!!omap` and `!!pairs` (dumped as lists).
    Tuple(Seq),
    /// `dict`, insertion-ordered, with Python key equality.
    Map(Map),
    /// `set` (`!!set`): the map's keys are the elements, values are null.
    Set(Map),
}

/// The NaN that `.nan` (any case) loads to; every other NaN is distinct.
pub const CANONICAL_NAN: f64 = f64::from_bits(0x7ff8_0000_0000_0000);
/// The NaN for NaNs built otherwise (`!!float nan`): equal only to itself.
pub const OTHER_NAN: f64 = f64::from_bits(0x7ff8_0000_0000_0001);

impl Node {
    /// A node holding `value`, read from `span`.
    pub fn new(value: Value, span: Span) -> Node {
        Node(Arc::new(NodeData {
            value,
            span: NodeSpan::pack(span),
        }))
    }

    /// Bytes of one node's allocation (the `Arc`'s count, the value, the
    /// span): what a tree costs per node.
    #[cfg(test)]
    pub(crate) fn allocation_size() -> usize {
        // The `Arc`'s count precedes the data.
        std::mem::size_of::<usize>() + std::mem::size_of::<NodeData>()
    }

    /// A string node read from `span`, its text copied straight into the
    /// node's allocation: building the string first and moving it in stalled
    /// on the copy (~3 % of a load).
    pub(crate) fn new_str(s: &str, span: Span) -> Node {
        let mut rc = UniqueArc::new(NodeData {
            value: Value::Str(PyStr::empty()),
            span: NodeSpan::pack(span),
        });
        if let Value::Str(p) = &mut rc.value {
            p.set(s);
        }
        Node(rc.shareable())
    }

    /// A node built in code (no source span).
    pub fn synthetic(value: Value) -> Node {
        Node::new(value, Span::unknown())
    }

    /// A string node built in code.
    pub fn str(s: &str) -> Node {
        Node::synthetic(Value::Str(PyStr::from(s)))
    }

    /// The value.
    pub fn value(&self) -> &Value {
        &self.0.value
    }

    /// Where the value was read.
    pub fn span(&self) -> Span {
        self.0.span.unpack()
    }

    /// An empty, unfilled list (`seq`) or dict opened at `start`, to be
    /// filled and closed with [`Node::close_collection`].
    ///
    /// The loader allocates a collection's node before its children, so the
    /// tree lies in memory in the order it is walked and freed: freeing the
    /// 5 MB benchmark document took ~30 % less time than with nodes allocated
    /// after their children.
    pub(crate) fn open_collection(seq: bool, start: Span) -> Node {
        let value = if seq {
            Value::Seq(Seq::pending())
        } else {
            Value::Map(Map::pending())
        };
        Node::new(value, start)
    }

    /// Close a collection opened with [`Node::open_collection`]: set its
    /// end and its contents (`value`, the filled list or dict) in place;
    /// `None` if the node is already shared (its span and value are then
    /// fixed). In place, not through the fill-once cell: no atomics.
    pub(crate) fn close_collection(&mut self, end: Mark, value: Value) -> Option<()> {
        let data = Arc::get_mut(&mut self.0)?;
        data.span.end = NodeMark::pack(end);
        data.value = value;
        Some(())
    }

    /// The value, to edit in place, when nothing else refers to this node
    /// (an owned merge then extends a list without building a new node).
    pub(crate) fn value_mut(&mut self) -> Option<&mut Value> {
        Arc::get_mut(&mut self.0).map(|d| &mut d.value)
    }

    /// Whether nothing else refers to this node (so taking its value apart
    /// is unobservable).
    pub fn is_unique(&self) -> bool {
        self.0.is_unique()
    }

    /// The value, if nothing else refers to this node; the node back otherwise.
    pub fn try_into_value(self) -> Result<Value, Node> {
        Arc::try_unwrap(self.0).map(|d| d.value).map_err(Node)
    }

    /// Python's `is`.
    pub fn ptr_eq(a: &Node, b: &Node) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// Whether other references to this node exist (it may occur more than
    /// once in a tree); `false` means this reference is the only one.
    pub fn is_shared(&self) -> bool {
        Arc::count(&self.0) > 1
    }

    /// A stable identity while the node lives (for alias detection).
    pub fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// Python's `type(x).__name__`, which cloud-init's merger dispatch uses.
    pub fn type_name(&self) -> &'static str {
        self.value().type_name()
    }

    /// The string, if this is a `str` without lone surrogates.
    pub fn as_str(&self) -> Option<&str> {
        match self.value() {
            Value::Str(s) => s.as_str(),
            _ => None,
        }
    }

    /// The Python string, if this is a `str` (lone surrogates included).
    pub fn as_py_str(&self) -> Option<&PyStr> {
        match self.value() {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The mapping, if this is a `dict`.
    pub fn as_map(&self) -> Option<&Map> {
        match self.value() {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items, if this is a `list` or `tuple`.
    pub fn as_seq(&self) -> Option<&Seq> {
        match self.value() {
            Value::Seq(s) | Value::Tuple(s) => Some(s),
            _ => None,
        }
    }

    /// Python truthiness: `None`, `False`, zero, and empty strings, bytes and
    /// containers are false.
    pub fn is_truthy(&self) -> bool {
        match self.value() {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != Int::Small(0),
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::Date(_) | Value::DateTime(_) => true,
            Value::Seq(s) | Value::Tuple(s) => !s.is_empty(),
            Value::Map(m) | Value::Set(m) => !m.is_empty(),
        }
    }

    /// Whether this is `None`.
    pub fn is_null(&self) -> bool {
        matches!(self.value(), Value::Null)
    }
}

impl Value {
    /// Python's `type(x).__name__`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Bytes(_) => "bytes",
            Value::Date(_) => "date",
            Value::DateTime(_) => "datetime",
            Value::Seq(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Map(_) => "dict",
            Value::Set(_) => "set",
        }
    }

    /// Whether Python could use this as a dict key (`collections.abc.Hashable`).
    pub fn is_hashable(&self) -> bool {
        !matches!(self, Value::Seq(_) | Value::Map(_) | Value::Set(_))
    }
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.value(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::{Node, Value};
    use crate::source::{Mark, SourceId, Span};

    #[test]
    fn a_node_keeps_its_span_in_32_bits() {
        let span = Span::new(SourceId(7), Mark::new(5, 1, 2), Mark::new(4096, 30, 40));
        assert_eq!(Node::new(Value::Null, span).span(), span);
        assert_eq!(Node::new_str("x", span).span(), span);
        // An offset past 4 GiB keeps its line and column; the offset saturates.
        let far = Mark::new(usize::MAX, 9, 3);
        let s = Node::new(Value::Null, Span::new(SourceId(1), far, far)).span();
        assert_eq!((s.start.line, s.start.column), (9, 3));
        assert_eq!(s.start.index, u32::MAX as usize);
        let mut open = Node::open_collection(true, span);
        assert_eq!(open.close_collection(Mark::new(9000, 50, 1), Value::Null), Some(()));
        assert_eq!(open.span().end, Mark::new(9000, 50, 1));
        assert_eq!(open.span().start, span.start);
    }
}
