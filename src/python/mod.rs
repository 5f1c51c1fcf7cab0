//! Python emulation, each helper defined once: CPython 3.11's `str` predicates and case methods, `re` classes, `repr`, `int()` and `json` text.
//!
//! cloud-init runs on CPython 3.11 (Debian bookworm's, and the oracle's); the
//! tables here are that interpreter's (`tests/oracle/python_tables.rs` compares
//! them with it). A leaf stage like `source`: every other stage may use it.

mod case;
mod case_table;
mod char_class;
mod code_point_ranges;
mod float_repr;
mod int_text;
mod json_text;
mod printable;
mod printable_table;
mod raw_unicode_escape;
mod re_class;
mod repr;
mod space;
mod splitlines;
mod word_table;

pub use case::{
    py_capitalize, py_casefold, py_eq_lower, py_istitle, py_islower, py_isupper, py_lower,
    py_swapcase, py_title, py_upper,
};
pub use char_class::{py_isalnum, py_isalpha, py_isdecimal, py_isdigit, py_isnumeric};
pub use float_repr::py_float_repr;
pub(crate) use code_point_ranges::range_of;
pub(crate) use int_text::{IntTextError, py_int_big, py_int_text};
pub(crate) use json_text::{py_json_float, py_json_str_unit};
pub use raw_unicode_escape::raw_unicode_escape;
pub(crate) use re_class::{PyReClass, py_re_class, py_re_ignorecase};
pub(crate) use repr::{py_repr_bytes, py_repr_char, py_repr_code_points, py_repr_str};
pub use space::py_is_space;
pub(crate) use space::{py_lstrip_code_points, py_rstrip, py_strip};
pub use splitlines::py_splitlines;
pub(crate) use splitlines::py_splitlines_keep;
