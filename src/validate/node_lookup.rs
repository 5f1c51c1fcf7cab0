//! `find_by_path`: the node at a logical path (`$.runcmd[2]`) of a value tree.

use crate::merge::PathQuery;
use crate::yaml::Node;

/// The node at `path` (written as [`crate::merge::Path`] writes it, or as
/// [`PathQuery`] reads it) under `root`.
pub fn find_by_path(root: &Node, path: &str) -> Option<Node> {
    path.parse::<PathQuery>().ok()?.find(root).ok()
}
