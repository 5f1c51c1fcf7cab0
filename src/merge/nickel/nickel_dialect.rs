//! [`merge`]: the `nickel` dialect behind `cloudfold merge --dialect nickel` — layers in, one document and diagnostics out.

use super::merge_layers;
use crate::merge::dialect::{DialectOutcome, Layer};
use crate::merge::{NoObserver, TagLookup};
use crate::source::SourceId;
use crate::yaml::value::Node;
use std::collections::HashMap;

/// The tags of all layers (each node belongs to exactly one), found by the
/// node's source: a fold asks for the tag of every value it merges, and a
/// scan of all layers per value made thousands of layers quadratic.
pub(crate) struct LayerTags<'a> {
    layers: &'a [Layer],
    by_source: HashMap<SourceId, Vec<usize>>,
}

impl<'a> LayerTags<'a> {
    /// The tags of `layers`.
    pub(crate) fn new(layers: &'a [Layer]) -> Self {
        let mut by_source: HashMap<SourceId, Vec<usize>> = HashMap::new();
        // Layers without tags are left out: untagged fragments (the usual
        // case) then cost no lookup per value.
        for (i, l) in layers
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.tags.is_empty())
        {
            by_source.entry(l.source).or_default().push(i);
        }
        LayerTags { layers, by_source }
    }
}

impl TagLookup for LayerTags<'_> {
    fn tag_of(&self, node: &Node) -> Option<&str> {
        if self.by_source.is_empty() {
            return None;
        }
        self.by_source
            .get(&node.span().source)?
            .iter()
            .filter_map(|&i| self.layers.get(i))
            .find_map(|l| l.tags.tag(node))
    }
}

/// Layer names by source id, for diagnostics.
pub(crate) fn layer_name(layers: &[Layer], id: SourceId) -> String {
    layers
        .iter()
        .find(|l| l.source == id)
        .map_or_else(|| "(built by the merge)".to_owned(), |l| l.name.clone())
}

/// Merge documents with Nickel's `&` (priorities from `!default`,
/// `!priority:N`, `!force` tags on mapping values).
pub fn merge(layers: &[Layer]) -> DialectOutcome {
    let roots: Vec<Node> = layers.iter().map(|l| l.root.clone()).collect();
    match merge_layers(&roots, &LayerTags::new(layers), &mut NoObserver) {
        Ok(n) => DialectOutcome::merged(n),
        Err(e) => DialectOutcome::failed(vec![e.to_diagnostic(
            &|id| layer_name(layers, id),
            "tag one with !force, !default or !priority:N to settle it",
        )]),
    }
}
