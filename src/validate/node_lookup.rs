//! `find_by_path`: the node at a logical path (`$.runcmd[2]`) of a value tree.

use crate::merge::PathSeg;
use crate::yaml::Node;
use crate::yaml::value::Value;

/// The node at `path` (written as [`crate::merge::Path`] writes it) under `root`.
/// Walks at most 100,000 nodes, so a hostile tree cannot make it slow.
pub fn find_by_path(root: &Node, path: &str) -> Option<Node> {
    let rest = path.strip_prefix('$')?;
    let mut budget = 100_000usize;
    walk(root, rest, &mut budget)
}

fn walk(node: &Node, rest: &str, budget: &mut usize) -> Option<Node> {
    if rest.is_empty() {
        return Some(node.clone());
    }
    *budget = budget.checked_sub(1)?;
    match node.value() {
        Value::Map(m) => m.iter().find_map(|(k, v)| {
            let seg = PathSeg::Key(k.clone()).to_string();
            rest.strip_prefix(seg.as_str())
                .and_then(|r| walk(v, r, budget))
        }),
        Value::Seq(s) | Value::Tuple(s) => s.iter().enumerate().find_map(|(i, v)| {
            let seg = PathSeg::Index(i).to_string();
            rest.strip_prefix(seg.as_str())
                .and_then(|r| walk(v, r, budget))
        }),
        _ => None,
    }
}
