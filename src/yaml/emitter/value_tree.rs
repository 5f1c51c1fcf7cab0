//! `ValueTree`: a value tree read directly by the emitter, when nothing in it needs an anchor.
//!
//! The representation graph is not needed to write a tree: the emitter walks
//! the values once, sorting each mapping's keys as it opens it. Only anchors
//! need foresight (PyYAML writes `&idNNN` at an object's first occurrence,
//! numbered in the order of second occurrences): the walk is given the
//! objects known to recur, in that order; meeting another one a second time
//! makes it fail and report it, and the caller walks again knowing it (or,
//! after a few such rounds or on any error, takes the two-pass path, which
//! decides every error).

use super::DumpOptions;
use super::py_order::{StrSortKey, sort_like_python_fast};
use super::repr_graph::{MapTag, ScalarTag, SeqTag};
use super::representer::{AddressHasher, aliasable, is_pairs};
use super::scalar_text::{scalar_tag, write_scalar};
use super::tree::{Enter, SMALL, ScalarText, Tree, View};
use crate::yaml::value::{Int, Node, Value};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::io::Write;

/// A child: a node (`None` is a set's null value); `pair_item` when it is
/// one 2-tuple of a `!!pairs` list.
#[derive(Debug, Clone, Copy)]
pub(super) struct Child<'a> {
    node: Option<&'a Node>,
    pair_item: bool,
}

impl PartialEq for Child<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.node.map(Node::id) == other.node.map(Node::id) && self.pair_item == other.pair_item
    }
}

type Entry<'a> = (&'a Node, Option<&'a Node>);

enum Open<'a> {
    /// Items of a list or tuple (`pairs`: each written as a mapping).
    Items(&'a [Node], bool),
    /// Entries at `pending[start..]`.
    Entries(usize),
}

pub(super) struct ValueTree<'a, 'o> {
    root: &'a Node,
    opts: &'o DumpOptions,
    open: Vec<Open<'a>>,
    /// Entries of the open mappings, innermost last.
    pending: Vec<Entry<'a>>,
    sort_buf: Vec<StrSortKey<'a, Entry<'a>>>,
    /// Shared objects met so far (by address).
    seen: HashSet<usize, BuildHasherDefault<AddressHasher>>,
    /// Anchor number of the objects known to recur (by address).
    known: HashMap<usize, u32, BuildHasherDefault<AddressHasher>>,
    /// Their addresses in anchor order.
    known_order: Vec<usize>,
    replaying: bool,
    failed: bool,
    /// The object met twice that was not known to recur.
    recurring: Option<usize>,
    /// One list written as only some of its items (see [`Window`]).
    window: Option<Window>,
}

/// Items `from..to` of the list at address `id`: what the walk shows of
/// it (a split dump writes one long list as two runs of its items).
#[derive(Debug, Clone, Copy)]
pub(super) struct Window {
    pub id: usize,
    pub from: usize,
    pub to: usize,
}

impl<'a, 'o> ValueTree<'a, 'o> {
    /// A walk of `root`; `known` are the addresses of the objects that
    /// recur, in anchor order (`id001` first).
    pub(super) fn new(root: &'a Node, opts: &'o DumpOptions, known: &[usize]) -> Self {
        ValueTree {
            root,
            opts,
            open: Vec::new(),
            pending: Vec::new(),
            sort_buf: Vec::new(),
            seen: HashSet::default(),
            known: known.iter().copied().zip(1..).collect(),
            known_order: known.to_vec(),
            replaying: false,
            failed: false,
            recurring: None,
            window: None,
        }
    }

    /// A walk of `root`, where nothing recurs, that shows only `window`'s
    /// items of one list.
    pub(super) fn windowed(root: &'a Node, opts: &'o DumpOptions, window: Window) -> Self {
        ValueTree {
            window: Some(window),
            ..ValueTree::new(root, opts, &[])
        }
    }

    /// The items of list `n` the walk shows, and whether they are written
    /// as `!!pairs` (decided by the whole list).
    fn items_of(&self, n: &'a Node, items: &'a [Node]) -> (&'a [Node], bool) {
        let pairs =
            self.opts.tuples_as_pairs && matches!(n.value(), Value::Seq(_)) && is_pairs(items);
        match self.window {
            Some(w) if w.id == n.id() => (items.get(w.from..w.to).unwrap_or(&[]), pairs),
            _ => (items, pairs),
        }
    }

    /// How many aliasable objects referred to more than once (in this tree
    /// or from outside it) the walk met.
    pub(super) fn shared_met(&self) -> usize {
        self.seen.len()
    }

    /// The objects to give a new walk, in anchor order, when the walk
    /// failed because one more recurs (`None` for any other reason).
    pub(super) fn recurring(&self) -> Option<Vec<usize>> {
        let id = self.recurring?;
        let mut all = self.known_order.clone();
        // A failed splice has learnt it already, in its place.
        if !all.contains(&id) {
            all.push(id);
        }
        Some(all)
    }

    /// The address of a node PyYAML may alias (a `!!pairs` item never is:
    /// PyYAML makes a new node for it).
    fn aliasable_id(ix: Child<'_>) -> Option<usize> {
        let n = ix.node?;
        (!(ix.pair_item && matches!(n.value(), Value::Tuple(_)))
            && aliasable(n.value())
            && n.is_shared())
        .then(|| n.id())
    }

    fn entries(&mut self, start: usize) -> u32 {
        if self.opts.sort_keys
            && let Some(seg) = self.pending.get_mut(start..)
        {
            sort_like_python_fast(seg, |e| e.0, &mut self.sort_buf);
        }
        self.push(Open::Entries(start))
    }

    fn push(&mut self, o: Open<'a>) -> u32 {
        self.open.push(o);
        (self.open.len() - 1) as u32
    }
}

/// Children read ahead at a time (see [`touch`]).
const TOUCH: usize = 8;

/// Read the kinds of a few nodes the walk comes to soon. The nodes of a
/// merged tree lie all over the heap; read one at a time, between the
/// writing of their neighbours, each is a cache miss waited for alone,
/// while reads of several independent nodes in a row overlap.
fn touch<'n>(nodes: impl Iterator<Item = &'n Node>) {
    let kinds = nodes.fold(0usize, |acc, n| {
        acc.wrapping_add(usize::from(aliasable(n.value())))
    });
    std::hint::black_box(kinds);
}

/// Which children to read ahead when child `i` is asked for: the first
/// two batches at the start, then one batch ahead at each batch.
fn ahead(i: usize) -> Option<(usize, usize)> {
    if i == 0 {
        Some((0, 2 * TOUCH))
    } else if i.is_multiple_of(TOUCH) {
        Some((i + TOUCH, TOUCH))
    } else {
        None
    }
}

/// Text formatted into a small buffer (no allocation for the common types).
fn formatted(v: &Value) -> ScalarText<'static> {
    let mut buf = [0u8; SMALL];
    let len = {
        let mut cur: &mut [u8] = &mut buf;
        let ok = match v {
            Value::Null => cur.write_all(b"null").is_ok(),
            Value::Bool(b) => cur.write_all(if *b { b"true" } else { b"false" }).is_ok(),
            Value::Int(Int::Small(i)) => write!(cur, "{i}").is_ok(),
            _ => false,
        };
        ok.then(|| SMALL - cur.len())
    };
    if let Some(len) = len {
        return ScalarText::Small {
            buf,
            len: len as u8,
        };
    }
    let mut out = Vec::new();
    write_scalar(v, &mut out);
    match buf.get_mut(..out.len()) {
        Some(b) => {
            b.copy_from_slice(&out);
            ScalarText::Small {
                buf,
                len: out.len() as u8,
            }
        }
        None => ScalarText::Owned(out),
    }
}

impl<'a> Tree for ValueTree<'a, '_> {
    type Ix = Child<'a>;

    fn root(&self) -> Child<'a> {
        Child {
            node: Some(self.root),
            pair_item: false,
        }
    }

    fn anchors(&self) -> u32 {
        self.known.len() as u32
    }

    fn anchor(&self, ix: Child<'a>) -> u32 {
        if self.known.is_empty() {
            return 0;
        }
        Self::aliasable_id(ix)
            .and_then(|id| self.known.get(&id).copied())
            .unwrap_or(0)
    }

    fn view(&self, ix: Child<'a>) -> View<'_> {
        let Some(n) = ix.node else {
            return View::Scalar {
                tag: ScalarTag::Null,
                text: formatted(&Value::Null),
            };
        };
        let value = n.value();
        if let Some(tag) = scalar_tag(value) {
            let text = match value {
                Value::Str(s) if s.is_plain_safe() => ScalarText::Plain(s.as_wtf8()),
                Value::Str(s) => {
                    let bytes = s.as_wtf8();
                    ScalarText::Borrowed {
                        bytes,
                        ascii: bytes.is_ascii(),
                    }
                }
                _ => formatted(value),
            };
            return View::Scalar { tag, text };
        }
        match value {
            Value::Tuple(t) if ix.pair_item => View::Map {
                tag: MapTag::Pair,
                len: 1,
            },
            Value::Seq(items) | Value::Tuple(items) => {
                let (items, pairs) = self.items_of(n, items.items());
                View::Seq {
                    tag: if pairs { SeqTag::Pairs } else { SeqTag::Seq },
                    len: items.len() as u32,
                }
            }
            Value::Map(m) => View::Map {
                tag: MapTag::Map,
                len: m.len() as u32,
            },
            Value::Set(m) => View::Map {
                tag: MapTag::Set,
                len: m.len() as u32,
            },
            _ => View::Seq {
                tag: SeqTag::Seq,
                len: 0,
            },
        }
    }

    fn enter(&mut self, ix: Child<'a>) -> Enter {
        match Self::aliasable_id(ix) {
            Some(id) if !self.replaying && !self.known.contains_key(&id) => {
                if self.seen.insert(id) {
                    Enter::First(id)
                } else {
                    Enter::Again(id)
                }
            }
            _ => Enter::Plain,
        }
    }

    fn key(&mut self, ix: Child<'a>) {
        // A key's layout depends on whether it is an alias: known too late.
        if !self.replaying
            && let Some(id) = Self::aliasable_id(ix)
            && !self.known.contains_key(&id)
            && self.seen.contains(&id)
        {
            self.give_up(id);
        }
    }

    fn learn(&mut self, id: usize) -> u32 {
        self.known_order.push(id);
        let a = self.known_order.len() as u32;
        self.known.insert(id, a);
        a
    }

    fn give_up(&mut self, id: usize) {
        self.failed = true;
        self.recurring.get_or_insert(id);
    }

    fn replay(&mut self, on: bool) {
        self.replaying = on;
    }

    fn open(&mut self, ix: Child<'a>) -> u32 {
        let Some(n) = ix.node else {
            return self.push(Open::Items(&[], false));
        };
        let value = n.value();
        match value {
            Value::Tuple(t) if ix.pair_item => self.push(Open::Items(t.items(), false)),
            Value::Seq(items) | Value::Tuple(items) => {
                let (items, pairs) = self.items_of(n, items.items());
                self.push(Open::Items(items, pairs))
            }
            Value::Map(m) => {
                let start = self.pending.len();
                self.pending.extend(m.iter().map(|(k, v)| (k, Some(v))));
                self.entries(start)
            }
            Value::Set(m) => {
                let start = self.pending.len();
                self.pending.extend(m.keys().map(|k| (k, None)));
                self.entries(start)
            }
            _ => self.push(Open::Items(&[], false)),
        }
    }

    fn kid(&self, handle: u32, i: u32) -> Option<Child<'a>> {
        let i = i as usize;
        Some(match self.open.get(handle as usize)? {
            Open::Items(items, pairs) => {
                if let Some((from, n)) = ahead(i) {
                    touch(items.iter().skip(from).take(n));
                }
                Child {
                    node: items.get(i),
                    pair_item: *pairs,
                }
            }
            Open::Entries(start) => {
                if i.is_multiple_of(2)
                    && let Some((from, n)) = ahead(i / 2)
                {
                    // Keys too: sorted, a large mapping's keys are read
                    // in an order that jumps all over the heap.
                    let entries = self.pending.iter().skip(start + from).take(n);
                    touch(entries.flat_map(|e| std::iter::once(e.0).chain(e.1)));
                }
                let e = self.pending.get(start + i / 2)?;
                Child {
                    node: if i.is_multiple_of(2) { Some(e.0) } else { e.1 },
                    pair_item: false,
                }
            }
        })
    }

    fn close(&mut self, handle: u32) {
        if let Some(Open::Entries(start)) = self.open.get(handle as usize) {
            self.pending.truncate(*start);
        }
        self.open.truncate(handle as usize);
    }

    fn deeper(&mut self, depth: usize) {
        // The two-pass path decides the exact limit and error.
        if depth + 1 >= self.opts.max_depth {
            self.failed = true;
        }
    }

    fn failed(&self) -> bool {
        self.failed
    }

    fn size_hint(&self) -> usize {
        // A loaded document is written back at about the size it was read
        // (the source text its root spans), an eighth more for deeper
        // indentation and quotes: reserved once, the output is not regrown
        // by doubling (a copy of everything written and fresh pages each
        // time). Values built in code span nothing.
        let span = self.root.span();
        let read = span.end.index.saturating_sub(span.start.index);
        read.saturating_add(read / 8)
            .min(self.opts.max_output_bytes)
            .max(4096)
    }
}
