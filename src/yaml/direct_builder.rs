//! `DirectBuilder`: events straight to values for the common document, with no
//! node graph in between; anything unusual hands back to the full pipeline.
//!
//! PyYAML composes the whole document before constructing it (so parse errors
//! win over construction errors) and constructs breadth first (so which
//! construction error wins depends on that order). Both orders only matter
//! when something fails, so this builder goes depth first and, instead of
//! ever reporting an error, gives up ([`None`]) on anything it does not
//! handle exactly: errors, tags, recursive or undefined aliases, duplicate
//! anchors, `=` keys, unhashable keys, nesting near the depth limit, merges it
//! cannot count exactly. The caller then runs composer + constructor from the
//! start, which decides. When it succeeds, the result is what they would build:
//! the same values, spans and sharing (one node per anchor).

use super::constructor::scalar_value;
use super::emitter::{plain_safe_ends, plain_safe_printable, plain_safe_str};
use super::event::{Event, EventKind, ScalarText};
use super::load_options::LoadOptions;
use super::resolver::{may_resolve, resolve_plain};
use super::tag::Tag;
use super::value::{Entries, Map, Node, PyStr, Seq, Value, insert};
use crate::source::{Mark, SourceId, Span};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// An open collection. Items and pairs wait on the builder's shared stacks
/// (from `base` on), so each collection is allocated once, at its size.
enum Open {
    Seq { base: usize },
    Map(OpenMap),
}

struct OpenMap {
    /// Where this map's own pairs start on the builder's pair stack.
    base: usize,
    /// The finished key waiting for its value (`None` also while a `<<` key waits).
    key: Option<Node>,
    /// The pending key is `<<`.
    merge_key: bool,
    /// Whether the next finished node is a key.
    at_key: bool,
    /// Pairs other than `<<` ones, duplicates included (PyYAML's node pairs).
    pairs: usize,
    /// Entries brought in by `<<`, in PyYAML's order (its merge list, folded).
    merged: Vec<(Node, Node)>,
    /// Length of PyYAML's merge list (the merged maps' flattened pair counts).
    merge_len: usize,
}

struct Frame {
    open: Open,
    /// The collection's node, allocated when it opens (see
    /// [`Node::open_collection`]) and filled when it closes.
    node: Node,
    /// Its anchor is the last of the builder's `open_anchors`.
    anchored: bool,
}

/// The frame, item and pair buffers a builder borrows from its thread for one
/// document and gives back: a render loads thousands of parts on each
/// thread, and each load allocated them afresh.
#[derive(Default)]
struct Scratch {
    stack: Vec<Frame>,
    items: Vec<Node>,
    pairs: Vec<(Node, Node)>,
}

/// Buffers longer than this are not kept (a huge document's would stay
/// allocated for the thread's life).
const SCRATCH_KEPT: usize = 1 << 12;

/// `v` emptied, to keep for the thread's next document, unless it grew past
/// [`SCRATCH_KEPT`] (then a new one).
pub(super) fn recycled<T>(mut v: Vec<T>) -> Vec<T> {
    if v.capacity() > SCRATCH_KEPT {
        return Vec::new();
    }
    v.clear();
    v
}

thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// State of one document's build: the direct builder's events and the fast
/// loader's calls both drive it, so anchors, merges and duplicate keys are
/// handled in one place.
pub(crate) struct Builder<'a> {
    source: SourceId,
    max_depth: usize,
    merge_budget: usize,
    /// Longer scalars are left to the composer, which reports the limit.
    max_scalar: usize,
    stack: Vec<Frame>,
    /// Anchors of the open collections that have one, innermost last.
    open_anchors: Vec<Cow<'a, str>>,
    /// Items of the open sequences, innermost last.
    items: Vec<Node>,
    /// Lines of the text, when the loader counted them for a large one
    /// (see [`Builder::expect_lines`]); 0 otherwise.
    lines: usize,
    /// Own pairs of the open mappings, innermost last.
    pairs: Vec<(Node, Node)>,
    /// Anchor → its node (`None` while the anchored collection is open).
    anchors: HashMap<Cow<'a, str>, Option<Node>>,
    /// Maps whose PyYAML pair list is longer than their entries (duplicate
    /// keys, overridden merges): their merge-list length is not known here.
    irregular: HashSet<usize>,
    /// The finished document node.
    root: Option<Node>,
}

/// Build the single document of the event stream, or `None` to leave it to
/// the composer and constructor. `Some(None)` is an empty stream.
pub(crate) fn build_direct<'a>(
    mut next: impl FnMut() -> Option<Event<'a>>,
    opts: &LoadOptions,
) -> Option<Option<Node>> {
    if !matches!(next()?.kind, EventKind::StreamStart) {
        return None;
    }
    match next()?.kind {
        EventKind::StreamEnd => return Some(None),
        EventKind::DocumentStart { .. } => {}
        _ => return None,
    }
    let mut b = Builder::new(opts);
    loop {
        let ev = next()?;
        match ev.kind {
            EventKind::Scalar {
                props,
                implicit,
                value,
                ..
            } => {
                if props.tag.is_some() {
                    return None;
                }
                b.scalar(value, implicit.0, props.anchor, ev.start, ev.end)?;
            }
            EventKind::Alias { anchor } => b.alias(&anchor)?,
            EventKind::SequenceStart { props, .. } => {
                if props.tag.is_some() {
                    return None;
                }
                b.open(true, props.anchor, ev.start)?;
            }
            EventKind::MappingStart { props, .. } => {
                if props.tag.is_some() {
                    return None;
                }
                b.open(false, props.anchor, ev.start)?;
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => b.close(ev.end)?,
            _ => return None,
        }
        if b.done() {
            break;
        }
    }
    if !matches!(next()?.kind, EventKind::DocumentEnd { .. }) {
        return None;
    }
    if !matches!(next()?.kind, EventKind::StreamEnd) {
        return None;
    }
    b.finish().map(Some)
}

impl Drop for Builder<'_> {
    /// The buffers go back to the thread, emptied.
    fn drop(&mut self) {
        let kept = Scratch {
            stack: recycled(std::mem::take(&mut self.stack)),
            items: recycled(std::mem::take(&mut self.items)),
            pairs: recycled(std::mem::take(&mut self.pairs)),
        };
        SCRATCH.with(|s| s.set(kept));
    }
}

impl<'a> Builder<'a> {
    /// A builder for one document.
    pub(crate) fn new(opts: &LoadOptions) -> Self {
        let Scratch {
            mut stack,
            mut items,
            mut pairs,
        } = SCRATCH.with(Cell::take);
        // Room for a typical cloud-config's nesting up front: growing
        // these from empty cost a few reallocations per document.
        stack.reserve(8);
        items.reserve(16);
        pairs.reserve(16);
        Builder {
            source: opts.source,
            // The caller's frames bring PyYAML's limit closer (by half as many
            // levels, see the composer); give up a level early to stay clear of it.
            max_depth: opts
                .max_depth
                .saturating_sub(opts.caller_frames.div_ceil(2) + 1),
            merge_budget: opts.max_merge_entries,
            max_scalar: opts.max_scalar_size,
            stack,
            open_anchors: Vec::new(),
            items,
            lines: 0,
            pairs,
            anchors: HashMap::new(),
            irregular: HashSet::new(),
            root: None,
        }
    }

    /// A large text's line count, before the first event: the item stack
    /// is sized for a block list of that many lines (at most one item per
    /// line; untouched room costs no memory). A million-item list grew it by
    /// doubling, touching each copy afresh.
    pub(crate) fn expect_lines(&mut self, lines: usize) {
        if lines > SCRATCH_KEPT {
            self.lines = lines;
            self.items.reserve(lines);
        }
    }

    /// Whether the document node is finished.
    pub(crate) fn done(&self) -> bool {
        self.root.is_some()
    }

    /// The document node, once finished.
    pub(crate) fn finish(&mut self) -> Option<Node> {
        if self.stack.is_empty() {
            self.root.take()
        } else {
            None
        }
    }

    /// An untagged scalar (`plain`: written plain, so resolved implicitly).
    pub(crate) fn scalar(
        &mut self,
        value: ScalarText<'a>,
        plain: bool,
        anchor: Option<Cow<'a, str>>,
        start: Mark,
        end: Mark,
    ) -> Option<()> {
        if value.as_str().map_or(0, str::len) > self.max_scalar {
            return None;
        }
        let tag = match &value {
            ScalarText::Text(t) if plain => resolve_plain(t),
            _ => Tag::Str,
        };
        self.tagged(tag, value, anchor, start, end)
    }

    /// An unanchored scalar borrowed from the text, as the fast loader reads
    /// most: `text` is printable ASCII on one line, as all the fast
    /// loader's text is (`plain`: written plain; `clean`: it is known to
    /// hold no `:` or `#`). A `str` is built and attached on a short path,
    /// anything else goes the general way.
    #[inline]
    pub(crate) fn str_scalar(
        &mut self,
        text: &'a str,
        plain: bool,
        clean: bool,
        start: Mark,
        end: Mark,
    ) -> Option<()> {
        if text.len() > self.max_scalar {
            return None;
        }
        let tag = if plain && may_resolve(text) {
            resolve_plain(text)
        } else {
            Tag::Str
        };
        if tag != Tag::Str {
            return self.tagged(tag, ScalarText::Text(Cow::Borrowed(text)), None, start, end);
        }
        let safe = if clean {
            plain_safe_ends(text.as_bytes())
        } else {
            plain_safe_printable(text.as_bytes())
        };
        debug_assert!(!safe || plain_safe_str(text.as_bytes()));
        let node = Node::new_str(text, safe, Span::new(self.source, start, end));
        self.attach_str(node)
    }

    /// [`Self::finished`] for a `str` node, on the short path when it goes
    /// into a list or is a plain key or value of a mapping.
    #[inline]
    fn attach_str(&mut self, node: Node) -> Option<()> {
        // An open collection means no root yet (`open` refuses after it).
        let Some(frame) = self.stack.last_mut() else {
            return self.finished(node);
        };
        match &mut frame.open {
            Open::Seq { .. } => self.items.push(node),
            // A `str` is hashable.
            Open::Map(m) if m.at_key => {
                m.key = Some(node);
                m.at_key = false;
            }
            Open::Map(m) if !m.merge_key => {
                let key = m.key.take()?;
                m.at_key = true;
                m.pairs += 1;
                self.pairs.push((key, node));
            }
            Open::Map(_) => return self.attach(node),
        }
        Some(())
    }

    /// A scalar whose tag is resolved.
    fn tagged(
        &mut self,
        tag: Tag,
        value: ScalarText<'a>,
        anchor: Option<Cow<'a, str>>,
        start: Mark,
        end: Mark,
    ) -> Option<()> {
        if tag == Tag::Merge {
            // Only as a mapping key, unanchored; it then takes no node.
            let Some(Frame {
                open: Open::Map(m), ..
            }) = self.stack.last_mut()
            else {
                return None;
            };
            if !m.at_key || anchor.is_some() {
                return None;
            }
            m.at_key = false;
            m.merge_key = true;
            return Some(());
        }
        let span = Span::new(self.source, start, end);
        let node = match (tag, value) {
            (Tag::Str, ScalarText::Text(Cow::Borrowed(t))) => {
                Node::new_str(t, plain_safe_str(t.as_bytes()), span)
            }
            // An owned text (unescaped, folded) becomes the string as it is.
            (Tag::Str, ScalarText::Text(Cow::Owned(t))) => {
                let plain = plain_safe_str(t.as_bytes());
                Node::new(Value::Str(PyStr::loaded(t, plain)), span)
            }
            (Tag::Str, ScalarText::Wide(p)) => Node::new(Value::Str(*p), span),
            (Tag::Value, _) => return None,
            (tag, ScalarText::Text(t)) => Node::new(scalar_value(tag, &t, start).ok()?, span),
            (_, ScalarText::Wide(_)) => return None,
        };
        if let Some(a) = anchor
            && self.anchors.insert(a, Some(node.clone())).is_some()
        {
            return None;
        }
        self.finished(node)
    }

    /// `*name`: the anchored node itself.
    pub(crate) fn alias(&mut self, name: &str) -> Option<()> {
        let node = self.anchors.get(name)?.clone()?;
        self.finished(node)
    }

    /// Start a sequence (`seq`) or mapping at `start`.
    pub(crate) fn open(
        &mut self,
        seq: bool,
        anchor: Option<Cow<'a, str>>,
        start: Mark,
    ) -> Option<()> {
        if self.root.is_some() || self.stack.len() >= self.max_depth {
            return None;
        }
        if let Some(a) = &anchor
            && self.anchors.insert(a.clone(), None).is_some()
        {
            return None;
        }
        let open = if seq {
            Open::Seq {
                base: self.items.len(),
            }
        } else {
            Open::Map(OpenMap {
                base: self.pairs.len(),
                key: None,
                merge_key: false,
                at_key: true,
                pairs: 0,
                merged: Vec::new(),
                merge_len: 0,
            })
        };
        let node = Node::open_collection(Span::new(self.source, start, start));
        let anchored = anchor.is_some();
        self.open_anchors.extend(anchor);
        self.stack.push(Frame {
            open,
            node,
            anchored,
        });
        Some(())
    }

    /// End the innermost collection at `end`.
    pub(crate) fn close(&mut self, end: Mark) -> Option<()> {
        let node = self.close_node(end)?;
        self.finished(node)
    }

    /// A finished node: into the open collection, or the document's root.
    fn finished(&mut self, node: Node) -> Option<()> {
        if self.root.is_some() {
            return None;
        }
        if self.stack.is_empty() {
            self.root = Some(node);
            return Some(());
        }
        self.attach(node)
    }

    /// Add a finished node to the innermost open collection.
    fn attach(&mut self, node: Node) -> Option<()> {
        let merge_budget = self.merge_budget;
        let frame = self.stack.last_mut()?;
        match &mut frame.open {
            Open::Seq { .. } => self.items.push(node),
            Open::Map(m) => {
                if m.at_key {
                    if !node.value().is_hashable() {
                        return None;
                    }
                    m.key = Some(node);
                    m.at_key = false;
                } else if m.merge_key {
                    m.merge_key = false;
                    m.at_key = true;
                    let before = m.merge_len;
                    match node.value() {
                        Value::Map(src) => {
                            merge_from(&self.irregular, m, &node, src)?;
                        }
                        Value::Seq(items) => {
                            // PyYAML merges a list of maps last to first.
                            for item in items.iter().rev() {
                                let Value::Map(src) = item.value() else {
                                    return None;
                                };
                                merge_from(&self.irregular, m, item, src)?;
                            }
                        }
                        _ => return None,
                    }
                    if m.merge_len < before || m.merge_len > merge_budget {
                        return None;
                    }
                } else {
                    let key = m.key.take()?;
                    m.at_key = true;
                    m.pairs += 1;
                    self.pairs.push((key, node));
                }
            }
        }
        Some(())
    }

    /// Close the innermost collection: its node, registered under its anchor.
    fn close_node(&mut self, end: Mark) -> Option<Node> {
        let frame = self.stack.pop()?;
        let mut node = frame.node;
        let value = match frame.open {
            Open::Seq { base } => Value::Seq(Seq::new(self.take_items(base, end))),
            Open::Map(m) => {
                if !m.at_key {
                    return None;
                }
                let flattened = m.pairs.checked_add(m.merge_len)?;
                self.merge_budget = self.merge_budget.checked_sub(m.merge_len)?;
                // Merged entries first, then the map's own pairs in order: an
                // own key keeps the merged key object and takes the own value.
                let own = self.pairs.len().checked_sub(m.base)?;
                let mut entries = Entries::with_capacity(m.merged.len() + own);
                for (k, v) in m.merged {
                    insert(&mut entries, k, v);
                }
                entries.insert_all(self.pairs.drain(m.base..));
                if entries.len() != flattened {
                    self.irregular.insert(node.id());
                }
                Value::Map(Map::new(entries))
            }
        };
        node.close_collection(end, value)?;
        if frame.anchored
            && let Some(a) = self.open_anchors.pop()
        {
            self.anchors.insert(a, Some(node.clone()));
        }
        Some(node)
    }
}

impl Builder<'_> {
    /// The items of the sequence closing at `end` from `base` on. A long
    /// outermost list takes the stack itself when it fills at least half
    /// of it (a copy was a list-sized block of fresh memory); the stack is
    /// then sized again for the lines left, if many are.
    fn take_items(&mut self, base: usize, end: Mark) -> Vec<Node> {
        let len = self.items.len();
        if base != 0 || len <= SCRATCH_KEPT || len < self.items.capacity() / 2 {
            return self.items.split_off(base);
        }
        let items = std::mem::take(&mut self.items);
        let left = self.lines.saturating_sub(end.line as usize);
        if left > SCRATCH_KEPT {
            self.items.reserve(left);
        }
        items
    }
}

/// Append a merged map's entries; PyYAML appends its flattened pair list,
/// which folds to the same entries, and counts that list's length.
fn merge_from(irregular: &HashSet<usize>, m: &mut OpenMap, node: &Node, src: &Map) -> Option<()> {
    if irregular.contains(&node.id()) {
        return None;
    }
    m.merge_len = m.merge_len.checked_add(src.len())?;
    m.merged
        .extend(src.iter().map(|(k, v)| (k.clone(), v.clone())));
    Some(())
}
