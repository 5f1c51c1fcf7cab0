//! `Seq`: the items of a `list` or `tuple`, fillable once (for recursive aliases).

use super::Node;
use super::slot::Slot;

/// The items of a list or tuple.
///
/// Items are set once. A sequence under construction is empty until filled,
/// which lets a YAML alias refer to a sequence that contains it
/// (`&a [*a]` is valid for PyYAML).
#[derive(Default)]
pub struct Seq(Slot<Vec<Node>>);

impl Seq {
    /// A filled sequence.
    pub fn new(items: Vec<Node>) -> Seq {
        Seq(Slot::Ready(items))
    }

    /// A sequence to be filled later with [`Seq::fill`].
    pub fn pending() -> Seq {
        Seq(Slot::pending())
    }

    /// Fill a pending sequence; gives the items back if it was already filled.
    pub fn fill(&self, items: Vec<Node>) -> Result<(), Vec<Node>> {
        self.0.fill(items)
    }

    /// The items (empty while pending).
    pub fn items(&self) -> &[Node] {
        self.0.get().map_or(&[], Vec::as_slice)
    }

    /// The items, to edit in place (`None` while pending).
    pub(crate) fn items_mut(&mut self) -> Option<&mut Vec<Node>> {
        self.0.get_mut()
    }

    /// The items, taken out (empty while pending).
    pub fn into_items(self) -> Vec<Node> {
        self.0.into_inner().unwrap_or_default()
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items().len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.items().is_empty()
    }

    /// Iterate the items.
    pub fn iter(&self) -> std::slice::Iter<'_, Node> {
        self.items().iter()
    }
}

impl std::fmt::Debug for Seq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.items()).finish()
    }
}

impl<'a> IntoIterator for &'a Seq {
    type Item = &'a Node;
    type IntoIter = std::slice::Iter<'a, Node>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
