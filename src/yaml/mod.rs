//! YAML 1.1 as PyYAML's `SafeLoader` reads it and its `SafeDumper` writes it.
//!
//! Pipeline: bytes → reader (decoding, printable check) → scanner (tokens) →
//! parser ([`Event`]s) → composer (shared nodes, aliases) → resolver and
//! constructor ([`Node`] tree of Python values). The emitter goes back.

mod error;
mod event;
mod parser;
mod py_repr;
mod py_repr_table;
mod reader;
mod scanner;
mod token;
pub mod typed_json;
pub mod value;

pub use error::{PyErrorClass, YamlError};
pub use event::{Event, EventKind, Props, ScalarStyle, ScalarText};
pub use parser::Parser;
pub use reader::{check_printable, check_printable_py, decode_input};
pub use value::{Node, Value};
