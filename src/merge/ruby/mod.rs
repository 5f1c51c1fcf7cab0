//! Ruby emulation, each helper defined once: what Hiera (Puppet's `lookup`, on Ruby) does with values — `to_s`/`inspect`, `strip`, `<=>` and `sort!`, `eql?`/`hash`, `Regexp`.
//!
//! Python's emulation is the leaf `crate::python`, below the value model; Ruby
//! is emulated only for Hiera, on loaded values (`Node`) and with merge's
//! error types, so its home is here, inside the merge stage that Hiera is a
//! dialect of. Nothing outside `merge` needs it.

mod print_table;
mod ruby_regexp;
mod sort_order;
mod strict_eq;
mod strip;
mod to_s;

pub use ruby_regexp::RubyRegexp;
pub use sort_order::{ruby_class, ruby_cmp, ruby_sort};
pub use strict_eq::{strict_eq, strict_hash, strict_union};
pub(crate) use strip::{ruby_space, ruby_strip};
pub use to_s::{ruby_inspect_str, ruby_to_s};
