//! `FoldObserver`: what `render` tells a caller about each cloud-config part as it folds (for `explain`).

use crate::merge::cloud_init::MergerStack;
use crate::merge::{MergeObserver, NoObserver};
use crate::source::SourceId;
use crate::yaml::Node;

/// Receives, for each cloud-config part the handler takes, the part's data
/// and then the merge engine's decisions for it (as a [`MergeObserver`]).
///
/// Calls for one part come between [`FoldObserver::begin_part`] and
/// [`FoldObserver::end_part`]; a part that fails part-way (a merge error)
/// may have reported some decisions first, so an observer keeps them only
/// when `end_part` says the part was merged.
pub trait FoldObserver: MergeObserver {
    /// The handler starts on the part whose values carry `source`.
    fn begin_part(&mut self, _source: SourceId) {}

    /// The part's YAML document as loaded (merge keys still in, whatever its
    /// type), before the merge takes anything from it. An observer that keeps
    /// it shares the part's values with the merged config (the merge then
    /// copies the lists and dicts it would have extended in place).
    fn part_root(&mut self, _source: SourceId, _root: &Node) {}

    /// The part's data: the YAML document with its merge keys taken out, or
    /// a JSON patch (the patch document itself).
    fn part_data(&mut self, _source: SourceId, _data: &Node) {}

    /// The mergers a YAML part is merged with (its `merge_how`, its
    /// `Merge-Type` header, or cloud-init's default), resolved.
    fn part_mergers(&mut self, _source: SourceId, _mergers: &MergerStack) {}

    /// The part is done: merged, or not (the config is then unchanged).
    fn end_part(&mut self, _source: SourceId, _merged: bool) {}
}

impl FoldObserver for NoObserver {}
