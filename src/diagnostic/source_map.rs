//! `SourceMap`: the source texts diagnostics point into, by `SourceId`.

use super::SourceFile;
use crate::source::SourceId;
use std::collections::BTreeMap;

/// The source texts of one run, by id.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: BTreeMap<SourceId, SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        SourceMap::default()
    }

    /// Register `file` under `id` (replacing what was there).
    pub fn insert(&mut self, id: SourceId, file: SourceFile) {
        self.files.insert(id, file);
    }

    /// The file registered under `id`.
    pub fn get(&self, id: SourceId) -> Option<&SourceFile> {
        self.files.get(&id)
    }

    /// All files, by id, to change (e.g. to name the payload in each part's display name).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (SourceId, &mut SourceFile)> {
        self.files.iter_mut().map(|(id, f)| (*id, f))
    }

    /// All files, by id.
    pub fn iter(&self) -> impl Iterator<Item = (SourceId, &SourceFile)> {
        self.files.iter().map(|(id, f)| (*id, f))
    }
}
