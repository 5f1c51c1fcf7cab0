//! `dump_split`: a large document's top-level mapping written on two threads, one run of its keys each.
//!
//! A top-level block mapping is written key after key, each entry from the
//! same state (column 0, no indentation, nothing open), so the text of the
//! whole is the texts of its entries one after the other. Written as two
//! documents — the first keys, and the rest — with PyYAML's `---`/`...`
//! markers, the two texts joined at the markers are the one document's text,
//! provided nothing ties the two runs together: no object that could be
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
use super::py_order::sort_like_python;
use super::representer::aliasable;
use super::tree::Tree as _;
use super::value_tree::ValueTree;
use crate::run_aside::{Offload, RunAside};
use crate::yaml::value::{Entries, Key, Map, Node, Value};

/// Document size (as guessed) from which a second thread pays: below it the
/// thread's start-up costs about what it saves.
pub(super) const MIN_SPLIT_BYTES: usize = 128 << 10;

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
) -> Option<String> {
    if !(opts.explicit_start && opts.explicit_end) || capacity < min_bytes {
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
        entries.push((k, v, estimated_size(v, &mut budget, 0).saturating_add(1)));
    }
    if entries.len() < 2 {
        return None;
    }
    if opts.sort_keys {
        sort_like_python(&mut entries, |e| e.0);
    }
    // Split where about half the nodes are written.
    // Guesses saturate (a long list's first item may be a long list…).
    let total = sum(entries.iter().map(|e| e.2));
    let mut acc = 0usize;
    let cut = entries
        .iter()
        .position(|e| {
            acc = acc.saturating_add(e.2);
            acc.saturating_mul(2) >= total
        })?
        .min(entries.len() - 2)
        + 1;
    let (first, rest) = entries.split_at(cut);
    let rest_nodes = sum(rest.iter().map(|e| e.2));
    let rest_share = capacity.saturating_mul(rest_nodes) / total;
    let part = |es: &[(&Node, &Node, usize)]| {
        let mut m = Entries::with_capacity(es.len());
        for &(k, v, _) in es {
            m.insert(Key(k.clone()), v.clone());
        }
        let own = es.iter().filter(|e| aliasable(e.1.value())).count();
        (Node::new(Value::Map(Map::new(m)), node.span()), own)
    };
    let ((a, a_own), (b, b_own)) = (part(first), part(rest));
    // The second half on the other thread: its own copy of the options, so
    // the job owns all it uses. Whoever comes to it first writes it.
    let own_opts = opts.clone();
    let (second, job) = Offload::new(move || write(&b, b_own, &own_opts, "", rest_share));
    let unstarted = match aside {
        Some(runner) => runner.run_aside(job).err(),
        None => Some(job),
    };
    let (head, tail) = match unstarted {
        None => {
            let head = write(&a, a_own, opts, prefix, capacity);
            (head, second.result()?)
        }
        // No thread running: start one for this document.
        Some(job) => std::thread::scope(|scope| {
            let other = std::thread::Builder::new()
                .name("cloudfold-dump".into())
                .spawn_scoped(scope, job)
                .ok()?;
            let head = write(&a, a_own, opts, prefix, capacity);
            let tail = second.result()?;
            other.join().ok()?;
            Some((head, tail))
        })?,
    };
    let mut text = head?;
    let tail = tail?;
    // Each half is a whole document: `---` ... `...`.
    let body = tail.strip_prefix(START)?;
    if !text.ends_with(&format!("\n{END}")) || !text.get(prefix.len()..)?.starts_with(START) {
        return None;
    }
    text.truncate(text.len() - END.len());
    text.push_str(body);
    (text.len() - prefix.len() <= opts.max_output_bytes).then_some(text)
}

/// One half, in one walk: it holds no recurring object and shares none
/// with the other half when the only aliasable objects referred to twice
/// that it meets are its `own` top-level values (held by the half too).
fn write(
    node: &Node,
    own: usize,
    opts: &DumpOptions,
    prefix: &str,
    capacity: usize,
) -> Option<String> {
    let mut tree = ValueTree::new(node, opts, &[]);
    let text = document_emitter::emit(&mut tree, opts, prefix, capacity).ok()?;
    (!tree.failed() && tree.recurring().is_none() && tree.shared_met() == own).then_some(text)
}

/// Nodes [`estimated_size`] may read for one document.
const SIZE_BUDGET: usize = 4096;

/// Levels [`estimated_size`] descends.
const SIZE_DEPTH: usize = 32;

/// Collection items [`estimated_size`] reads before it scales up.
const SAMPLE: usize = 8;

/// About how many nodes lie under `node` (itself included), to cut the
/// document where half are written: a collection's first [`SAMPLE`]
/// items, scaled to its length (lists of a merged cloud-config repeat
/// their shape); `budget` bounds the nodes read, and [`SIZE_DEPTH`] the
/// recursion, beyond which a node counts as one.
fn estimated_size(node: &Node, budget: &mut usize, depth: usize) -> usize {
    if *budget == 0 || depth >= SIZE_DEPTH {
        return 1;
    }
    *budget -= 1;
    let depth = depth + 1;
    let (len, sampled) = match node.value() {
        Value::Map(m) | Value::Set(m) => (
            m.len(),
            sum(m.iter().take(SAMPLE).map(|(k, v)| {
                estimated_size(k, budget, depth).saturating_add(estimated_size(v, budget, depth))
            })),
        ),
        Value::Seq(s) | Value::Tuple(s) => (
            s.len(),
            sum(s
                .iter()
                .take(SAMPLE)
                .map(|x| estimated_size(x, budget, depth))),
        ),
        _ => return 1,
    };
    (sampled.saturating_mul(len) / len.clamp(1, SAMPLE)).saturating_add(1)
}

/// A sum that stops at `usize::MAX`.
fn sum(sizes: impl Iterator<Item = usize>) -> usize {
    sizes.fold(0, usize::saturating_add)
}
