//! `filter_launch_index`: cloud-init's launch-index filter over processed parts.

use super::leaf::{HeaderValue, Leaf};
use super::py_int::int_from_str;
use crate::yaml::value::Int;

/// Keep the parts meant for instance `wanted`: parts without a `Launch-Index`
/// header, and parts whose first such header is an integer equal to it. A
/// header that is not an integer never matches. `None` keeps everything.
pub fn filter_launch_index(leaves: Vec<Leaf>, wanted: Option<i64>) -> (Vec<Leaf>, Vec<Leaf>) {
    let Some(wanted) = wanted else {
        return (leaves, Vec::new());
    };
    leaves.into_iter().partition(|leaf| selects(leaf, wanted))
}

/// The filter's `_select`: no `Launch-Index` header, or its first one is the
/// integer `wanted`.
pub fn selects(leaf: &Leaf, wanted: i64) -> bool {
    match leaf.get("Launch-Index") {
        None => true,
        Some(v) => header_int(v) == Some(Int::Small(wanted)),
    }
}

/// `int(header)` for a `Launch-Index` header value.
pub(super) fn header_int(v: &HeaderValue) -> Option<Int> {
    int_from_str(&v.to_py_str().to_string_lossy())
}
