//! `FoldedSide`: one payload folded for `diff` — the fold, each part as `explain` summarises it, and where values came from.

use super::diff_error::{DiffError, Side};
use crate::explain::{Locator, PartStatus, PartSummary, part_text};
use crate::merge::cloud_init::MergerStack;
use crate::merge::{MergeEvent, MergeObserver};
use crate::source::SourceId;
use crate::userdata::{
    FoldObserver, FoldText, Folded, IncludeResolver, Renderer, UserDataOptions, load_py_text_in,
};
use crate::yaml::Node;
use crate::yaml::value::{Entries, Map, Value};

/// One side of a diff.
#[derive(Clone, Debug)]
pub struct FoldedSide {
    /// The fold, as `render` makes it.
    pub folded: Folded,
    /// Each part (handler order), with the mergers it was merged with.
    pub parts: Vec<PartSummary>,
    /// Spans of the fold's values as part and line:column.
    pub locator: Locator,
    /// The payload is a `cloud-config.txt` as cloud-init writes it
    /// (`is_cloud_config_txt`).
    pub is_cloud_config_txt: bool,
}

/// Records the mergers each cloud-config part is merged with, and nothing
/// else (no merge decisions: the fold costs what `render`'s does).
#[derive(Debug, Default)]
struct MergersSeen {
    by_source: Vec<Option<String>>,
    /// The last stack seen and its text: parts mostly share their mergers,
    /// and writing a stack costs more than comparing it.
    last: Option<(MergerStack, String)>,
}

impl MergeObserver for MergersSeen {
    fn enabled(&self) -> bool {
        false
    }

    fn event(&mut self, _event: &MergeEvent<'_>) {}
}

impl FoldObserver for MergersSeen {
    fn part_mergers(&mut self, source: SourceId, mergers: &MergerStack) {
        let i = source.0 as usize;
        if self.by_source.len() <= i {
            self.by_source.resize(i + 1, None);
        }
        let text = match &self.last {
            Some((m, t)) if m == mergers => t.clone(),
            _ => {
                let t = mergers.to_string();
                self.last = Some((mergers.clone(), t.clone()));
                t
            }
        };
        if let Some(slot) = self.by_source.get_mut(i) {
            *slot = Some(text);
        }
    }
}

/// Whether `payload` is a `cloud-config.txt` as cloud-init writes it
/// (`cloud_config.py`): `#cloud-config`, a blank line, then the list of
/// merged parts (`# from N files`), a 25.1 schema-error line, or the
/// document start `---`. It holds the merged config and nothing else: no
/// scripts, no parts.
///
/// ```
/// use cloudfold::diff::is_cloud_config_txt;
/// assert!(is_cloud_config_txt(b"#cloud-config\n\n# from 1 files\n# part-001\n\n---\na: 1\n...\n"));
/// assert!(!is_cloud_config_txt(b"#cloud-config\na: 1\n"));
/// ```
pub fn is_cloud_config_txt(payload: &[u8]) -> bool {
    let Some(rest) = payload.strip_prefix(b"#cloud-config\n\n") else {
        return false;
    };
    rest.starts_with(b"# from ")
        || rest.starts_with(b"# Cloud-config part ignored SCHEMA_ERROR: ")
        || rest.starts_with(b"---\n")
        || rest.starts_with(b"--- ")
}

impl FoldedSide {
    /// Fold `payload` (on this thread; `renderer` was started for it with `opts`).
    ///
    /// A `cloud-config.txt` is the merged config itself, not user-data: its
    /// config is the document as cloud-init reads it back (`util.read_conf`:
    /// the mapping as loaded, a top-level `merge_type` included), not what
    /// the cloud-config handler would merge out of it.
    pub(crate) fn fold(
        side: Side,
        payload: Vec<u8>,
        renderer: Renderer<'_, '_>,
        opts: &UserDataOptions,
        includes: &dyn IncludeResolver,
    ) -> Result<FoldedSide, DiffError> {
        let is_txt = is_cloud_config_txt(&payload);
        let mut seen = MergersSeen::default();
        let mut folded = renderer
            .render_owned_observed(payload, includes, &mut seen)
            .map_err(|error| DiffError::Render { side, error })?;
        let is_txt = is_txt && folded.parts.len() == 1;
        if is_txt && let Some(p) = folded.parts.first() {
            let text = part_text(&p.leaf.payload());
            if let Ok(loaded) = load_py_text_in(&text, opts, p.source) {
                // `load_yaml(..., default={})`: anything but a mapping reads as `{}`.
                folded.config = Some(match loaded {
                    Some(n) if n.as_map().is_some() => n,
                    _ => Node::synthetic(Value::Map(Map::new(Entries::default()))),
                });
            }
        }
        let parts = folded
            .parts
            .iter()
            .map(|p| {
                let mut s = PartSummary::of(p);
                // As `explain` reports them: for parts that merged.
                if s.status == PartStatus::Merged {
                    s.mergers = seen.by_source.get(p.source.0 as usize).cloned().flatten();
                }
                s
            })
            .collect();
        Ok(FoldedSide {
            locator: Locator::new(&folded),
            is_cloud_config_txt: is_txt,
            folded,
            parts,
        })
    }

    /// Start a render of a payload of `len` bytes with `opts`.
    pub(crate) fn renderer<'scope, 'env>(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        opts: &'env UserDataOptions,
        len: usize,
        text: FoldText,
    ) -> Renderer<'scope, 'env> {
        Renderer::start(scope, opts, len).writing(text)
    }
}
