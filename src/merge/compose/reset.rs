//! `apply_resets`: the paths a file tags `!reset`, removed from the model merged so far (compose-go's `ResetProcessor.Apply`).

use super::compose_path::{ComposePath, key_text};
use super::node_build::map_of;
use crate::yaml::value::{Entries, Node, insert};

/// `acc` without the mapping entries at `resets`. Only mappings are
/// entered: compose-go names sequence items `[i]` here, which a file's
/// tag path (`ports.0`) never matches. Taken by value: without resets the
/// model comes back as it was, still unshared, so the merge that follows
/// can extend it in place.
pub fn apply_resets(acc: Node, resets: &[ComposePath]) -> Node {
    if resets.is_empty() {
        return acc;
    }
    let mut prefix = Vec::new();
    walk(&acc, resets, &mut prefix)
}

fn walk(node: &Node, resets: &[ComposePath], prefix: &mut Vec<String>) -> Node {
    let Some(m) = node.as_map() else {
        return node.clone();
    };
    let mut e = Entries::with_capacity(m.len());
    for (k, v) in m.iter() {
        prefix.push(key_text(k));
        let exact = resets.iter().any(|r| r.0 == *prefix);
        let below = resets
            .iter()
            .any(|r| r.0.len() > prefix.len() && r.0.starts_with(prefix));
        if !exact {
            let nv = if below {
                walk(v, resets, prefix)
            } else {
                v.clone()
            };
            insert(&mut e, k.clone(), nv);
        }
        prefix.pop();
    }
    map_of(e, node.span())
}
