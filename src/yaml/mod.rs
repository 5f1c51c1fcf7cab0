//! YAML 1.1 as PyYAML's `SafeLoader` reads it and its `SafeDumper` writes it.
//!
//! Pipeline: bytes → reader (decoding, printable check) → scanner (tokens) →
//! parser ([`Event`]s) → composer (shared nodes, aliases) → resolver and
//! constructor ([`Node`] tree of Python values). The emitter goes back.

mod composer;
mod constructor;
mod error;
mod event;
mod load;
mod load_options;
mod py_str_repr;
mod resolver;
mod scalar;
mod tag;
mod timestamp_fields;
pub mod typed_json;
pub mod value;

pub use error::{PyErrorClass, YamlError};
pub use event::{Event, EventKind, Props, ScalarStyle, ScalarText};
pub use load::load_events;
pub use load_options::{LoadOptions, PYYAML_MAX_DEPTH};
pub use value::{Node, Value};
