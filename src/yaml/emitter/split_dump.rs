//! `dump_split`: a large document's top-level mapping written on two threads, one run of its keys (or of a list's items) each.
//!
//! A top-level block mapping is written key after key, each entry from the
//! same state (column 0, no indentation, nothing open), so the text of the
//! whole is the texts of its entries one after the other. Written as two
//! documents — the first keys, and the rest — with PyYAML's `---`/`...`
//! markers, the two texts joined at the markers are the one document's text.
//! A document without markers (the readable preset) is written the same
//! way, its first half without the start marker and its last without the
//! end marker: how a document ends (`...` after an open-ended scalar, or
//! nothing) depends only on what was written last, which the last half
//! writes as the whole would.
//! The same holds inside a top-level value that is a block list: its items
//! are written at column 0 from the same state whether the list is a
//! mapping value or a document of its own, so such a list can be cut
//! between two items, its second run written as a list document. All this
//! provided nothing ties the runs together: no object that could be
//! written as an anchor and an alias occurs twice (its anchor number counts
//! over the whole document), and the keys sort without Python's `TypeError`
//! (all `str`). Anything else, or any error, goes back to one thread.
//!
//! Whether an object recurs is learnt by the halves' own walks (each counts
//! the aliasable objects it meets that are referred to more than once: its
//! top-level values, which the half's mapping refers to too, and nothing
//! else), not by a walk of the whole tree beforehand: that walk, a cache
//! miss per node of a merged tree spread over the heap, cost 3 ms of the
//! 5000-part render on one thread. A tree with such an object is then
//! written twice (halves, then whole), which only merges that keep a YAML
//! alias of a collection pay.

use super::document_emitter;
use super::dump_options::DumpOptions;
use super::dump_text::{DumpText, Keep};
use super::py_order::sort_like_python;
use super::representer::aliasable;
use super::tree::Tree as _;
use super::value_tree::{ValueTree, Window};
use crate::run_aside::{Offload, RunAside};
use crate::yaml::value::{Entries, Key, Map, Node, Value};

/// Document size (as guessed) from which a second thread pays: below it the
/// thread's start-up costs about what it saves.
pub(super) const MIN_SPLIT_BYTES: usize = 128 << 10;

/// Document size (as guessed) up to which it is split when written whole:
/// the halves are joined by copying the second onto the first, so while
/// they are joined the text is in memory one and a half times. Above this
/// the memory counts more than the dump's time on one thread: a 20 MB list
/// rendered peaked over the memory bound of 6 x payload + 50 MB
/// (benches/README.md). Halves written in pieces are joined without a copy.
pub(super) const MAX_SPLIT_BYTES: usize = 16 << 20;

/// The document markers the split relies on.
const START: &str = "---\n";
const END: &str = "...\n";

/// `prefix` and `node` written as [`super::dump_after`] writes them, on two
/// threads; `None` when the document cannot be split (or a half fails: the
/// caller then writes it whole, which decides the error).
pub(super) fn dump_split(
    prefix: &str,
    node: &Node,
    opts: &DumpOptions,
    capacity: usize,
    min_bytes: usize,
    aside: Option<&dyn RunAside>,
    keep: Keep,
) -> Option<DumpText> {
    if capacity < min_bytes || (capacity > MAX_SPLIT_BYTES && keep == Keep::Whole) {
        return None;
    }
    let Value::Map(map) = node.value() else {
        return None;
    };
    let mut entries: Vec<(&Node, &Node, usize)> = Vec::with_capacity(map.len());
    let mut budget = SIZE_BUDGET;
    for (k, v) in map.iter() {
        // A value under two keys recurs; once the halves refer to it too,
        // it would look like any other.
        if !matches!(k.value(), Value::Str(_)) || (v.is_shared() && aliasable(v.value())) {
            return None;
        }
        let size = estimated_size(v, &mut budget, 0);
        entries.push((k, v, size.saturating_add(estimated_size(k, &mut budget, 0))));
    }
    if opts.sort_keys {
        sort_like_python(&mut entries, |e| e.0);
    }
    // Split where about half the work is done, the prefix (copied by this
    // thread, about a byte's cost per eight) included: after the entry
    // where the count passes half, or inside it when its value is a list
    // (a merged cloud-config is mostly a few long lists, so a cut between
    // keys can leave one thread far more to write than the other).
    // Guesses saturate (a long list's first item may be a long list…).
    let total = sum(entries.iter().map(|e| e.2));
    let prefix_cost = prefix.len() / 8;
    let first_share = (total.saturating_add(prefix_cost) / 2).saturating_sub(prefix_cost);
    let mut acc = 0usize;
    let at = entries
        .iter()
        .position(|e| {
            acc = acc.saturating_add(e.2);
            acc >= first_share
        })
        .unwrap_or(0);
    let before = acc.saturating_sub(entries.get(at)?.2);
    let cut = cut_in_list(entries.get(at)?, first_share.saturating_sub(before));
    let first_end = match cut {
        Some(_) => at + 1,
        // A single key is not cut.
        None if entries.len() < 2 => return None,
        None => at.min(entries.len() - 2) + 1,
    };
    let (first, rest) = entries.split_at(first_end);
    // Each text of the second half (the cut list's moved items, the keys
    // after it) reserves its own share of the guess: memory reserved past
    // what is written still costs zeroed pages.
    let share = |cost: usize| capacity.saturating_mul(cost) / total.max(1);
    let list_share = cut.map_or(0, |c| share(c.moved));
    let rest_share = share(sum(rest.iter().map(|e| e.2)));
    let part = |es: &[(&Node, &Node, usize)]| {
        let mut m = Entries::with_capacity(es.len());
        for &(k, v, _) in es {
            m.insert(Key(k.clone()), v.clone());
        }
        let own = es.iter().filter(|e| aliasable(e.1.value())).count();
        (Node::new(Value::Map(Map::new(m)), node.span()), own)
    };
    let (a, a_own) = part(first);
    let b = (!rest.is_empty()).then(|| part(rest));
    // The list cut in two: the second run of its items written as a list
    // document of its own (a top-level list's items are written as a
    // mapping value's are: at column 0, from the same state).
    let tail = cut.map(|c| (c.list.clone(), c.window(c.at, c.len)));
    let head_window = cut.map(|c| c.window(0, c.at));
    // Each half a document joined at the markers: the first begins as the
    // document does, every other one with `---`; the last ends as the
    // document does, every other one with `...`.
    let head_opts = DumpOptions {
        explicit_end: true,
        ..opts.clone()
    };
    let middle_opts = DumpOptions {
        explicit_start: true,
        ..head_opts.clone()
    };
    let last_opts = DumpOptions {
        explicit_start: true,
        ..opts.clone()
    };
    // The second half on the other thread: its own copies of the options, so
    // the job owns all it uses. Whoever comes to it first writes it.
    let (second, job) = Offload::new(move || {
        let mut texts = Vec::with_capacity(2);
        if let Some((list, window)) = &tail {
            let opts = if b.is_some() {
                &middle_opts
            } else {
                &last_opts
            };
            // The list is this document's one object held elsewhere too.
            texts.push(write(list, 1, Some(*window), opts, "", list_share, keep));
        }
        if let Some((b, b_own)) = &b {
            texts.push(write(b, *b_own, None, &last_opts, "", rest_share, keep));
        }
        texts
    });
    let unstarted = match aside {
        Some(runner) => runner.run_aside(job).err(),
        None => Some(job),
    };
    let (head, tails) = match unstarted {
        None => {
            let head = write(&a, a_own, head_window, &head_opts, prefix, capacity, keep);
            (head, second.result()?)
        }
        // No thread running: start one for this document.
        Some(job) => std::thread::scope(|scope| {
            let other = std::thread::Builder::new()
                .name("cloudfold-dump".into())
                .spawn_scoped(scope, job)
                .ok()?;
            let head = write(&a, a_own, head_window, &head_opts, prefix, capacity, keep);
            let tails = second.result()?;
            other.join().ok()?;
            Some((head, tails))
        })?,
    };
    let mut text = head?;
    if opts.explicit_start && !text.starts_with_after(prefix.len(), START) {
        return None;
    }
    // Each run is a whole document: `---` ... `...`.
    for tail in tails {
        let mut tail = tail?;
        if !tail.starts_with_after(0, START)
            || !text.ends_with(&format!("\n{END}"))
            || !text.truncate_end(END.len())
        {
            return None;
        }
        match keep {
            // Copied onto the first text, its marker left behind.
            Keep::Whole => {
                let tail = tail.into_string();
                let body = tail.get(START.len()..)?;
                text.pieces.last_mut()?.push_str(body);
                text.len += body.len();
            }
            Keep::Pieces(_) | Keep::Nothing(_) => {
                tail.strip_start(START);
                text.append(tail);
            }
        }
    }
    (text.len - prefix.len() <= opts.max_output_bytes).then_some(text)
}

/// Where a top-level value that is a long list is cut: its first `at`
/// items end the first half, the rest begin the second.
#[derive(Clone, Copy)]
struct ListCut<'n> {
    list: &'n Node,
    at: usize,
    len: usize,
    /// Guessed cost of the items moved to the second half.
    moved: usize,
}

impl ListCut<'_> {
    fn window(&self, from: usize, to: usize) -> Window {
        Window {
            id: self.list.id(),
            from,
            to,
        }
    }
}

/// Cut entry `e` (its value guessed to cost `e.2`) inside its list so that
/// about `wanted` of it goes to the first half; `None` when its value
/// is not a list of at least two items.
fn cut_in_list<'n>(e: &(&'n Node, &'n Node, usize), wanted: usize) -> Option<ListCut<'n>> {
    let (_, list, size) = *e;
    let Value::Seq(items) = list.value() else {
        return None;
    };
    let len = items.len();
    if len < 2 {
        return None;
    }
    let at = (len as u128 * wanted as u128 / size.max(1) as u128) as usize;
    let at = at.clamp(1, len - 1);
    let moved = (size as u128 * (len - at) as u128 / len as u128) as usize;
    Some(ListCut {
        list,
        at,
        len,
        moved,
    })
}

/// One half (or a cut list's second run of items, with `window`), in one
/// walk: it holds no recurring object and shares none with the other half
/// when the only aliasable objects referred to twice that it meets are its
/// `own` top-level values (held by the half too).
fn write(
    node: &Node,
    own: usize,
    window: Option<Window>,
    opts: &DumpOptions,
    prefix: &str,
    capacity: usize,
    keep: Keep,
) -> Option<DumpText> {
    let mut tree = match window {
        Some(w) => ValueTree::windowed(node, opts, w),
        None => ValueTree::new(node, opts, &[]),
    };
    let text = document_emitter::emit(&mut tree, opts, prefix, capacity, keep).ok()?;
    (!tree.failed() && tree.recurring().is_none() && tree.shared_met() == own).then_some(text)
}

/// Nodes [`estimated_size`] may read for one document.
const SIZE_BUDGET: usize = 4096;

/// Levels [`estimated_size`] descends.
const SIZE_DEPTH: usize = 32;

/// Collection items [`estimated_size`] reads before it scales up.
const SAMPLE: usize = 8;

/// What a node costs to write beyond its text, in bytes of text: the
/// indentation, indicators and line break around it, and the walk.
const NODE_COST: usize = 8;

/// What opening a list costs beyond its nodes, and a mapping per entry
/// (its keys are sorted), in bytes of text. Fitted to the halves' times
/// on a 5000-part merge: a mapping entry takes about three times what its
/// text alone would, a list about as much as 40 bytes.
const LIST_COST: usize = 40;
const ENTRY_COST: usize = 24;

/// About how long the text of `node` is (itself included), to cut the
/// document where half is written: each node [`NODE_COST`] plus its
/// string's length; a collection's first [`SAMPLE`] items, scaled to its
/// length (lists of a merged cloud-config repeat their shape). `budget`
/// bounds the nodes read, and [`SIZE_DEPTH`] the recursion, beyond which a
/// node counts as [`NODE_COST`].
fn estimated_size(node: &Node, budget: &mut usize, depth: usize) -> usize {
    if *budget == 0 || depth >= SIZE_DEPTH {
        return NODE_COST;
    }
    *budget -= 1;
    let depth = depth + 1;
    let (len, sampled, cost) = match node.value() {
        Value::Map(m) | Value::Set(m) => (
            m.len(),
            sum(m.iter().take(SAMPLE).map(|(k, v)| {
                estimated_size(k, budget, depth).saturating_add(estimated_size(v, budget, depth))
            })),
            ENTRY_COST.saturating_mul(m.len()),
        ),
        Value::Seq(s) | Value::Tuple(s) => (
            s.len(),
            sum(s
                .iter()
                .take(SAMPLE)
                .map(|x| estimated_size(x, budget, depth))),
            LIST_COST,
        ),
        Value::Str(s) => return NODE_COST.saturating_add(s.as_wtf8().len()),
        Value::Bytes(b) => return NODE_COST.saturating_add(b.len() / 3 * 4),
        _ => return NODE_COST,
    };
    (sampled.saturating_mul(len) / len.clamp(1, SAMPLE)).saturating_add(NODE_COST + cost)
}

/// A sum that stops at `usize::MAX`.
fn sum(sizes: impl Iterator<Item = usize>) -> usize {
    sizes.fold(0, usize::saturating_add)
}
