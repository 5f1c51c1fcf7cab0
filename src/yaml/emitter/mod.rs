//! The emitter: a value tree back to YAML text, as PyYAML's `SafeDumper` writes it.
//!
//! [`document_emitter`] writes a [`tree::Tree`]. [`dump`] gives it the values
//! themselves ([`value_tree`]: one walk, keys sorted as each mapping is
//! opened, anchors spliced in at an object's first occurrence when it
//! recurs); [`dump_via_graph`] gives it the representation graph that
//! [`representer`] builds first (PyYAML's two passes; the reference, and the
//! fallback that decides errors). Neither recurses: depth is limited only by
//! `DumpOptions::max_depth` (default 10,000, a clean [`DumpError::TooDeep`];
//! PyYAML itself fails with `RecursionError` much earlier), output size by
//! `DumpOptions::max_output_bytes`.
//!
//! A large document whose top level is a mapping is written on two threads
//! ([`split_dump`]: half the keys each, joined at the document markers) when
//! nothing ties the halves together; the tests compare it with one thread.
//!
//! Known differences from PyYAML (checked against 6.0.3 by
//! `tests/oracle/yaml_dump.rs`):
//! * a `set` whose items Python cannot sort is written in our insertion
//!   order; Python writes its hash order, which a value model cannot know;
//! * mapping keys that include NaN and more than 63 keys: the order Python's
//!   sort leaves such keys in is reproduced for up to 63 keys only (CPython's
//!   binary insertion sort); beyond, keys sort as a merge sort leaves them;
//! * the readable preset deliberately escapes U+0085 and writes lists of
//!   2-tuples as `!!pairs` (see [`DumpOptions`]); a tuple anywhere else (not
//!   something the loader makes) is written as a list, as PyYAML does.

mod analysis_cache;
mod document_emitter;
mod dump_error;
mod dump_options;
mod dump_text;
mod implicit_resolver;
mod output;
mod py_order;
mod repr_graph;
mod representer;
mod scalar_analysis;
mod scalar_text;
mod scalar_writer;
mod split_dump;
mod text_unit;
mod tree;
mod value_tree;

pub use crate::run_aside::{AsideJob, RunAside};
pub use dump_error::DumpError;
pub use dump_options::DumpOptions;
pub(crate) use dump_text::{DumpText, Keep};
pub(crate) use scalar_analysis::{plain_safe_ends, plain_safe_printable, plain_safe_str};

use crate::yaml::value::Node;
use tree::Tree;

/// Walks of the value tree that may find a recurring object before the
/// two-pass path is taken instead.
const MAX_REWALKS: usize = 3;

/// Write `node` as one YAML document.
///
/// With [`DumpOptions::cloud_init`] the text is byte-identical to cloud-init's
/// `safeyaml.dumps(node)`; with [`DumpOptions::readable`] it is block YAML
/// that `yaml.safe_load` reads back to an equal value.
pub fn dump(node: &Node, opts: &DumpOptions) -> Result<String, DumpError> {
    dump_after("", node, opts, 0)
}

/// [`dump`], the document written after `prefix` in one string; `capacity`
/// is a guess at the document's size (reserved up front, so a large
/// document is neither regrown nor copied once more behind a header).
pub fn dump_after(
    prefix: &str,
    node: &Node,
    opts: &DumpOptions,
    capacity: usize,
) -> Result<String, DumpError> {
    dump_after_aside(prefix, node, opts, capacity, None)
}

/// Size of the pieces [`DumpOptions::dump_pieces`] writes.
const PIECE_BYTES: usize = 256 << 10;

impl DumpOptions {
    /// [`dump_after`] with no prefix, the text in pieces of about 256 KB
    /// that follow one another: a large document is never one block (its
    /// pieces fit into memory the caller freed before, such as the input's).
    /// The whole document is written before this returns (on one thread),
    /// so an error leaves no partial text.
    pub fn dump_pieces(&self, node: &Node) -> Result<Vec<String>, DumpError> {
        dump_text("", node, self, 0, None, Keep::Pieces(PIECE_BYTES)).map(|t| t.pieces)
    }
}

/// [`dump_after`]; a large document's second half is written by `aside`
/// (a thread already running), else by a thread of its own.
pub fn dump_after_aside(
    prefix: &str,
    node: &Node,
    opts: &DumpOptions,
    capacity: usize,
    aside: Option<&dyn RunAside>,
) -> Result<String, DumpError> {
    dump_text(prefix, node, opts, capacity, aside, Keep::Whole).map(DumpText::into_string)
}

/// [`dump_after_aside`], the text kept as `keep` says.
pub(crate) fn dump_text(
    prefix: &str,
    node: &Node,
    opts: &DumpOptions,
    capacity: usize,
    aside: Option<&dyn RunAside>,
    keep: Keep,
) -> Result<DumpText, DumpError> {
    // A large mapping is written on two threads, half its keys each.
    if let Some(text) = split_dump::dump_split(
        prefix,
        node,
        opts,
        capacity,
        split_dump::MIN_SPLIT_BYTES,
        aside,
        keep,
    ) {
        return Ok(text);
    }
    // One walk over the values; an object found to recur has its first
    // occurrence written again with an anchor. When that cannot be done
    // in place, the walk starts again knowing it (a few times at most);
    // then, or on any error, the two passes decide.
    let mut known = Vec::new();
    for _ in 0..=MAX_REWALKS {
        let mut tree = value_tree::ValueTree::new(node, opts, &known);
        let text = document_emitter::emit(&mut tree, opts, prefix, capacity, keep);
        match (text, tree.recurring()) {
            (Ok(text), None) if !tree.failed() => return Ok(text),
            (_, Some(more)) => known = more,
            _ => break,
        }
    }
    let mut graph = representer::represent(node, opts)?;
    document_emitter::emit(&mut graph, opts, prefix, capacity, keep)
}

/// [`dump_after`] with the top-level mapping written on two threads whatever
/// its size (the second half handed to `aside`, else to a thread of its
/// own); `None` where [`dump_after`] would use one thread anyway (for the
/// tests, which compare the two).
#[doc(hidden)]
pub fn dump_after_split(
    prefix: &str,
    node: &Node,
    opts: &DumpOptions,
    aside: Option<&dyn RunAside>,
) -> Option<String> {
    split_dump::dump_split(prefix, node, opts, 0, 0, aside, Keep::Whole).map(DumpText::into_string)
}

/// [`dump_after_aside`] in pieces of about `piece` bytes (`split`: on two
/// threads whatever its size, `None` where it would use one); for the
/// tests, which compare them with the text written whole.
#[doc(hidden)]
pub fn dump_after_pieces(
    prefix: &str,
    node: &Node,
    opts: &DumpOptions,
    piece: usize,
    split: bool,
) -> Option<Result<Vec<String>, DumpError>> {
    let keep = Keep::Pieces(piece);
    let text = if split {
        Ok(split_dump::dump_split(
            prefix, node, opts, 0, 0, None, keep,
        )?)
    } else {
        dump_text(prefix, node, opts, 0, None, keep)
    };
    Some(text.map(|t| t.pieces))
}

/// [`dump`] through the representation graph only (the reference the
/// one-walk path is tested against).
#[doc(hidden)]
pub fn dump_via_graph(node: &Node, opts: &DumpOptions) -> Result<String, DumpError> {
    let mut graph = representer::represent(node, opts)?;
    document_emitter::emit(&mut graph, opts, "", 0, Keep::Whole).map(DumpText::into_string)
}
