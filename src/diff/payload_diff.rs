//! `PayloadDiff` and `diff`: what changing one user-data payload into another does at boot.

use super::alignment::Budget;
use super::config_walk::diff_configs;
use super::diff_error::{DiffError, Side};
use super::diff_options::DiffOptions;
use super::folded_side::FoldedSide;
use super::part_cause::{PartCause, SideParts, diff_parts};
use super::value_change::{ChangeKind, Place, ValueChange};
use crate::layers::Layered;
use crate::merge::Path;
use crate::userdata::{FoldText, IncludeResolver, Preload, UserDataOptions};

/// Payloads from this size on (both together) are folded on two threads.
const PARALLEL_FROM: usize = 256 << 10;

/// Stack of the thread folding the old payload (as the fold's own helper's).
const FOLD_STACK: usize = 8 << 20;

/// The difference two payloads make at boot.
#[derive(Debug)]
pub struct PayloadDiff {
    /// The old payload, folded.
    pub old: FoldedSide,
    /// The new payload, folded.
    pub new: FoldedSide,
    /// How the merged config changes, in document order (the old config's
    /// keys first, then the keys only the new one has).
    pub changes: Vec<ValueChange>,
    /// How the parts changed, in the new payload's order (none when a side
    /// is a `cloud-config.txt`).
    pub parts: Vec<PartCause>,
    /// Lists that were compared item by item in place, for want of
    /// alignment budget ([`DiffOptions::max_align_work`]).
    pub by_position: Vec<Path>,
    /// The two payloads are the same bytes.
    pub identical_payloads: bool,
    /// Parts cloud-init runs were not compared (asked for, or a side is a
    /// `cloud-config.txt`).
    pub config_only: bool,
    /// With layers ([`super::diff_layered`]): each side's layered fold, whose
    /// `config` (what the modules see) `changes` compares.
    pub layers: Option<Box<(Layered, Layered)>>,
}

impl PayloadDiff {
    /// Whether nothing changes at boot: the merged configs are the same as
    /// the modules see them, and so are the parts cloud-init runs (unless
    /// [`PayloadDiff::config_only`]).
    pub fn same_at_boot(&self) -> bool {
        self.changes.iter().all(|c| !c.at_boot()) && self.parts.iter().all(|p| !p.at_boot)
    }

    /// For every change, the part-level differences behind it (indexes into
    /// [`PayloadDiff::parts`]): those of the parts its old and new values were
    /// read from, and of the parts the containers holding them were read from
    /// (a list that a moved or added part now replaces).
    pub fn causes(&self) -> Vec<Vec<usize>> {
        // By part number (a lookup per change side: thousands of them).
        let table = |of: fn(&PartCause) -> Option<usize>| {
            let most = self.parts.iter().filter_map(of).max().unwrap_or(0);
            let mut t: Vec<Option<usize>> = vec![None; most.saturating_add(1)];
            for (i, p) in self.parts.iter().enumerate() {
                if let Some(slot) = of(p).and_then(|n| t.get_mut(n)) {
                    *slot = Some(i);
                }
            }
            t
        };
        let by_old = table(|p| p.old.as_ref().map(|s| s.number));
        let by_new = table(|p| p.new.as_ref().map(|s| s.number));
        let part_of = |side: &FoldedSide, n: &Option<crate::yaml::Node>| {
            n.as_ref()
                .and_then(|n| side.locator.origin(n.span()))
                .map(|o| o.part)
        };
        self.changes
            .iter()
            .map(|c| {
                let olds = [
                    c.old_origin.map(|o| o.part),
                    part_of(&self.old, &c.old_container),
                ];
                let news = [
                    c.new_origin.map(|o| o.part),
                    part_of(&self.new, &c.new_container),
                ];
                let mut v: Vec<usize> = olds
                    .iter()
                    .flatten()
                    .filter_map(|&p| by_old.get(p).copied().flatten())
                    .chain(
                        news.iter()
                            .flatten()
                            .filter_map(|&p| by_new.get(p).copied().flatten()),
                    )
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect()
    }
}

/// Fold `old` and `new` as `render` does (the same `opts` for both) and
/// compare them: the merged configs by logical path, and the parts.
/// `text` is what each fold also writes (the YAML views `--format
/// yaml-diff` compares, or nothing).
///
/// ```
/// use cloudfold::diff::{diff, ChangeKind, DiffOptions};
/// use cloudfold::userdata::{FoldText, NoIncludes, UserDataOptions};
/// let old = b"#cloud-config\nruncmd: [a, c]\n".to_vec();
/// let new = b"#cloud-config\nruncmd: [a, b, c]\n".to_vec();
/// let d = diff(old, new, &UserDataOptions::default(), &NoIncludes, &DiffOptions::default(), FoldText::Nothing).unwrap();
/// assert_eq!(d.changes.len(), 1);
/// assert_eq!(d.changes[0].kind, ChangeKind::Added);
/// assert_eq!(d.changes[0].path().to_string(), "$.runcmd[1]");
/// assert_eq!(d.changes[0].new_origin.unwrap().start.column, 13);
/// assert!(!d.same_at_boot());
/// ```
pub fn diff(
    old: Vec<u8>,
    new: Vec<u8>,
    opts: &UserDataOptions,
    includes: &(dyn IncludeResolver + Sync),
    dopts: &DiffOptions,
    text: FoldText,
) -> Result<PayloadDiff, DiffError> {
    let identical = old == new;
    // Folded side by side, the two folds keep both cores busy: their
    // preload helpers would only add threads, hand-offs and fresh heaps
    // (benches/README.md). The result does not depend on the helper.
    let parallel = !identical && old.len().saturating_add(new.len()) >= PARALLEL_FROM;
    let unhelped;
    let opts = if parallel && opts.preload == Preload::Auto {
        unhelped = UserDataOptions {
            preload: Preload::Off,
            ..opts.clone()
        };
        &unhelped
    } else {
        opts
    };
    let (old, new) = std::thread::scope(|scope| {
        let (lo, ln) = (old.len(), new.len());
        if identical {
            let r = FoldedSide::renderer(scope, opts, lo, text);
            let side = FoldedSide::fold(Side::Old, old, r, opts, includes)?;
            return Ok((side.clone(), side));
        }
        if parallel {
            // The old side on a thread of its own, with the stack the fold's
            // own helper gets (deep YAML recurses).
            let other = std::thread::Builder::new()
                .stack_size(FOLD_STACK)
                .spawn_scoped(scope, move || {
                    std::thread::scope(|inner| {
                        let r = FoldedSide::renderer(inner, opts, lo, text);
                        FoldedSide::fold(Side::Old, old, r, opts, includes)
                    })
                });
            if let Ok(other) = other {
                let r = FoldedSide::renderer(scope, opts, ln, text);
                let new = FoldedSide::fold(Side::New, new, r, opts, includes);
                let old = other
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                return Ok((old?, new?));
            }
            // No thread to be had: `old` went with the closure, so say so.
            return Err(DiffError::NoThread);
        }
        let r = FoldedSide::renderer(scope, opts, lo, text);
        let old = FoldedSide::fold(Side::Old, old, r, opts, includes)?;
        let r = FoldedSide::renderer(scope, opts, ln, text);
        let new = FoldedSide::fold(Side::New, new, r, opts, includes)?;
        Ok((old, new))
    })?;
    compare(old, new, identical, dopts)
}

/// Compare two folded sides.
pub(crate) fn compare(
    old: FoldedSide,
    new: FoldedSide,
    identical: bool,
    dopts: &DiffOptions,
) -> Result<PayloadDiff, DiffError> {
    let config_only = dopts.config_only || old.is_cloud_config_txt || new.is_cloud_config_txt;
    let (found, mut budget) = diff_configs(
        old.folded.config.as_ref(),
        new.folded.config.as_ref(),
        dopts.max_nodes,
        Budget::new(dopts.max_align_work),
    )?;
    // A cloud-config.txt's one part stands for a whole merged config: its
    // parts say nothing about the other side's.
    let txt = old.is_cloud_config_txt || new.is_cloud_config_txt;
    let parts = if txt {
        Vec::new()
    } else {
        diff_parts(
            SideParts {
                reports: &old.folded.parts,
                summaries: &old.parts,
            },
            SideParts {
                reports: &new.folded.parts,
                summaries: &new.parts,
            },
            config_only,
            &mut budget,
        )
    };
    let mut changes = found.changes;
    for c in &mut changes {
        c.old_origin = origin_of(&old, c, true);
        c.new_origin = origin_of(&new, c, false);
    }
    Ok(PayloadDiff {
        old,
        new,
        changes,
        parts,
        by_position: found.by_position,
        identical_payloads: identical,
        config_only,
        layers: None,
    })
}

/// Where a change's value on one side was read: the value's span, or its
/// key's for a set element or a value cloudfold built.
fn origin_of(side: &FoldedSide, c: &ValueChange, old: bool) -> Option<crate::explain::Origin> {
    origin_with(c, old, |span| side.locator.origin(span))
}

/// `locate` of the span of a change's value on one side, or of its key's
/// where the value has no origin and the key is that side's own.
pub(crate) fn origin_with<T>(
    c: &ValueChange,
    old: bool,
    locate: impl Fn(crate::source::Span) -> Option<T>,
) -> Option<T> {
    let value = if old { c.old.as_ref() } else { c.new.as_ref() };
    if !c.on_side(old) {
        return None;
    }
    let from_value = value.and_then(|v| locate(v.span()));
    // A key node is the side's own only where the other side lacks it.
    let own_key = if old {
        c.kind == ChangeKind::Removed
    } else {
        c.kind == ChangeKind::Added
    };
    from_value.or_else(|| match &c.place {
        Place::Key(k) if own_key => locate(k.span()),
        _ => None,
    })
}
