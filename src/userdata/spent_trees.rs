//! `SpentTrees`: what the merges left of the parts' trees, kept with the fold's result rather than freed part by part during the fold.

use crate::yaml::Node;
use std::fmt;

/// The trees of merged cloud-config parts, as the merges left them: the
/// values a merge did not take (each key `dict(no_replace)` keeps from an
/// earlier part, the keys of entries it merged into, emptied lists and
/// dicts).
///
/// Freeing them as the fold goes walks nodes that left the cache since
/// their part was loaded, on the threads the fold keeps busy: kept, they
/// are freed when the [`super::Folded`] that holds them is dropped, and not
/// at all by a process that exits right after the fold (the CLI). A node a
/// kept tree shares with the merged config is the config's as before: it
/// may look shared, which a merge answers with a copy where it would have
/// extended in place and a dump by looking for its second occurrence, with
/// the same result.
///
/// Trees are kept for parts of up to [`SpentTrees::MAX_PAYLOAD_BYTES`] of
/// payload in all; later parts' trees are freed during the fold as before,
/// so the memory kept stays bounded whatever the payload.
#[derive(Default)]
pub(crate) struct SpentTrees {
    trees: Vec<Node>,
    /// Payload bytes of the parts whose trees may be kept.
    payload_bytes: usize,
}

impl SpentTrees {
    /// Payload bytes of the parts whose trees are kept, in all.
    pub(crate) const MAX_PAYLOAD_BYTES: usize = 8 << 20;

    /// Where the tree of a part of `payload` bytes goes once merged: here,
    /// while the parts' payloads fit [`Self::MAX_PAYLOAD_BYTES`]; `None`
    /// (the caller frees it) past that.
    pub(crate) fn room_for(&mut self, payload: usize) -> Option<&mut Vec<Node>> {
        let bytes = self
            .payload_bytes
            .checked_add(payload)
            .filter(|b| *b <= Self::MAX_PAYLOAD_BYTES)?;
        self.payload_bytes = bytes;
        Some(&mut self.trees)
    }

    /// Number of trees kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.trees.len()
    }

    /// Whether no tree is kept.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }
}

/// A clone of a [`super::Folded`] holds none of the leftovers: they are
/// kept only to be freed later, and the clone's config needs none of them.
impl Clone for SpentTrees {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl fmt::Debug for SpentTrees {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpentTrees")
            .field("trees", &self.trees.len())
            .field("payload_bytes", &self.payload_bytes)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::SpentTrees;
    use crate::yaml::Node;

    #[test]
    fn trees_are_kept_up_to_the_cap_then_left_to_the_caller() {
        let mut s = SpentTrees::default();
        let half = SpentTrees::MAX_PAYLOAD_BYTES / 2;
        for _ in 0..2 {
            s.room_for(half).unwrap().push(Node::str("kept"));
        }
        assert_eq!(s.len(), 2);
        // Full: a part that does not fit is the caller's to free (and does
        // not count); one of no bytes still fits.
        assert!(s.room_for(1).is_none());
        assert!(s.room_for(usize::MAX).is_none());
        assert!(s.room_for(0).is_some());
        let mut small = SpentTrees::default();
        assert!(small.is_empty());
        assert!(small.room_for(usize::MAX).is_none());
        assert!(small.room_for(SpentTrees::MAX_PAYLOAD_BYTES).is_some());
        assert!(format!("{s:?}").contains("trees: 2"));
    }
}
