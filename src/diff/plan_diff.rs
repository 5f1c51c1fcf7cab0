//! `PlanDiff`: the difference of two boot plans — per stage, the parts `consume_data` handles, the modules that start or stop running (each side's reason), and the commands each module runs, aligned.
//!
//! Each module's actions are flattened into [`Step`]s (one per line of
//! `bootcmd`/`runcmd` shell text, one per `write_files` entry, run-parts
//! script, package, user, group…), and the two lists aligned as list items
//! are ([`super::align_symmetric`]), so one inserted `runcmd` line is one
//! addition. A step removed in one place and added in another is a move (a
//! script run-parts now runs at another position, under the same name or
//! another); a named step (a file, a script, a part) removed and added in
//! the same place is a change, with its text's lines aligned.

use super::alignment::{Budget, Run, align_symmetric};
use crate::plan::{
    Action, BootPlan, ModuleStep, PartEffect, PartStep, SectionPlan, Stage, StagePlan,
};
use std::collections::HashMap;

/// One thing a boot does, as compared: what kind, which (a name, a path),
/// a one-line summary and a text (a script's, a file's; may be empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// `line`, `script`, `write_file`, `run_part`, `part`, `package`, ….
    pub kind: &'static str,
    /// The name or path (empty for a line of shell text).
    pub label: String,
    /// One line.
    pub summary: String,
    /// The text written or run (empty when none).
    pub body: String,
}

impl Step {
    fn new(kind: &'static str, label: impl Into<String>, summary: impl Into<String>) -> Step {
        Step {
            kind,
            label: label.into(),
            summary: summary.into(),
            body: String::new(),
        }
    }

    fn with_body(mut self, body: impl Into<String>) -> Step {
        self.body = body.into();
        self
    }

    /// Everything compared, in one key.
    fn identity(&self) -> String {
        format!(
            "{}\u{0}{}\u{0}{}\u{0}{}",
            self.kind, self.label, self.summary, self.body
        )
    }

    /// The same step under another name (a renamed script).
    fn content(&self) -> String {
        format!("{}\u{0}{}\u{0}{}", self.kind, self.summary, self.body)
    }

    /// Whether a removal and an addition of it in one place are one change.
    fn named(&self) -> bool {
        !self.label.is_empty()
    }
}

/// What happened to a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepOp {
    /// Only the new plan has it.
    Added,
    /// Only the old plan has it.
    Removed,
    /// Both have it, at other positions (or under another name).
    Moved,
    /// Both have a step of that kind and name in one place, different.
    Changed,
}

impl StepOp {
    /// `add`, `remove`, `move`, `change`.
    pub fn as_str(self) -> &'static str {
        match self {
            StepOp::Added => "add",
            StepOp::Removed => "remove",
            StepOp::Moved => "move",
            StepOp::Changed => "change",
        }
    }
}

/// One line of a changed step's text, added or removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineChange {
    /// Added (else removed).
    pub added: bool,
    /// 0-based line in the old text (removed lines).
    pub old_line: Option<usize>,
    /// 0-based line in the new text (added lines).
    pub new_line: Option<usize>,
    /// The line.
    pub text: String,
}

/// A step added, removed, moved or changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepChange {
    /// What happened.
    pub op: StepOp,
    /// 0-based position in the old list (`None`: added).
    pub old_index: Option<usize>,
    /// 0-based position in the new list (`None`: removed).
    pub new_index: Option<usize>,
    /// The old step.
    pub old: Option<Step>,
    /// The new step.
    pub new: Option<Step>,
    /// For a change: the lines of the text removed and added.
    pub lines: Vec<LineChange>,
}

/// How a listed module changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleOp {
    /// It runs now and did not.
    Starts,
    /// It ran and does not now.
    Stops,
    /// Newly in the stage's list.
    Listed,
    /// No longer in the list.
    Unlisted,
    /// Skipped on both sides, for another reason.
    Reason,
    /// Another frequency.
    Frequency,
    /// Its `handle` raises on one side only, or another error.
    Fails,
}

impl ModuleOp {
    /// `starts`, `stops`, `listed`, `unlisted`, `reason`, `frequency`, `fails`.
    pub fn as_str(self) -> &'static str {
        match self {
            ModuleOp::Starts => "starts",
            ModuleOp::Stops => "stops",
            ModuleOp::Listed => "listed",
            ModuleOp::Unlisted => "unlisted",
            ModuleOp::Reason => "reason",
            ModuleOp::Frequency => "frequency",
            ModuleOp::Fails => "fails",
        }
    }
}

/// A listed module as one plan has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleState {
    /// Whether its `handle` is called.
    pub runs: bool,
    /// Why it runs (its activating keys) or why not.
    pub reason: String,
    /// The skip's code (`no-activating-key`, …) when it does not run.
    pub skip: Option<&'static str>,
    /// Its frequency (`None`: no module).
    pub frequency: Option<&'static str>,
    /// Its `handle`'s error.
    pub fails: Option<String>,
}

impl ModuleState {
    fn of(m: &ModuleStep) -> ModuleState {
        let reason = match &m.skip {
            Some(s) => s.reason(),
            None if m.runs && m.activated_by.is_empty() => "runs".to_owned(),
            None if m.runs => format!("runs ({} in the config)", m.activated_by.join(", ")),
            None => "does not run".to_owned(),
        };
        ModuleState {
            runs: m.runs,
            reason,
            skip: m.skip.as_ref().map(crate::plan::Skip::code),
            frequency: m.frequency.map(|f| f.as_str()),
            fails: m.fails.clone(),
        }
    }
}

/// A change of one listed module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleChange {
    /// What.
    pub op: ModuleOp,
    /// The name as listed.
    pub name: String,
    /// 0-based position in the old list.
    pub old_index: Option<usize>,
    /// 0-based position in the new list.
    pub new_index: Option<usize>,
    /// The old plan's state.
    pub old: Option<ModuleState>,
    /// The new plan's state.
    pub new: Option<ModuleState>,
}

/// The changes of one module's commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleCommands {
    /// The name as listed.
    pub module: String,
    /// Its steps added, removed, moved, changed.
    pub changes: Vec<StepChange>,
}

/// One stage's differences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageDiff {
    /// Which stage.
    pub stage: Stage,
    /// Its module section.
    pub section: Option<&'static str>,
    /// The section itself: the layer its list comes from, an error that ends it.
    pub section_changes: Vec<StepChange>,
    /// `consume_data`'s parts (the init stage).
    pub consume: Vec<StepChange>,
    /// Modules that start or stop running, are listed or not, ….
    pub modules: Vec<ModuleChange>,
    /// Per module, the commands it runs.
    pub commands: Vec<ModuleCommands>,
}

impl StageDiff {
    /// No difference in this stage.
    pub fn is_empty(&self) -> bool {
        self.section_changes.is_empty()
            && self.consume.is_empty()
            && self.modules.is_empty()
            && self.commands.is_empty()
    }
}

/// The difference of two boot plans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanDiff {
    /// The stages that differ, in boot order.
    pub stages: Vec<StageDiff>,
    /// The plans' notes (what cloudfold cannot predict, warnings outside modules).
    pub notes: Vec<StepChange>,
}

impl PlanDiff {
    /// The two plans do the same.
    pub fn is_empty(&self) -> bool {
        self.stages.is_empty() && self.notes.is_empty()
    }
}

/// The difference of two boot plans (made with the same options), within
/// `budget` steps of alignment.
///
/// ```
/// use cloudfold::diff::{Budget, StepOp, diff_plans};
/// use cloudfold::layers::{ImageProfile, LayerInputs, fold_layers};
/// use cloudfold::plan::{PlanOptions, plan};
/// use cloudfold::userdata::{NoIncludes, Release, UserDataOptions};
/// let boot = |user_data: &str| {
///     let inputs = LayerInputs {
///         etc: Some(ImageProfile::Debian13.etc_cloud(Release::V25_1)),
///         user_data: Some(user_data.as_bytes().to_vec()),
///         ..LayerInputs::default()
///     };
///     let l = fold_layers(&inputs, &UserDataOptions::default(), &NoIncludes).unwrap();
///     plan(&l, &PlanOptions::default())
/// };
/// let old = boot("#cloud-config\nruncmd: [a, c]\n");
/// let new = boot("#cloud-config\nruncmd: [a, b, c]\n");
/// let d = diff_plans(&old, &new, &mut Budget::new(1_000_000));
/// let runcmd = d.stages.iter().flat_map(|s| &s.commands).find(|c| c.module == "runcmd").unwrap();
/// assert_eq!(runcmd.changes.len(), 1);
/// assert_eq!(runcmd.changes[0].op, StepOp::Added);
/// assert_eq!(runcmd.changes[0].new.as_ref().unwrap().summary, "b");
/// assert!(diff_plans(&old, &old, &mut Budget::new(1_000_000)).is_empty());
/// ```
pub fn diff_plans(old: &BootPlan, new: &BootPlan, budget: &mut Budget) -> PlanDiff {
    let mut stages = Vec::new();
    let n = old.stages.len().max(new.stages.len());
    for i in 0..n {
        let (a, b) = (old.stages.get(i), new.stages.get(i));
        let Some(stage) = a.or(b).map(|s| s.stage) else {
            continue;
        };
        let d = stage_diff(stage, a, b, budget);
        if !d.is_empty() {
            stages.push(d);
        }
    }
    let notes = |p: &BootPlan| -> Vec<Step> {
        p.notes
            .iter()
            .map(|n| Step::new("note", "", n.clone()))
            .collect()
    };
    PlanDiff {
        stages,
        notes: diff_steps(&notes(old), &notes(new), budget),
    }
}

fn stage_diff(
    stage: Stage,
    a: Option<&StagePlan>,
    b: Option<&StagePlan>,
    budget: &mut Budget,
) -> StageDiff {
    let consume = |s: Option<&StagePlan>| -> Vec<Step> {
        let Some(c) = s.and_then(|s| s.consume.as_ref()) else {
            return Vec::new();
        };
        let mut v = vec![Step::new(
            "consume_data",
            "",
            match &c.stopped {
                Some(why) => format!("{} ({why})", c.frequency),
                None => c.frequency.to_string(),
            },
        )];
        v.extend(c.parts.iter().map(part_step));
        v
    };
    let section = |s: Option<&StagePlan>| -> Vec<Step> {
        let Some(sec) = s.and_then(|s| s.section.as_ref()) else {
            return Vec::new();
        };
        let mut v = Vec::new();
        if let Some((_, label)) = &sec.list_from {
            v.push(Step::new("list_from", sec.key, label.clone()));
        }
        if let Some(e) = &sec.error {
            v.push(Step::new("section_error", sec.key, e.clone()));
        }
        v
    };
    let (ma, mb) = (modules_of(a), modules_of(b));
    let (modules, commands) = modules_diff(ma, mb, budget);
    StageDiff {
        stage,
        section: stage.section(),
        section_changes: diff_steps(&section(a), &section(b), budget),
        consume: diff_steps(&consume(a), &consume(b), budget),
        modules,
        commands,
    }
}

fn modules_of(s: Option<&StagePlan>) -> &[ModuleStep] {
    s.and_then(|s| s.section.as_ref())
        .map_or(&[][..], |sec: &SectionPlan| &sec.modules[..])
}

fn part_step(p: &PartStep) -> Step {
    let handler = p.handler.map_or(String::new(), |h| format!(" by {h}"));
    let (effect, body) = match &p.effect {
        PartEffect::Merged => ("merged".to_owned(), String::new()),
        PartEffect::Skipped(w) => (format!("skipped: {w}"), String::new()),
        PartEffect::WritesScript { path, run_by } => (
            match run_by {
                Some(m) => format!("writes {path}, run by {m}"),
                None => format!("writes {path}, run by nothing"),
            },
            String::new(),
        ),
        PartEffect::RunsBoothook { path, text } => (format!("runs boothook {path}"), text.clone()),
        PartEffect::Fails(e) => (format!("fails: {e}"), String::new()),
        PartEffect::RegistersHandler { path } => {
            (format!("registers part-handler {path}"), String::new())
        }
        PartEffect::Ignored(w) => (format!("ignored: {w}"), String::new()),
    };
    Step::new(
        "part",
        format!("{} {}", p.payload.code(), p.filename),
        format!("{}{handler}: {effect}", p.content_type),
    )
    .with_body(body)
}

/// The lines of a text, each without its newline.
fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
        .map(|l| l.strip_suffix('\n').unwrap_or(l))
}

/// What one module does, as steps.
fn action_steps(actions: &[crate::plan::Action]) -> Vec<Step> {
    let mut v = Vec::new();
    for a in actions {
        match a {
            Action::RunShell { script } => {
                v.extend(lines_of(script).map(|l| Step::new("line", "", l)));
            }
            Action::WriteScript { path, script } => {
                v.push(Step::new("script", path.clone(), "written (0700)"));
                v.extend(lines_of(script).map(|l| Step::new("line", "", l)));
            }
            Action::WriteFile(f) => {
                let mut s = format!("mode {:04o}", f.permissions);
                if let Some(o) = &f.owner {
                    s.push_str(&format!(", owner {o}"));
                }
                if let Some(g) = &f.group {
                    s.push_str(&format!(", group {g}"));
                }
                s.push_str(&format!(", {}", f.encoding));
                if f.append {
                    s.push_str(", appended");
                }
                if f.deferred {
                    s.push_str(", deferred");
                }
                s.push_str(&format!(", {} bytes", f.content.len()));
                v.push(
                    Step::new("write_file", f.path.clone(), s)
                        .with_body(String::from_utf8_lossy(&f.content)),
                );
            }
            Action::SkipFile { entry, why } => {
                v.push(Step::new(
                    "skip_file",
                    format!("entry {entry}"),
                    why.clone(),
                ));
            }
            Action::RunParts {
                dir,
                prefix,
                exists,
                entries,
            } => {
                let mut s = if *exists {
                    "runs".to_owned()
                } else {
                    "does not exist".to_owned()
                };
                if !prefix.is_empty() {
                    s.push_str(&format!(" with prefix {}", prefix.join(" ")));
                }
                v.push(Step::new("run_parts", dir.clone(), s));
                for e in entries {
                    let s = match (&e.why_not, e.runs) {
                        (Some(w), _) => format!("not run: {w}"),
                        (None, true) => "runs".to_owned(),
                        (None, false) => "not run".to_owned(),
                    };
                    v.push(
                        Step::new("run_part", e.name.clone(), s)
                            .with_body(e.text.clone().unwrap_or_default()),
                    );
                }
            }
            Action::Packages {
                update,
                upgrade,
                install,
                reboot_if_required,
            } => {
                v.push(Step::new(
                    "packages",
                    "",
                    format!(
                        "update {update}, upgrade {upgrade}, reboot if required {reboot_if_required}"
                    ),
                ));
                v.extend(install.iter().map(|p| Step::new("package", "", p.clone())));
            }
            Action::Groups(groups) => {
                v.extend(
                    groups
                        .iter()
                        .map(|(g, m)| Step::new("group", g.clone(), m.join(", "))),
                );
            }
            Action::Users(users) => {
                for u in users {
                    let s: Vec<String> = u
                        .settings
                        .iter()
                        .map(|(k, val)| format!("{k}: {val}"))
                        .collect();
                    let mut summary = s.join(", ");
                    if u.default {
                        summary.insert_str(0, if s.is_empty() { "default" } else { "default, " });
                    }
                    v.push(Step::new("user", u.name.clone(), summary));
                }
            }
            Action::PowerState {
                mode,
                delay,
                message,
                timeout,
                condition,
            } => {
                let msg = message
                    .as_ref()
                    .map_or(String::new(), |m| format!(", message {m:?}"));
                v.push(Step::new(
                    "power_state",
                    "",
                    format!("{mode}, delay {delay}, timeout {timeout}, condition {condition}{msg}"),
                ));
            }
            Action::Note(n) => v.push(Step::new("note", "", n.clone())),
        }
    }
    v
}

/// Class numbers of keys (equal keys alike, dense from 0).
fn number<'k>(a: &[&'k str], b: &[&'k str]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut num = |k: &'k str| {
        let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
        *ids.entry(k).or_insert(next)
    };
    let na = a.iter().map(|k| num(k)).collect();
    let nb = b.iter().map(|k| num(k)).collect();
    (na, nb)
}

/// `a` against `b`: the gaps between matched runs, as (removed, inserted) index lists.
fn gaps(a: &[&str], b: &[&str], budget: &mut Budget) -> Vec<(Vec<usize>, Vec<usize>)> {
    let (na, nb) = number(a, b);
    let runs = align_symmetric(&na, &nb, a, b, budget);
    let mut out = Vec::new();
    let (mut removed, mut inserted) = (Vec::new(), Vec::new());
    for r in runs {
        match r {
            Run::Removed { old, len } => removed.extend(old..old + len),
            Run::Inserted { new, len } => inserted.extend(new..new + len),
            Run::Same { .. } => {
                if !removed.is_empty() || !inserted.is_empty() {
                    out.push((std::mem::take(&mut removed), std::mem::take(&mut inserted)));
                }
            }
        }
    }
    if !removed.is_empty() || !inserted.is_empty() {
        out.push((removed, inserted));
    }
    out
}

/// Pair items of `left` with items of `right` with the same key, the k-th of
/// a key on one side with its k-th on the other (so the pairing is the same
/// seen from either side); the pairs, in `left`'s order.
fn pair_by<K: std::hash::Hash + Eq>(
    left: &[usize],
    right: &[usize],
    key_l: impl Fn(usize) -> Option<K>,
    key_r: impl Fn(usize) -> Option<K>,
) -> Vec<(usize, usize)> {
    let mut queues: HashMap<K, std::collections::VecDeque<usize>> = HashMap::new();
    for &j in right {
        if let Some(k) = key_r(j) {
            queues.entry(k).or_default().push_back(j);
        }
    }
    let mut out = Vec::new();
    for &i in left {
        if let Some(j) = key_l(i).and_then(|k| queues.get_mut(&k)?.pop_front()) {
            out.push((i, j));
        }
    }
    out
}

/// The steps of `b` against those of `a`.
pub(crate) fn diff_steps(a: &[Step], b: &[Step], budget: &mut Budget) -> Vec<StepChange> {
    if a == b {
        return Vec::new();
    }
    let ia: Vec<String> = a.iter().map(Step::identity).collect();
    let ib: Vec<String> = b.iter().map(Step::identity).collect();
    let ra: Vec<&str> = ia.iter().map(String::as_str).collect();
    let rb: Vec<&str> = ib.iter().map(String::as_str).collect();
    let hunks = gaps(&ra, &rb, budget);
    let all_removed: Vec<usize> = hunks.iter().flat_map(|h| h.0.iter().copied()).collect();
    let all_inserted: Vec<usize> = hunks.iter().flat_map(|h| h.1.iter().copied()).collect();
    // Moves: the same step elsewhere; then under another name.
    let mut moved_old: HashMap<usize, usize> = HashMap::new();
    let mut moved_new: HashMap<usize, usize> = HashMap::new();
    for (i, j) in pair_by(
        &all_removed,
        &all_inserted,
        |i| ra.get(i).copied(),
        |j| rb.get(j).copied(),
    ) {
        moved_old.insert(i, j);
        moved_new.insert(j, i);
    }
    let left: Vec<usize> = all_removed
        .iter()
        .copied()
        .filter(|i| !moved_old.contains_key(i))
        .collect();
    let right: Vec<usize> = all_inserted
        .iter()
        .copied()
        .filter(|j| !moved_new.contains_key(j))
        .collect();
    let named = |s: Option<&Step>| s.filter(|s| s.named()).map(Step::content);
    // (A named step found under another name, in place or not, is a move too: renamed.)
    for (i, j) in pair_by(&left, &right, |i| named(a.get(i)), |j| named(b.get(j))) {
        moved_old.insert(i, j);
        moved_new.insert(j, i);
    }
    let mut out = Vec::new();
    for (removed, inserted) in &hunks {
        let left: Vec<usize> = removed
            .iter()
            .copied()
            .filter(|i| !moved_old.contains_key(i))
            .collect();
        let right: Vec<usize> = inserted
            .iter()
            .copied()
            .filter(|j| !moved_new.contains_key(j))
            .collect();
        let label = |s: Option<&Step>| s.filter(|s| s.named()).map(|s| (s.kind, s.label.clone()));
        let changed: HashMap<usize, usize> =
            pair_by(&left, &right, |i| label(a.get(i)), |j| label(b.get(j)))
                .into_iter()
                .collect();
        let changed_new: std::collections::HashSet<usize> = changed.values().copied().collect();
        for &i in removed {
            if let Some(&j) = moved_old.get(&i) {
                out.push(StepChange {
                    op: StepOp::Moved,
                    old_index: Some(i),
                    new_index: Some(j),
                    old: a.get(i).cloned(),
                    new: b.get(j).cloned(),
                    lines: Vec::new(),
                });
            } else if let Some(&j) = changed.get(&i) {
                let (x, y) = (a.get(i), b.get(j));
                let lines = match (x, y) {
                    (Some(x), Some(y)) => line_changes(&x.body, &y.body, budget),
                    _ => Vec::new(),
                };
                out.push(StepChange {
                    op: StepOp::Changed,
                    old_index: Some(i),
                    new_index: Some(j),
                    old: x.cloned(),
                    new: y.cloned(),
                    lines,
                });
            } else {
                out.push(StepChange {
                    op: StepOp::Removed,
                    old_index: Some(i),
                    new_index: None,
                    old: a.get(i).cloned(),
                    new: None,
                    lines: Vec::new(),
                });
            }
        }
        for &j in inserted {
            if moved_new.contains_key(&j) || changed_new.contains(&j) {
                continue;
            }
            out.push(StepChange {
                op: StepOp::Added,
                old_index: None,
                new_index: Some(j),
                old: None,
                new: b.get(j).cloned(),
                lines: Vec::new(),
            });
        }
    }
    // A moved step whose old position is in no hunk cannot happen (moves
    // pair removed with inserted items); each is listed once, at its old place.
    out
}

/// The lines of `new` against those of `old`: removed and added.
fn line_changes(old: &str, new: &str, budget: &mut Budget) -> Vec<LineChange> {
    if old == new {
        return Vec::new();
    }
    let la: Vec<&str> = lines_of(old).collect();
    let lb: Vec<&str> = lines_of(new).collect();
    let mut out = Vec::new();
    for (removed, inserted) in gaps(&la, &lb, budget) {
        for i in removed {
            out.push(LineChange {
                added: false,
                old_line: Some(i),
                new_line: None,
                text: la.get(i).copied().unwrap_or_default().to_owned(),
            });
        }
        for j in inserted {
            out.push(LineChange {
                added: true,
                old_line: None,
                new_line: Some(j),
                text: lb.get(j).copied().unwrap_or_default().to_owned(),
            });
        }
    }
    out
}

/// The listed modules aligned by name: how each changed, and its commands.
fn modules_diff(
    a: &[ModuleStep],
    b: &[ModuleStep],
    budget: &mut Budget,
) -> (Vec<ModuleChange>, Vec<ModuleCommands>) {
    let na: Vec<&str> = a.iter().map(|m| m.name.as_str()).collect();
    let nb: Vec<&str> = b.iter().map(|m| m.name.as_str()).collect();
    let (ca, cb) = number(&na, &nb);
    let runs = align_symmetric(&ca, &cb, &na, &nb, budget);
    let mut changes = Vec::new();
    let mut commands = Vec::new();
    let mut entries: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    for r in runs {
        match r {
            Run::Same { old, new, len } => {
                entries.extend((0..len).map(|d| (Some(old + d), Some(new + d))));
            }
            Run::Removed { old, len } => entries.extend((old..old + len).map(|i| (Some(i), None))),
            Run::Inserted { new, len } => entries.extend((new..new + len).map(|j| (None, Some(j)))),
        }
    }
    for (i, j) in entries {
        let (x, y) = (i.and_then(|i| a.get(i)), j.and_then(|j| b.get(j)));
        let Some(name) = x.or(y).map(|m| m.name.clone()) else {
            continue;
        };
        let (sx, sy) = (x.map(ModuleState::of), y.map(ModuleState::of));
        let mut change = |op: ModuleOp| {
            changes.push(ModuleChange {
                op,
                name: name.clone(),
                old_index: i,
                new_index: j,
                old: sx.clone(),
                new: sy.clone(),
            });
        };
        match (&sx, &sy) {
            (Some(_), None) => change(ModuleOp::Unlisted),
            (None, Some(_)) => change(ModuleOp::Listed),
            (Some(p), Some(q)) => {
                if p.runs && !q.runs {
                    change(ModuleOp::Stops);
                } else if !p.runs && q.runs {
                    change(ModuleOp::Starts);
                } else if p.reason != q.reason && !p.runs {
                    change(ModuleOp::Reason);
                }
                if p.frequency != q.frequency {
                    change(ModuleOp::Frequency);
                }
                if p.fails != q.fails {
                    change(ModuleOp::Fails);
                }
            }
            (None, None) => {}
        }
        let steps = |m: Option<&ModuleStep>| m.map_or(Vec::new(), |m| action_steps(&m.actions));
        let c = diff_steps(&steps(x), &steps(y), budget);
        if !c.is_empty() {
            commands.push(ModuleCommands {
                module: name,
                changes: c,
            });
        }
    }
    (changes, commands)
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<Step> {
        v.iter().map(|l| Step::new("line", "", *l)).collect()
    }

    fn ops(c: &[StepChange]) -> Vec<(StepOp, Option<usize>, Option<usize>)> {
        c.iter().map(|c| (c.op, c.old_index, c.new_index)).collect()
    }

    #[test]
    fn an_inserted_line_is_one_addition() {
        let mut b = Budget::new(1_000);
        let d = diff_steps(
            &lines(&["a", "b", "c"]),
            &lines(&["a", "x", "b", "c"]),
            &mut b,
        );
        assert_eq!(ops(&d), [(StepOp::Added, None, Some(1))]);
    }

    #[test]
    fn a_swap_is_a_move_and_its_mirror() {
        let mut b = Budget::new(1_000);
        let (x, y) = (lines(&["a", "b", "c"]), lines(&["b", "a", "c"]));
        let d = diff_steps(&x, &y, &mut b);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].op, StepOp::Moved);
        let back = diff_steps(&y, &x, &mut b);
        assert_eq!(back.len(), 1);
        assert_eq!(
            (back[0].old_index, back[0].new_index),
            (d[0].new_index, d[0].old_index)
        );
    }

    #[test]
    fn a_renamed_script_moves_and_a_rewritten_one_changes() {
        let s = |name: &str, text: &str| Step::new("run_part", name, "runs").with_body(text);
        let mut b = Budget::new(1_000);
        let d = diff_steps(
            &[s("01-a", "echo a\n"), s("50-b", "echo b\n")],
            &[s("50-b", "echo b\n"), s("99-a", "echo a\n")],
            &mut b,
        );
        assert_eq!(ops(&d), [(StepOp::Moved, Some(0), Some(1))]);
        let d = diff_steps(
            &[s("01-a", "echo a\n")],
            &[s("01-a", "echo a\necho more\n")],
            &mut b,
        );
        assert_eq!(ops(&d), [(StepOp::Changed, Some(0), Some(0))]);
        assert_eq!(d[0].lines.len(), 1);
        assert_eq!(d[0].lines[0].text, "echo more");
    }
}
