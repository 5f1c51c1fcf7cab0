//! The loader's entry points: text or bytes (or events) to one document's value.

use super::composer::compose;
use super::constructor::construct;
use super::error::YamlError;
use super::event::Event;
use super::load_options::LoadOptions;
use super::value::Node;

/// Compose and construct the single document of an event stream, as
/// `yaml.safe_load` does after parsing; `None` for an empty stream.
pub fn load_events<'a>(
    next: impl FnMut() -> Result<Event<'a>, YamlError>,
    opts: &LoadOptions,
) -> Result<Option<Node>, YamlError> {
    match compose(next, opts)? {
        None => Ok(None),
        Some(doc) => construct(doc, opts).map(Some),
    }
}
