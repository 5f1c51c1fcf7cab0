//! The value model: Python objects as PyYAML's SafeLoader builds them, with spans.

mod entries;
mod int;
mod map;
mod node;
mod py_repr;
mod py_str;
mod seq;
mod slot;
mod timestamp;

pub use crate::python::py_float_repr;
pub use entries::Entries;
pub use int::{Int, float_trunc_to_big};
pub use map::{Key, Map, insert, py_eq};
pub use node::{CANONICAL_NAN, Node, OTHER_NAN, Value};
pub use py_repr::{b64, py_repr, py_repr_json, py_str};
pub use py_str::{PyChars, PyStr, PyStrBuilder};
pub use seq::Seq;
pub use timestamp::{Date, DateTime};
