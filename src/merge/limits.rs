//! `Limits`: how deep and how much a merge may go before it gives up like Python would (or earlier).

/// Resource limits of one merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Python frames available to the merge before `RecursionError`.
    ///
    /// cloud-init's mergers use about 5 frames per nested mapping and 4 per
    /// nested list (5 per tuple), peaking 4 frames above the innermost call;
    /// Python's limit is 1000. The
    /// default, 998, matches a direct call of the mergers (vectors harness:
    /// 199 nested mappings merge, 200 fail; 249 lists merge, 250 fail). At
    /// boot the caller's own frames and debug logging take a few more, so the
    /// real limit there is one or two levels lower.
    pub python_frames: usize,
    /// Work units (values visited plus items copied) before giving up with
    /// `MemoryError`: shared aliases can make a tree exponentially large.
    pub max_work: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            python_frames: 998,
            max_work: 5_000_000,
        }
    }
}

/// Nesting levels the engine ever enters, whatever the limits say: deeper
/// recursion would risk our own stack.
pub const MAX_LEVELS: usize = 512;
