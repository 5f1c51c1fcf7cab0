//! The loader's entry points, and which of its three readers runs when.
//!
//! # The readers
//!
//! One document's text becomes a [`Node`] tree in one of three ways. The node
//! graph is the reference; the other two are shortcuts that either build
//! exactly what it builds (the same values, spans — PyYAML's event marks — and
//! sharing: one node per anchor) or decline (`None`), and then the caller
//! starts again from the text with the next reader. They never report an
//! error: every error comes from the node graph.
//!
//! 1. **Fast loader** ([`fast_loader::load_fast`]): text straight to values,
//!    no tokens or events. It takes printable ASCII with `\n` line breaks
//!    only (no tab, CR, BOM or non-ASCII byte), made of block mappings and
//!    sequences (indentless and compact `- key: value` ones too), one-line
//!    plain and quoted scalars, literal and folded block scalars, one-line
//!    flow collections up to 64 deep, anchors on values, aliases, `<<` merges
//!    and comments. It declines on anything else: directives, `---`/`...`,
//!    tags, `?` or multi-line keys, keys over 1000 bytes, multi-line plain,
//!    quoted or flow scalars, and whatever PyYAML would reject. It drives the
//!    direct builder's `Builder`, so it also declines wherever that does.
//! 2. **Direct builder** ([`direct_builder::build_direct`]): [`Parser`] events
//!    straight to values, depth first, with no node graph. It declines on a
//!    parse error (the parser's `Err` ends its event stream), on any tag
//!    (`!!str` and local `!name` included), a plain `=`, a surrogate-holding
//!    scalar that is not a `str`, a scalar whose constructor fails
//!    (`2001-02-30`) or over [`LoadOptions::max_scalar_size`], an undefined or
//!    recursive alias (to a collection still open), a duplicate anchor, an
//!    unhashable key, a `<<` that is anchored, not a key, or whose value is
//!    not a mapping or a list of mappings, a merge from a mapping with
//!    duplicate keys (PyYAML's merge list is then longer than its entries) or
//!    past [`LoadOptions::max_merge_entries`], nesting within
//!    ⌈`caller_frames` / 2⌉ + 1 levels of [`LoadOptions::max_depth`], and
//!    more than one document.
//! 3. **Node graph** ([`load_via_graph`]): the composer's node arena
//!    (`compose`: anchors, aliases, recursion, tag resolution, duplicate
//!    anchors, the depth and scalar-size limits) then the constructor
//!    (`construct`: breadth first, as PyYAML's generator queue, so the same
//!    error wins). PyYAML's own shape, and the only reader of: every error
//!    (reader, scanner, parser, composer, constructor, `RecursionError`,
//!    limits), explicit tags (`!!binary`, `!!set`, `!!omap`, `!!pairs`,
//!    `!!timestamp`, `!!python/unicode` under
//!    [`LoadOptions::python_unicode_tag`], ...), recursive structures, merges
//!    the direct builder cannot count, deep nesting, and local tags
//!    ([`load_tagged`]).
//!
//! Why three: each shortcut saves far more than the 5 % of `render` that
//! would justify one reader (paired A/B, `benches/README.md`, "the YAML
//! readers"): without the fast loader `render` of the 5000-part payload takes
//! ~1.9× the CPU; without the direct builder, documents outside the fast
//! subset take ~15 % more.
//!
//! # Entry points and who calls them
//!
//! - [`load`] (`yaml.safe_load` of a `str`): fast loader, then direct builder,
//!   then node graph. Cloud-config parts (`userdata::yaml_text::load_str_in`
//!   and `load_py_text*`, from the cloud-config handler, the archive processor,
//!   the [`crate::userdata`] preloader's helper thread, the validator's and
//!   `diff`'s re-reads of each part), the layers' config files and datasource
//!   documents (`layers::read_conf`, `layers::boot`), the validator's boot-plan
//!   checks (`validate::plan_check`: an image profile's `cloud.cfg`). A Python string with surrogates is checked
//!   (`check_printable`) and loaded as a lossy copy, still through [`load`].
//! - [`load_bytes`] (`yaml.safe_load` of `bytes`): PyYAML's encoding detection
//!   and decoding errors ([`decode_input`]), then [`load`]. NoCloud seed files
//!   (`seed::meta_data`, `seed::network_config`) and the CLI's manifests.
//! - [`load_tagged`]: fast loader, then direct builder (both decline on any
//!   tag, so what they build has none to keep), then the node graph keeping
//!   local tags ([`LoadOptions::keep_local_tags`]). The merge dialects' layers
//!   (`merge::dialect::layer`: Hiera, Compose, Nickel, keyed), whose files
//!   annotate values with `!reset`, `!override`, `!priority:10`.
//! - [`load_events`]: the node graph on a caller's event stream (the
//!   throughput example times the constructor alone with it).
//! - [`load_via_graph`], [`load_fast`], [`load_direct`] (hidden): each reader
//!   alone, for the tests. `tests/support/yaml_readers.rs` holds them equal
//!   on every text the tests load (the repository's fixtures, the corpora
//!   under `../shared`, the generated and differential documents).
//!
//! The emitter never reads: that its output loads back to an equal value is
//! checked by the dump tests (`yaml_dump_split`, the `yaml_dump` oracle),
//! through [`load`].

use super::composer::compose;
use super::constructor::{construct, construct_tagged};
use super::direct_builder::build_direct;
use super::error::YamlError;
use super::event::Event;
use super::fast_loader;
use super::load_options::LoadOptions;
use super::parser::Parser;
use super::reader::decode_input;
use super::tag_map::TagMap;
use super::value::Node;

/// Compose and construct the single document of an event stream, as
/// `yaml.safe_load` does after parsing; `None` for an empty stream.
pub fn load_events<'a>(
    next: impl FnMut() -> Result<Event<'a>, YamlError>,
    opts: &LoadOptions,
) -> Result<Option<Node>, YamlError> {
    compose_and_construct(next, opts, 0)
}

fn compose_and_construct<'a>(
    next: impl FnMut() -> Result<Event<'a>, YamlError>,
    opts: &LoadOptions,
    size_hint: usize,
) -> Result<Option<Node>, YamlError> {
    match compose(next, opts, size_hint)? {
        None => Ok(None),
        Some(doc) => construct(doc, opts).map(Some),
    }
}

/// `yaml.safe_load(text)`: the value of the single document in `text`
/// (`None` for an empty stream), or PyYAML's error.
pub fn load(text: &str, opts: &LoadOptions) -> Result<Option<Node>, YamlError> {
    // Most documents are in the fast loader's subset; most others build
    // directly from events; the rest (and every error) go through composer
    // and constructor, which decide as PyYAML does.
    if let Some(built) = fast_loader::load_fast(text, opts) {
        return Ok(built);
    }
    if let Some(built) = load_direct(text, opts) {
        return Ok(built);
    }
    load_via_graph(text, opts)
}

/// The fast loader alone: `None` when the text is outside its subset (then
/// [`load`] uses the other pipelines). For the tests, which compare it with
/// [`load_via_graph`] node for node.
#[doc(hidden)]
pub fn load_fast(text: &str, opts: &LoadOptions) -> Option<Option<Node>> {
    fast_loader::load_fast(text, opts)
}

/// The direct builder alone, as [`load`] runs it: `None` when it declines.
/// For the tests, which compare it with [`load_via_graph`] node for node.
#[doc(hidden)]
pub fn load_direct(text: &str, opts: &LoadOptions) -> Option<Option<Node>> {
    let mut parser = Parser::new(text);
    build_direct(|| parser.next_event().ok(), opts)
}

/// [`load`] always through the composer's node graph and the constructor
/// (never the direct builder): the reference the tests compare [`load`]
/// against, node for node (values, spans, sharing).
#[doc(hidden)]
pub fn load_via_graph(text: &str, opts: &LoadOptions) -> Result<Option<Node>, YamlError> {
    let mut parser = Parser::new(text);
    // Cloud-configs run about one node per 10 bytes; reserving more than is
    // used costs only address space, a regrowth copies the whole arena.
    let hint = (text.len() / 6).min(1 << 24);
    compose_and_construct(|| parser.next_event(), opts, hint)
}

/// `yaml.safe_load(bytes)`: PyYAML's encoding detection (BOMs, UTF-8/16)
/// and decoding errors, then [`load`].
pub fn load_bytes(bytes: &[u8], opts: &LoadOptions) -> Result<Option<Node>, YamlError> {
    let text = decode_input(bytes)?;
    load(&text, opts)
}

/// [`load`] keeping local tags: with [`LoadOptions::keep_local_tags`] set,
/// `!reset`/`!priority:10`/any `!name` node is built as if untagged and its
/// tag is returned in the [`TagMap`]. Used by the merge dialects, whose files
/// annotate values with such tags; cloud-init's loading never keeps them.
pub fn load_tagged(text: &str, opts: &LoadOptions) -> Result<Option<(Node, TagMap)>, YamlError> {
    // The shortcuts decline on any tag, so what they build carries none: a
    // huge untagged layer skips the node graph (its arena was the fresh
    // memory that made a merge of one huge list grow faster than its input).
    if let Some(built) = fast_loader::load_fast(text, opts) {
        return Ok(built.map(|root| (root, TagMap::default())));
    }
    if let Some(built) = load_direct(text, opts) {
        return Ok(built.map(|root| (root, TagMap::default())));
    }
    load_tagged_via_graph(text, opts)
}

/// [`load_tagged`] always through the node graph: the reference the tests
/// compare it against.
#[doc(hidden)]
pub fn load_tagged_via_graph(
    text: &str,
    opts: &LoadOptions,
) -> Result<Option<(Node, TagMap)>, YamlError> {
    let mut parser = Parser::new(text);
    let hint = (text.len() / 6).min(1 << 24);
    match compose(|| parser.next_event(), opts, hint)? {
        None => Ok(None),
        Some(doc) => construct_tagged(doc, opts).map(Some),
    }
}
