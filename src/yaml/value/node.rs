//! `Node` and `Value`: one shared, spanned value of the tree PyYAML's SafeLoader builds.

use super::{Date, DateTime, Int, Map, PyStr, Seq};
use crate::source::{Mark, SourceId, Span};
use std::num::NonZeroU32;
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

/// A [`Span`] as a node keeps it, in 24 bytes: with the 32-byte value and
/// the `Arc`'s count a node is one 64-byte allocation, a cache line and
/// mimalloc's 64-byte class (at 72 bytes it took the 80-byte one). Every
/// command holds a node per item of a list: a 20 MB list is ~1M of them.
///
/// Offsets are kept in 32 bits as in [`WideSpan`]; the compact form keeps
/// the source id and the end's line, as a distance from the start's, in 16
/// bits each. A span that does not fit is boxed: only a node over 65,535
/// lines does in practice (at most a few per nesting level, so O(depth)
/// boxes), or one with a source id from 65,535 up (but `UNKNOWN`) or its
/// start at the 4 GiB offset clamp.
enum NodeSpan {
    Compact {
        /// The start's offset plus one: never zero, the niche `Wide`'s
        /// discriminant lives in, so the enum takes no tag word.
        start_index: NonZeroU32,
        end_index: u32,
        start_line: u32,
        start_column: u32,
        end_column: u32,
        /// The source id plus one (`SourceId::UNKNOWN` wraps to 0) in the
        /// high 16 bits, the end's line minus the start's in the low 16.
        source_lines: u32,
    },
    Wide(Box<WideSpan>),
}

/// A [`Span`] with its offsets in 32 bits (28 bytes): what a node keeps of
/// any span.
#[derive(Clone, Copy)]
struct WideSpan {
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

impl WideSpan {
    fn pack(s: Span) -> WideSpan {
        WideSpan {
            source: s.source,
            start: NodeMark::pack(s.start),
            end: NodeMark::pack(s.end),
        }
    }

    fn unpack(self) -> Span {
        Span::new(self.source, self.start.unpack(), self.end.unpack())
    }
}

impl NodeSpan {
    #[inline]
    fn pack(s: Span) -> NodeSpan {
        // The source id plus one and the line distance in 16 bits (an end
        // line before the start's wraps far past that in 64 bits), the
        // start's offset plus one non-zero and in 32 bits (`usize::MAX`
        // wraps to zero).
        let source = s.source.0.wrapping_add(1);
        let lines = u64::from(s.end.line).wrapping_sub(u64::from(s.start.line));
        if source <= 0xFFFF
            && lines <= 0xFFFF
            && let Ok(start) = u32::try_from(s.start.index.wrapping_add(1))
            && let Some(start_index) = NonZeroU32::new(start)
        {
            return NodeSpan::Compact {
                start_index,
                end_index: NodeMark::pack(s.end).index,
                start_line: s.start.line,
                start_column: s.start.column,
                end_column: s.end.column,
                source_lines: source << 16 | lines as u32,
            };
        }
        NodeSpan::wide(s)
    }

    /// The boxed form: rare, kept out of the builder's per-node path.
    #[cold]
    #[inline(never)]
    fn wide(s: Span) -> NodeSpan {
        NodeSpan::Wide(Box::new(WideSpan::pack(s)))
    }

    /// Moves the end to `end` (a collection's, when it closes): in place
    /// when the span stays compact, which is the builder's per-collection
    /// path.
    fn set_end(&mut self, end: Mark) {
        let e = NodeMark::pack(end);
        if let NodeSpan::Compact {
            end_index,
            start_line,
            end_column,
            source_lines,
            ..
        } = self
            && let Some(lines) = e.line.checked_sub(*start_line).filter(|l| *l <= 0xFFFF)
        {
            *end_index = e.index;
            *end_column = e.column;
            *source_lines = *source_lines & !0xFFFF | lines;
            return;
        }
        let mut span = self.unpack();
        span.end = end;
        *self = NodeSpan::pack(span);
    }

    #[inline]
    fn unpack(&self) -> Span {
        match *self {
            NodeSpan::Compact {
                start_index,
                end_index,
                start_line,
                start_column,
                end_column,
                source_lines,
            } => Span::new(
                SourceId((source_lines >> 16).wrapping_sub(1)),
                Mark::new((start_index.get() - 1) as usize, start_line, start_column),
                // No overflow: the distance was taken from these two lines.
                Mark::new(
                    end_index as usize,
                    start_line + (source_lines & 0xFFFF),
                    end_column,
                ),
            ),
            NodeSpan::Wide(ref w) => w.unpack(),
        }
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
    /// on the copy (~3 % of a load). `plain`: the text is plain-safe
    /// ([`PyStr::is_plain_safe`]: the loader decides, and checks in debug
    /// builds, with `emitter::plain_safe_str`).
    #[inline(always)]
    pub(crate) fn new_str(s: &str, plain: bool, span: Span) -> Node {
        let mut rc = UniqueArc::new(NodeData {
            value: Value::Str(PyStr::empty_for(plain)),
            span: NodeSpan::pack(span),
        });
        if let Value::Str(p) = &mut rc.value {
            p.fill(s);
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

    /// A list or dict opened at `start`, to be filled and closed with
    /// [`Node::close_collection`].
    ///
    /// The loader allocates a collection's node before its children, so the
    /// tree lies in memory in the order it is walked and freed: freeing the
    /// 5 MB benchmark document took ~30 % less time than with nodes allocated
    /// after their children. The stand-in contents are `None`, not a
    /// pending value: nothing reads them before the close replaces them, a
    /// pending one is a fill-once cell allocated (and freed) per collection,
    /// and `None` is replaced without a call to the general drop.
    #[inline]
    pub(crate) fn open_collection(start: Span) -> Node {
        Node(Arc::new(NodeData {
            value: Value::Null,
            span: NodeSpan::pack(start),
        }))
    }

    /// Close a collection opened with [`Node::open_collection`]: set its
    /// end and its contents (`value`, the filled list or dict) in place;
    /// `None` if the node is already shared (its span and value are then
    /// fixed). In place: no atomics.
    pub(crate) fn close_collection(&mut self, end: Mark, value: Value) -> Option<()> {
        let data = Arc::get_mut(&mut self.0)?;
        data.span.set_end(end);
        let stand_in = std::mem::replace(&mut data.value, value);
        if !matches!(stand_in, Value::Null) {
            drop(stand_in);
        }
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
    use super::{Node, NodeData, NodeSpan, Value};
    use crate::source::{Mark, SourceId, Span};

    #[test]
    fn a_node_keeps_its_span_in_32_bits() {
        let span = Span::new(SourceId(7), Mark::new(5, 1, 2), Mark::new(4096, 30, 40));
        assert_eq!(Node::new(Value::Null, span).span(), span);
        assert_eq!(Node::new_str("x", true, span).span(), span);
        // An offset past 4 GiB keeps its line and column; the offset saturates.
        let far = Mark::new(usize::MAX, 9, 3);
        let s = Node::new(Value::Null, Span::new(SourceId(1), far, far)).span();
        assert_eq!((s.start.line, s.start.column), (9, 3));
        assert_eq!(s.start.index, u32::MAX as usize);
        assert_eq!((s.end.line, s.end.column), (9, 3));
        assert_eq!(s.end.index, u32::MAX as usize);
        let mut open = Node::open_collection(span);
        assert_eq!(open.close_collection(Mark::new(9000, 50, 1), Value::Null), Some(()));
        assert_eq!(open.span().end, Mark::new(9000, 50, 1));
        assert_eq!(open.span().start, span.start);
    }

    #[test]
    fn a_node_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<NodeSpan>(), 24);
        assert_eq!(std::mem::size_of::<NodeData>(), 56);
        assert_eq!(Node::allocation_size(), 64);
    }

    /// Whether `span` is kept compact, and that it unpacks to itself.
    fn compact(span: Span) -> bool {
        let packed = NodeSpan::pack(span);
        assert_eq!(packed.unpack(), span);
        for n in [Node::new(Value::Null, span), Node::new_str("x", true, span)] {
            assert_eq!(n.span(), span);
        }
        matches!(packed, NodeSpan::Compact { .. })
    }

    #[test]
    fn spans_are_compact_up_to_each_limit_and_boxed_past_it() {
        let m = |index: usize, line, column| Mark::new(index, line, column);
        let at = |source, start, end| Span::new(SourceId(source), start, end);
        let max = u32::MAX;
        let big = max as usize;
        assert!(compact(Span::unknown()));
        assert!(compact(at(0, m(0, 0, 0), m(0, 0, 0))));
        // Source ids: 16 bits, `UNKNOWN` among them.
        assert!(compact(at(65_534, m(1, 2, 3), m(4, 5, 6))));
        assert!(!compact(at(65_535, m(1, 2, 3), m(4, 5, 6))));
        assert!(!compact(at(max - 1, m(1, 2, 3), m(4, 5, 6))));
        assert!(compact(at(max, m(1, 2, 3), m(4, 5, 6))));
        // Lines: the start's in 32 bits, the end's 0..=65,535 after it.
        assert!(compact(at(1, m(0, 0, 0), m(9, 65_535, 0))));
        assert!(!compact(at(1, m(0, 0, 0), m(9, 65_536, 0))));
        assert!(compact(at(1, m(0, max - 65_535, 0), m(9, max, 0))));
        assert!(!compact(at(1, m(0, 0, 0), m(9, max, 0))));
        assert!(compact(at(1, m(0, max, 0), m(9, max, 0))));
        assert!(!compact(at(1, m(0, 3, 0), m(9, 2, 0))));
        // Columns and the end's offset: 32 bits.
        assert!(compact(at(1, m(0, 0, max), m(big, 0, max))));
        // The start's offset: 32 bits but the clamp, boxed (exact there too).
        assert!(compact(at(1, m(big - 1, 0, 0), m(big, 0, 0))));
        assert!(!compact(at(1, m(big, 0, 0), m(big, 0, 0))));
        let clamped = NodeSpan::pack(at(1, m(usize::MAX, 7, 8), m(usize::MAX, 9, 10))).unpack();
        assert_eq!(clamped, at(1, m(big, 7, 8), m(big, 9, 10)));
        // Every field at its limit at once.
        assert!(compact(at(65_534, m(big - 1, max - 65_535, max), m(big, max, max))));
        // Closing a collection re-packs it, either way.
        let mut open = Node::open_collection(at(3, m(10, 1, 0), m(11, 1, 1)));
        assert!(open.close_collection(m(900_000, 70_000, 2), Value::Null).is_some());
        assert_eq!(open.span(), at(3, m(10, 1, 0), m(900_000, 70_000, 2)));
        for (line, fits) in [(65_536, true), (65_537, false), (0, false)] {
            let mut open = Node::open_collection(at(max, m(10, 1, 0), m(11, 1, 1)));
            assert!(open.close_collection(m(big, line, max), Value::Null).is_some());
            assert_eq!(open.span(), at(max, m(10, 1, 0), m(big, line, max)));
            assert_eq!(matches!(open.0.span, NodeSpan::Compact { .. }), fits);
        }
        let mut open = Node::open_collection(at(65_535, m(10, 1, 0), m(11, 1, 1)));
        assert!(open.close_collection(m(12, 2, 2), Value::Null).is_some());
        assert_eq!(open.span(), at(65_535, m(10, 1, 0), m(12, 2, 2)));
    }
}
