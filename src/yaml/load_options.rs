//! `LoadOptions`: how [`super::load`] reads a document (source id, dialect, limits).

use crate::source::SourceId;

/// PyYAML's composer recurses twice per nesting level; under a plain
/// `yaml.safe_load` call (CPython 3.11, recursion limit 1000) the deepest
/// accepted nesting is 491 open collections at any event inside a block
/// collection, and at a collection start inside a flow mapping. The parser and
/// scanner need fewer frames inside a flow sequence (two more levels), for a
/// scalar inside a flow mapping (one more) and for an empty scalar (one more);
/// callers with frames of their own ([`LoadOptions::caller_frames`]) move all of
/// these, by half as many levels (measured).
pub const PYYAML_MAX_DEPTH: usize = 491;

/// Options for loading one YAML document.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Which source the text is; spans of the loaded nodes point into it.
    pub source: SourceId,
    /// Accept `!!python/unicode` as `str` (cloud-init 22.4's loader does;
    /// plain `safe_load` and cloud-init ≥ 24.2 reject it).
    pub python_unicode_tag: bool,
    /// Nesting beyond which loading fails with `RecursionError`, as PyYAML
    /// does (see `PYYAML_MAX_DEPTH` for the per-form slack).
    pub max_depth: usize,
    /// Python frames the caller of `safe_load` already uses (0 for a plain
    /// call). PyYAML's composer spends two frames per nesting level, so these
    /// move the `RecursionError` boundary by half as many levels, unevenly:
    /// block forms and flow forms are an odd number of frames apart.
    pub caller_frames: usize,
    /// Upper bound on mapping entries produced by `<<` merges in one
    /// document (PyYAML would run out of memory; we refuse instead).
    pub max_merge_entries: usize,
    /// Longest scalar accepted, in bytes: a longer one fails the load with a
    /// `super::PyErrorClass::Limit` error (the text's own length bounds it
    /// otherwise).
    pub max_scalar_size: usize,
    /// Keep local tags (`!reset`, `!priority:10`, any `!name`) instead of
    /// failing as SafeLoader does: the tagged node is built as if untagged
    /// and the tag is reported by `super::load_tagged`. The merge dialects
    /// use tags as annotations; cloud-init's own loading never sets this.
    pub keep_local_tags: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            source: SourceId::default(),
            python_unicode_tag: false,
            max_depth: PYYAML_MAX_DEPTH,
            caller_frames: 0,
            max_merge_entries: 10_000_000,
            max_scalar_size: usize::MAX,
            keep_local_tags: false,
        }
    }
}
