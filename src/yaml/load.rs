//! The loader's entry points: text or bytes (or events) to one document's value.

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
    let mut parser = Parser::new(text);
    if let Some(built) = build_direct(|| parser.next_event().ok(), opts) {
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
    let mut parser = Parser::new(text);
    let hint = (text.len() / 6).min(1 << 24);
    match compose(|| parser.next_event(), opts, hint)? {
        None => Ok(None),
        Some(doc) => construct_tagged(doc, opts).map(Some),
    }
}
