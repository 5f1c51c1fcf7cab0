//! `merge_many_dict`: cloud-init's `util.mergemanydict` over layer sources (each source's own popped `merge_how`), failures as crashes.

use super::layer_note::LayersError;
use super::read_conf::ConfReader;
use crate::merge::cloud_init::{Version, merge_many};
use crate::userdata::Release;
use crate::yaml::value::Node;

/// The merge dialect's version for a release (error wording).
pub(crate) fn version_of(release: Release) -> Version {
    match release {
        Release::V22_4 => Version::V22_4,
        Release::V25_1 => Version::V25_1,
    }
}

/// `util.mergemanydict(sources)`, highest priority first: each truthy
/// source's `merge_how` (or `merge_type`) is popped and governs its merge
/// into what is above it; without one, `list()+dict()+str()` (first wins,
/// dicts recursed). A bad spec raises in cloud-init: a crash `during`.
pub(crate) fn merge_many_dict(
    reader: &ConfReader<'_>,
    sources: &[Node],
    during: &str,
) -> Result<Node, LayersError> {
    merge_many(sources, version_of(reader.release))
        .map_err(|e| reader.crash(during, format!("{}: {}", e.class.python_name(), e.message)))
}
