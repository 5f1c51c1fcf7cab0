//! `PartCause`: a part-level difference between two payloads (added, removed, moved, retyped, re-headed, now dropped…).
//!
//! Parts are aligned by identity (content type, filename, merge header,
//! launch index, payload bytes) with the same linear-space diff as list
//! items; an identical part found elsewhere is a move; a part with the same
//! explicit filename (or, unnamed, in the same place) is the same part
//! changed. Each pair is then compared field by field, including what
//! cloud-init does with it (merged, dropped and why) and the mergers it
//! uses, as `explain` reports them.

use super::alignment::{Budget, Run, align_symmetric};
use super::line_hunk::{LineHunk, line_hunks};
use crate::explain::{PartSummary, part_text};
use crate::userdata::{Body, PartOutcome, PartReport, PartType};
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hash};

/// One way a part differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartDelta {
    /// Only the new payload has it.
    Added,
    /// Only the old payload has it.
    Removed,
    /// The same part, in another place among the others.
    Moved,
    /// Its filename changed.
    Renamed,
    /// Its content type changed (so another handler takes it).
    ContentType,
    /// Its `Merge-Type` (or `X-Merge-Type`) header changed.
    MergeHeader,
    /// The mergers it is merged with changed (its header or its `merge_how`).
    Mergers,
    /// What cloud-init does with it changed (merged, dropped and why, run, ignored).
    Status,
    /// Its payload changed: these lines.
    Content(Vec<LineHunk>),
}

impl PartDelta {
    /// A stable machine name.
    pub fn code(&self) -> &'static str {
        match self {
            PartDelta::Added => "added",
            PartDelta::Removed => "removed",
            PartDelta::Moved => "moved",
            PartDelta::Renamed => "renamed",
            PartDelta::ContentType => "content_type",
            PartDelta::MergeHeader => "merge_header",
            PartDelta::Mergers => "mergers",
            PartDelta::Status => "status",
            PartDelta::Content(_) => "content",
        }
    }
}

/// One part that differs between the payloads, and how.
#[derive(Clone, Debug)]
pub struct PartCause {
    /// The part in the old payload (`None`: added).
    pub old: Option<PartSummary>,
    /// The part in the new payload (`None`: removed).
    pub new: Option<PartSummary>,
    /// Its type on each side (which handler takes it).
    pub old_type: Option<PartType>,
    /// Its type in the new payload.
    pub new_type: Option<PartType>,
    /// How it differs.
    pub deltas: Vec<PartDelta>,
    /// A part cloud-init runs (script, boothook, part-handler, template)
    /// changed: a change at boot whatever the config.
    pub at_boot: bool,
}

impl PartCause {
    /// Whether this delta is among the differences.
    pub fn has(&self, code: &str) -> bool {
        self.deltas.iter().any(|d| d.code() == code)
    }
}

/// What one side's parts are, for the comparison.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SideParts<'a> {
    pub reports: &'a [PartReport],
    pub summaries: &'a [PartSummary],
}

/// What makes two parts the same part unchanged.
#[derive(PartialEq, Eq, Hash)]
struct PartKey<'a> {
    content_type: &'a str,
    filename: String,
    merge_type: Option<String>,
    launch_index: Option<String>,
    body: &'a [u8],
}

/// A part's type, merge header and payload: the same part renamed matches.
type ContentKey<'a> = (&'a str, Option<&'a String>, &'a [u8]);

fn key(p: &PartReport) -> PartKey<'_> {
    PartKey {
        content_type: p.content_type(),
        filename: p.filename().into_owned(),
        merge_type: p.merge_type_header(),
        launch_index: p.launch_index(),
        body: match &p.leaf.body {
            Body::Bytes(b) => b.as_bytes(),
            Body::None => &[],
        },
    }
}

/// Parts whose effect does not go through the merged config: those
/// cloud-init runs, and templates cloudfold did not render (at boot
/// cloud-init renders them with the instance's data, to a config or a script).
fn runnable(p: &PartReport) -> bool {
    matches!(p.outcome, PartOutcome::WouldRun | PartOutcome::JinjaDropped)
}

/// Runnable parts that act in the order they are handled (shell scripts run
/// later, sorted by filename).
fn acts_in_order(t: PartType) -> bool {
    matches!(
        t,
        PartType::Boothook | PartType::PartHandler | PartType::Jinja
    )
}

/// An explicit filename (not one cloud-init made up from the position).
fn named(p: &PartReport) -> Option<&str> {
    p.leaf.filename.as_deref().filter(|f| !f.is_empty())
}

/// The part-level differences from `old` to `new`, in the new payload's order
/// (a removed part where it would have been).
pub(crate) fn diff_parts(
    old: SideParts<'_>,
    new: SideParts<'_>,
    config_only: bool,
    budget: &mut Budget,
) -> Vec<PartCause> {
    let ka: Vec<PartKey<'_>> = old.reports.iter().map(key).collect();
    let kb: Vec<PartKey<'_>> = new.reports.iter().map(key).collect();
    let fixed = foldhash::fast::FixedState::with_seed(3);
    // foldhash: the keys hold whole part bodies (SipHash over them cost ~2 %
    // of a 1000-part diff); the ids follow first appearance, not the hash.
    let mut ids: HashMap<&PartKey<'_>, u32, _> = HashMap::with_hasher(fixed.clone());
    let mut id_of = |k| {
        let next = ids.len() as u32;
        *ids.entry(k).or_insert(next)
    };
    let ia: Vec<u32> = ka.iter().map(&mut id_of).collect();
    let ib: Vec<u32> = kb.iter().map(&mut id_of).collect();
    let fa: Vec<u64> = ka.iter().map(|k| fixed.hash_one(k)).collect();
    let fb: Vec<u64> = kb.iter().map(|k| fixed.hash_one(k)).collect();
    let runs = align_symmetric(&ia, &ib, &fa, &fb, budget);

    // (old index, new index, moved); unmatched removed parts with the new
    // index they sat before and their hunk; unmatched inserted with their hunk.
    let mut pairs: Vec<(usize, usize, bool)> = Vec::new();
    let mut removed: Vec<(usize, usize, usize)> = Vec::new();
    let mut inserted: Vec<(usize, usize)> = Vec::new();
    let (mut j, mut hunk) = (0usize, 0usize);
    for r in &runs {
        match *r {
            Run::Same { old, new, len } => {
                pairs.extend((0..len).map(|d| (old + d, new + d, false)));
                j = new + len;
                hunk += 1;
            }
            Run::Removed { old, len } => removed.extend((old..old + len).map(|i| (i, j, hunk))),
            Run::Inserted { new, len } => {
                inserted.extend((new..new + len).map(|n| (n, hunk)));
                j = new + len;
            }
        }
    }
    // Moves: an identical part elsewhere.
    let mut by_id: HashMap<u32, VecDeque<usize>> = HashMap::new();
    for &(i, _, _) in &removed {
        if let Some(&id) = ia.get(i) {
            by_id.entry(id).or_default().push_back(i);
        }
    }
    let mut taken_old = vec![false; ka.len()];
    let mut taken_new = vec![false; kb.len()];
    for &(n, _) in &inserted {
        if let Some(i) = ib
            .get(n)
            .and_then(|id| by_id.get_mut(id))
            .and_then(VecDeque::pop_front)
        {
            pairs.push((i, n, true));
            mark(&mut taken_old, i);
            mark(&mut taken_new, n);
        }
    }
    // The same part under another name: type, header and payload alike.
    let mut by_content: HashMap<ContentKey<'_>, VecDeque<usize>> = HashMap::new();
    for &(i, _, _) in removed.iter().filter(|r| !is(&taken_old, r.0)) {
        if let Some(k) = ka.get(i) {
            by_content
                .entry((k.content_type, k.merge_type.as_ref(), k.body))
                .or_default()
                .push_back(i);
        }
    }
    for &(n, _) in &inserted {
        if is(&taken_new, n) {
            continue;
        }
        let found = kb.get(n).and_then(|k| {
            by_content
                .get_mut(&(k.content_type, k.merge_type.as_ref(), k.body))
                .and_then(VecDeque::pop_front)
        });
        if let Some(i) = found {
            pairs.push((i, n, false));
            mark(&mut taken_old, i);
            mark(&mut taken_new, n);
        }
    }
    // The same explicit filename, unique among what is left on each side.
    let mut names_old: HashMap<&str, Vec<usize>> = HashMap::new();
    for &(i, _, _) in removed.iter().filter(|r| !is(&taken_old, r.0)) {
        if let Some(f) = old.reports.get(i).and_then(named) {
            names_old.entry(f).or_default().push(i);
        }
    }
    let mut names_new: HashMap<&str, Vec<usize>> = HashMap::new();
    for &(n, _) in inserted.iter().filter(|r| !is(&taken_new, r.0)) {
        if let Some(f) = new.reports.get(n).and_then(named) {
            names_new.entry(f).or_default().push(n);
        }
    }
    for (f, ns) in &names_new {
        if let ([n], Some([i])) = (ns.as_slice(), names_old.get(f).map(Vec::as_slice)) {
            pairs.push((*i, *n, false));
            mark(&mut taken_old, *i);
            mark(&mut taken_new, *n);
        }
    }
    // Unnamed parts in the same hunk, in order.
    let unnamed_old: Vec<(usize, usize)> = removed
        .iter()
        .filter(|r| {
            !is(&taken_old, r.0) && old.reports.get(r.0).is_some_and(|p| named(p).is_none())
        })
        .map(|r| (r.0, r.2))
        .collect();
    let unnamed_new: Vec<(usize, usize)> = inserted
        .iter()
        .filter(|r| {
            !is(&taken_new, r.0) && new.reports.get(r.0).is_some_and(|p| named(p).is_none())
        })
        .copied()
        .collect();
    let mut hunk_new: HashMap<usize, VecDeque<usize>> = HashMap::new();
    for (n, h) in unnamed_new {
        hunk_new.entry(h).or_default().push_back(n);
    }
    for (i, h) in unnamed_old {
        if let Some(n) = hunk_new.get_mut(&h).and_then(VecDeque::pop_front) {
            pairs.push((i, n, false));
            mark(&mut taken_old, i);
            mark(&mut taken_new, n);
        }
    }

    let mut out: Vec<((usize, usize), PartCause)> = Vec::new();
    for (i, n, moved) in pairs {
        if let Some(c) = pair_cause(old, new, i, n, moved, config_only, budget) {
            out.push(((n, 1), c));
        }
    }
    for &(i, before, _) in removed.iter().filter(|r| !is(&taken_old, r.0)) {
        let r = old.reports.get(i);
        let t = r.map(|p| p.part_type);
        out.push((
            (before, 0),
            PartCause {
                old: old.summaries.get(i).cloned(),
                new: None,
                old_type: t,
                new_type: None,
                deltas: vec![PartDelta::Removed],
                at_boot: !config_only && r.is_some_and(runnable),
            },
        ));
    }
    for &(n, _) in inserted.iter().filter(|r| !is(&taken_new, r.0)) {
        let r = new.reports.get(n);
        let t = r.map(|p| p.part_type);
        out.push((
            (n, 1),
            PartCause {
                old: None,
                new: new.summaries.get(n).cloned(),
                old_type: None,
                new_type: t,
                deltas: vec![PartDelta::Added],
                at_boot: !config_only && r.is_some_and(runnable),
            },
        ));
    }
    out.sort_by_key(|(k, c)| (*k, c.old.as_ref().map_or(0, |p| p.number)));
    out.into_iter().map(|(_, c)| c).collect()
}

fn mark(v: &mut [bool], i: usize) {
    if let Some(x) = v.get_mut(i) {
        *x = true;
    }
}

fn is(v: &[bool], i: usize) -> bool {
    v.get(i).copied().unwrap_or(false)
}

/// How part `i` of old and part `n` of new differ (`None`: not at all).
fn pair_cause(
    old: SideParts<'_>,
    new: SideParts<'_>,
    i: usize,
    n: usize,
    moved: bool,
    config_only: bool,
    budget: &mut Budget,
) -> Option<PartCause> {
    let (ro, rn) = (old.reports.get(i)?, new.reports.get(n)?);
    let (so, sn) = (old.summaries.get(i)?, new.summaries.get(n)?);
    let mut deltas = Vec::new();
    if moved {
        deltas.push(PartDelta::Moved);
    }
    if so.filename != sn.filename {
        deltas.push(PartDelta::Renamed);
    }
    if so.content_type != sn.content_type {
        deltas.push(PartDelta::ContentType);
    }
    if so.merge_type != sn.merge_type {
        deltas.push(PartDelta::MergeHeader);
    }
    if let (Some(a), Some(b)) = (&so.mergers, &sn.mergers)
        && a != b
    {
        deltas.push(PartDelta::Mergers);
    }
    if so.status != sn.status {
        deltas.push(PartDelta::Status);
    }
    let body = |r: &PartReport| match &r.leaf.body {
        Body::Bytes(b) => b.as_bytes().to_vec(),
        Body::None => Vec::new(),
    };
    let same_body = match (&ro.leaf.body, &rn.leaf.body) {
        (Body::Bytes(a), Body::Bytes(b)) => a.as_bytes() == b.as_bytes(),
        (Body::None, Body::None) => true,
        _ => body(ro) == body(rn),
    };
    if !same_body {
        deltas.push(PartDelta::Content(line_hunks(
            &body_text(ro),
            &body_text(rn),
            budget,
        )));
    }
    if deltas.is_empty() {
        return None;
    }
    let (to, tn) = (ro.part_type, rn.part_type);
    let runs_differently = deltas.iter().any(|d| {
        matches!(
            d,
            PartDelta::Renamed | PartDelta::ContentType | PartDelta::Content(_) | PartDelta::Status
        )
    });
    let at_boot = !config_only
        && (((runnable(ro) || runnable(rn)) && runs_differently)
            || (moved && runnable(ro) && acts_in_order(to)));
    Some(PartCause {
        old: Some(so.clone()),
        new: Some(sn.clone()),
        old_type: Some(to),
        new_type: Some(tn),
        deltas,
        at_boot,
    })
}

/// A part's payload as text, lone surrogates replaced (what its line diff
/// reads): the body itself when it is valid UTF-8, which every part's
/// payload decodes to unchanged, so a long part is not copied three times
/// (payload, its text, the lossy string) for each side.
fn body_text(r: &PartReport) -> Cow<'_, str> {
    match r.leaf.payload_in_place().and_then(|b| b.as_str()) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(part_text(&r.leaf.payload()).to_string_lossy().into_owned()),
    }
}
