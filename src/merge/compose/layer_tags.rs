//! `LayerTags`: a file's `!reset` and `!override` tags, resolved as compose-go reads them.
//!
//! compose-go handles the tags while decoding a file: a `!reset` node is
//! removed from the file and its path recorded; an `!override` node stays
//! (a scalar becomes the string it was written as: `!override true` is
//! `"true"`) and its path is recorded too. Before the file is merged, the
//! recorded paths are removed from the model merged so far ([`super::reset`]);
//! paths count sequence items by number, which never matches the merged
//! model's `[i]`, so a tagged sequence item only affects its own file.

use super::compose_path::{ComposePath, key_text};
use super::node_build::{map_of, seq, text};
use crate::yaml::TagMap;
use crate::yaml::value::{Entries, Node, Value, insert};

/// The tags of one file.
#[derive(Clone, Debug, Default)]
pub struct LayerTags {
    /// Paths of `!reset` values (removed from the merged model).
    pub resets: Vec<ComposePath>,
    /// Paths of `!override` values (replace instead of merging).
    pub overrides: Vec<ComposePath>,
}

/// Deepest nesting walked (the loader already stops at 491).
const MAX_DEPTH: usize = 1000;

/// `root` without its `!reset` nodes and with `!override` scalars as
/// strings, and the tagged paths.
pub fn resolve_tags(root: &Node, tags: &TagMap) -> (Node, LayerTags) {
    let mut out = LayerTags::default();
    if tags.is_empty() {
        return (root.clone(), out);
    }
    let mut path = Vec::new();
    let node = walk(root, tags, &mut path, &mut out, 0);
    (node, out)
}

fn tag_of<'a>(tags: &'a TagMap, node: &Node) -> Option<&'a str> {
    tags.tag(node)
}

/// A tagged scalar as the text it was written with (YAML decoding gives
/// compose-go a string for any scalar with a local tag); inside an
/// `!override` value, every tagged scalar below too (tags there are not
/// processed further: a nested `!reset` stays, as its text).
fn overridden(node: &Node, tags: &TagMap, depth: usize) -> Node {
    if depth > MAX_DEPTH {
        return node.clone();
    }
    match node.value() {
        Value::Map(m) => {
            let mut e = Entries::with_capacity(m.len());
            for (k, v) in m.iter() {
                insert(&mut e, k.clone(), overridden(v, tags, depth + 1));
            }
            map_of(e, node.span())
        }
        Value::Seq(items) => seq(
            items
                .iter()
                .map(|i| overridden(i, tags, depth + 1))
                .collect(),
            node.span(),
        ),
        _ => match tags.get(node).and_then(|t| t.scalar_text.as_deref()) {
            Some(t) => text(t, node.span()),
            None => node.clone(),
        },
    }
}

fn walk(
    node: &Node,
    tags: &TagMap,
    path: &mut Vec<String>,
    out: &mut LayerTags,
    depth: usize,
) -> Node {
    if depth > MAX_DEPTH {
        return node.clone();
    }
    match node.value() {
        Value::Map(m) => {
            let mut e = Entries::with_capacity(m.len());
            for (k, v) in m.iter() {
                path.push(key_text(k));
                match tag_of(tags, v) {
                    Some("!reset") => out.resets.push(ComposePath(path.clone())),
                    Some("!override") => {
                        out.overrides.push(ComposePath(path.clone()));
                        insert(&mut e, k.clone(), overridden(v, tags, depth + 1));
                    }
                    Some(_) if !matches!(v.value(), Value::Map(_) | Value::Seq(_)) => {
                        insert(&mut e, k.clone(), overridden(v, tags, depth + 1));
                    }
                    _ => {
                        let nv = walk(v, tags, path, out, depth + 1);
                        insert(&mut e, k.clone(), nv);
                    }
                }
                path.pop();
            }
            map_of(e, node.span())
        }
        Value::Seq(items) => {
            let mut kept = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                match tag_of(tags, item) {
                    Some("!reset") => {}
                    Some("!override") => kept.push(overridden(item, tags, depth + 1)),
                    Some(_) if !matches!(item.value(), Value::Map(_) | Value::Seq(_)) => {
                        kept.push(overridden(item, tags, depth + 1))
                    }
                    _ => kept.push(walk(item, tags, path, out, depth + 1)),
                }
                path.pop();
            }
            seq(kept, node.span())
        }
        _ => node.clone(),
    }
}
