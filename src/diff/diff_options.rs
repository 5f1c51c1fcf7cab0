//! `DiffOptions`: how `diff` compares two payloads, and its limits.

/// Default of [`DiffOptions::max_align_work`].
pub const DEFAULT_MAX_ALIGN_WORK: u64 = 100_000_000;

/// How [`super::diff`] compares two payloads (the fold options, shared by
/// both sides, are [`crate::userdata::UserDataOptions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiffOptions {
    /// Compare the merged configs only: parts cloud-init runs (scripts,
    /// boothooks, part-handlers, templates) do not count as changes at boot.
    /// Set on its own when a side is a `cloud-config.txt` cloud-init wrote
    /// (see `super::is_cloud_config_txt`).
    pub config_only: bool,
    /// Most steps spent aligning lists (items, part lists, lines of text),
    /// over the whole diff; past it, what is left of a list is compared
    /// position by position (a correct difference, not always the shortest).
    pub max_align_work: u64,
    /// Most node visits of the comparison (each node of each side is
    /// visited a few times; values shared by aliases at each place).
    pub max_nodes: usize,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            config_only: false,
            max_align_work: DEFAULT_MAX_ALIGN_WORK,
            max_nodes: 2 * crate::userdata::DEFAULT_MAX_ALIAS_EXPANSION,
        }
    }
}
