//! YAML 1.1 as PyYAML's `SafeLoader` reads it and its `SafeDumper` writes it.
//!
//! Pipeline: bytes → reader (decoding, printable check) → scanner (tokens) →
//! parser ([`Event`]s) → composer (shared nodes, aliases) → resolver and
//! constructor ([`Node`] tree of Python values). The emitter goes back.

mod emitter;
mod error;
mod event;
pub mod typed_json;
pub mod value;

pub use emitter::{DumpError, DumpOptions, dump};
pub use error::{PyErrorClass, YamlError};
pub use event::{Event, EventKind, Props, ScalarStyle, ScalarText};
pub use value::{Node, Value};
