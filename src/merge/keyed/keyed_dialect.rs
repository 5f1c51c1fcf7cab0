//! [`merge`]: the keyed dialect behind `cloudfold merge --dialect cloud-config` — fragments in, one cloud-config and diagnostics out.

use super::merge_fragments;
use crate::merge::NoObserver;
use crate::merge::dialect::{DialectOutcome, Layer};
use crate::merge::nickel::{LayerTags, layer_name};
use crate::source::{Mark, Span};
use crate::yaml::value::{Entries, Map, Node, Value};

/// Merge cloud-config fragments: lists of objects by identity key,
/// conflicts are errors unless a tag settles them. An empty file is an
/// empty fragment.
pub fn merge(layers: &[Layer]) -> DialectOutcome {
    let roots: Vec<Node> = layers
        .iter()
        .map(|l| {
            if l.root.is_null() && l.tags.is_empty() {
                let at = Span::new(l.source, Mark::default(), Mark::default());
                Node::new(Value::Map(Map::new(Entries::default())), at)
            } else {
                l.root.clone()
            }
        })
        .collect();
    match merge_fragments(&roots, &LayerTags::new(layers), &mut NoObserver) {
        Ok(n) => DialectOutcome::merged(n),
        Err(e) => DialectOutcome::failed(vec![e.to_diagnostic(
            &|id| layer_name(layers, id),
            "tag one with !force, !default, !priority:N, !override or !reset to settle it",
        )]),
    }
}
