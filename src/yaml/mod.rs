//! YAML 1.1 as PyYAML's `SafeLoader` reads it and its `SafeDumper` writes it.
//!
//! Pipeline: bytes → reader (decoding, printable check) → scanner (tokens) →
//! parser (`Event`s) → composer (shared nodes, aliases) → resolver and
//! constructor ([`Node`] tree of Python values). The emitter goes back.
//!
//! Two shortcuts skip the middle for most documents: the fast loader (text
//! to values) and the direct builder (events to values); `load.rs` says which
//! reader runs when.

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
internal! { mod typed_json; }
internal! { mod value; }

pub use emitter::{DumpError, DumpOptions, dump, dump_after};
internal! { use emitter::{AsideJob, RunAside, dump_after_aside, dump_after_pieces, dump_after_split, dump_via_graph}; }
pub(crate) use emitter::{DumpText, Keep, dump_text};
pub use error::PyErrorClass;
pub use error::YamlError;
internal! { use event::{Event, EventKind, Props, ScalarStyle, ScalarText}; }
pub use load::{load, load_bytes};
internal! { use load::{load_direct, load_events, load_fast, load_tagged, load_tagged_via_graph, load_via_graph}; }
pub use load_options::LoadOptions;
internal! { use load_options::PYYAML_MAX_DEPTH; }
internal! { use parser::Parser; }
internal! { use reader::{check_printable, check_printable_py, decode_input}; }
internal! { use tag_map::{LocalTag, TagMap}; }
pub use typed_json::{
    TypedJsonError, TypedJsonWriteError, WalkLimits, to_typed_json, to_typed_json_pretty,
    write_typed_json_pretty,
};
pub use value::{Map, Node, Value, insert, py_repr, py_str};

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
