//! YAML 1.1 as PyYAML's `SafeLoader` reads it and its `SafeDumper` writes it.
//!
//! Pipeline: bytes → reader (decoding, printable check) → scanner (tokens) →
//! parser ([`Event`]s) → composer (shared nodes, aliases) → resolver and
//! constructor ([`Node`] tree of Python values). The emitter goes back.

mod composer;
mod constructor;
mod direct_builder;
mod emitter;
mod error;
mod event;
mod fast_loader;
mod load;
mod load_options;
mod parser;
mod reader;
mod resolver;
mod scalar;
mod scanner;
mod tag;
mod tag_map;
mod timestamp_fields;
mod token;
pub mod typed_json;
pub mod value;

pub use emitter::{
    AsideJob, DumpError, DumpOptions, RunAside, dump, dump_after, dump_after_aside,
    dump_after_split, dump_via_graph,
};
pub use error::{PyErrorClass, YamlError};
pub use event::{Event, EventKind, Props, ScalarStyle, ScalarText};
pub use load::{load, load_bytes, load_events, load_fast, load_tagged, load_via_graph};
pub use load_options::{LoadOptions, PYYAML_MAX_DEPTH};
pub use parser::Parser;
pub use reader::{check_printable, check_printable_py, decode_input};
pub use tag_map::{LocalTag, TagMap};
pub use value::{Node, Value};

/// Whether the readable dumper writes this string as itself, plain, on one
/// line (inside a block list): a conservative test — ASCII letters, digits
/// and `_ . / - = +` and inner spaces, starting with a letter, digit, `_`
/// or `/`, ending with no space, and resolving to a string when read back.
/// A string it refuses may still be written plain; the callers then dump.
pub(crate) fn writes_as_itself(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    (first.is_ascii_alphanumeric() || first == b'_' || first == b'/')
        && last != b' '
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || b"_./-=+ ".contains(&c))
        && resolver::resolve_plain(s) == tag::Tag::Str
}
