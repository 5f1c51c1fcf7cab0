//! `plan_diff_text` / `plan_diff_json`: a [`PlanDiff`] for people (stage by stage, `+`/`-`/`~`/`>` lines) and as the `cloudfold-plan-diff/1` JSON document.

use super::plan_diff::{ModuleChange, ModuleOp, ModuleState, PlanDiff, Step, StepChange, StepOp};
use super::text_view::Palette;
use crate::plan::BootPlan;
use serde_json::{Value as J, json};
use std::fmt::Write as _;

fn what(s: &Step) -> String {
    if s.label.is_empty() {
        format!("{}: {}", s.kind, s.summary)
    } else {
        format!("{} {}: {}", s.kind, s.label, s.summary)
    }
}

fn pos(i: Option<usize>) -> String {
    i.map_or_else(|| "-".to_owned(), |i| format!("#{}", i + 1))
}

fn step_lines(out: &mut String, indent: &str, changes: &[StepChange], p: Palette) {
    for c in changes {
        let (o, n) = (c.old.as_ref(), c.new.as_ref());
        let _ = match (c.op, o, n) {
            (StepOp::Added, _, Some(n)) => writeln!(
                out,
                "{indent}{}+ {}{}  {}({}){}",
                p.green,
                what(n),
                p.reset,
                p.dim,
                pos(c.new_index),
                p.reset
            ),
            (StepOp::Removed, Some(o), _) => writeln!(
                out,
                "{indent}{}- {}{}  {}({}){}",
                p.red,
                what(o),
                p.reset,
                p.dim,
                pos(c.old_index),
                p.reset
            ),
            (StepOp::Moved, Some(o), Some(n)) => {
                let renamed = if o.label == n.label {
                    String::new()
                } else {
                    format!(", was {}", o.label)
                };
                writeln!(
                    out,
                    "{indent}{}> {}{}  {}(moved {} -> {}{renamed}){}",
                    p.yellow,
                    what(n),
                    p.reset,
                    p.dim,
                    pos(c.old_index),
                    pos(c.new_index),
                    p.reset
                )
            }
            (StepOp::Changed, Some(o), Some(n)) => {
                let was = if o.summary == n.summary {
                    String::new()
                } else {
                    format!("  {}# was: {}{}", p.dim, o.summary, p.reset)
                };
                let _ = writeln!(
                    out,
                    "{indent}{}~ {}{}{was}  {}({} -> {}){}",
                    p.yellow,
                    what(n),
                    p.reset,
                    p.dim,
                    pos(c.old_index),
                    pos(c.new_index),
                    p.reset
                );
                for l in &c.lines {
                    let (colour, sign, at) = if l.added {
                        (p.green, '+', l.new_line)
                    } else {
                        (p.red, '-', l.old_line)
                    };
                    let _ = writeln!(
                        out,
                        "{indent}    {colour}{sign} {}{}  {}(line {}){}",
                        l.text,
                        p.reset,
                        p.dim,
                        at.map_or(0, |a| a + 1),
                        p.reset
                    );
                }
                Ok(())
            }
            _ => Ok(()),
        };
    }
}

fn module_line(out: &mut String, m: &ModuleChange, p: Palette) {
    let reason = |s: &Option<ModuleState>| s.as_ref().map_or(String::new(), |s| s.reason.clone());
    let was = |s: String| format!("  {}# was: {s}{}", p.dim, p.reset);
    let (colour, sign, text) = match m.op {
        ModuleOp::Starts => (
            p.green,
            '+',
            format!("{} starts running: {}", m.name, reason(&m.new)),
        ),
        ModuleOp::Stops => (
            p.red,
            '-',
            format!("{} stops running: {}", m.name, reason(&m.new)),
        ),
        ModuleOp::Listed => (
            p.green,
            '+',
            format!("{} newly listed: {}", m.name, reason(&m.new)),
        ),
        ModuleOp::Unlisted => (p.red, '-', format!("{} no longer listed", m.name)),
        ModuleOp::Reason => (
            p.yellow,
            '~',
            format!("{} still skipped: {}", m.name, reason(&m.new)),
        ),
        ModuleOp::Frequency | ModuleOp::Fails => {
            // A property of the module that changed: its new value, the old after `# was:`.
            type Get = fn(&ModuleState) -> Option<String>;
            let (what, none, get): (&str, &str, Get) = if m.op == ModuleOp::Frequency {
                ("frequency ", "none", |s| {
                    s.frequency.map(|f| format!("{f:?}"))
                })
            } else {
                ("fails: ", "does not fail", |s| s.fails.clone())
            };
            let value = |s: &Option<ModuleState>| {
                s.as_ref().and_then(get).unwrap_or_else(|| none.to_owned())
            };
            let _ = writeln!(
                out,
                "    {}~ {} {what}{}{}{}",
                p.yellow,
                m.name,
                value(&m.new),
                p.reset,
                was(value(&m.old))
            );
            return;
        }
    };
    let tail = match m.op {
        ModuleOp::Listed => String::new(),
        _ => was(reason(&m.old)),
    };
    let _ = writeln!(out, "    {colour}{sign} {text}{}{tail}", p.reset);
}

/// The difference of two boot plans as text: a heading per stage that
/// differs, then its section, `consume_data`'s parts, the modules that start
/// or stop running (the new reason, and the old after `# was:`), and each
/// module's commands (`+` added, `-` removed, `>` moved, `~` changed with its
/// text's lines). `about` is one of the plans (the release and boot shown).
pub fn plan_diff_text(d: &PlanDiff, about: &BootPlan, names: (&str, &str), p: Palette) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}--- {}{}", p.bold, names.0, p.reset);
    let _ = writeln!(out, "{}+++ {}{}", p.bold, names.1, p.reset);
    if d.is_empty() {
        let _ = writeln!(
            out,
            "no change in the boot plan (cloud-init {}, {} boot)",
            about.release.as_str(),
            about.boot.as_str()
        );
        return out;
    }
    let _ = writeln!(
        out,
        "boot plan changes (cloud-init {}, {} boot):",
        about.release.as_str(),
        about.boot.as_str()
    );
    for s in &d.stages {
        let _ = match s.section {
            Some(sec) => writeln!(
                out,
                "{}stage {} ({sec}):{}",
                p.bold,
                s.stage.as_str(),
                p.reset
            ),
            None => writeln!(out, "{}stage {}:{}", p.bold, s.stage.as_str(), p.reset),
        };
        if !s.section_changes.is_empty() {
            out.push_str("  section:\n");
            step_lines(&mut out, "    ", &s.section_changes, p);
        }
        if !s.consume.is_empty() {
            out.push_str("  consume_data:\n");
            step_lines(&mut out, "    ", &s.consume, p);
        }
        if !s.modules.is_empty() {
            out.push_str("  modules:\n");
            for m in &s.modules {
                module_line(&mut out, m, p);
            }
        }
        for c in &s.commands {
            let _ = writeln!(out, "  {}:", c.module);
            step_lines(&mut out, "    ", &c.changes, p);
        }
    }
    if !d.notes.is_empty() {
        let _ = writeln!(out, "{}notes:{}", p.bold, p.reset);
        step_lines(&mut out, "  ", &d.notes, p);
    }
    out
}

fn step_json(s: Option<&Step>) -> J {
    s.map_or(J::Null, |s| {
        json!({
            "kind": s.kind,
            "label": s.label,
            "summary": s.summary,
            "body": s.body,
        })
    })
}

fn changes_json(v: &[StepChange]) -> J {
    J::Array(
        v.iter()
            .map(|c| {
                json!({
                    "op": c.op.as_str(),
                    "old_index": c.old_index,
                    "new_index": c.new_index,
                    "old": step_json(c.old.as_ref()),
                    "new": step_json(c.new.as_ref()),
                    "lines": c.lines.iter().map(|l| json!({
                        "op": if l.added { "add" } else { "remove" },
                        "old_line": l.old_line,
                        "new_line": l.new_line,
                        "text": l.text,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

fn state_json(s: Option<&ModuleState>) -> J {
    s.map_or(J::Null, |s| {
        json!({
            "runs": s.runs,
            "reason": s.reason,
            "skip": s.skip,
            "frequency": s.frequency,
            "fails": s.fails,
        })
    })
}

/// The difference of two boot plans as one JSON document,
/// `"format": "cloudfold-plan-diff/1"` (README: "diff --plan --format json").
pub fn plan_diff_json(d: &PlanDiff, about: &BootPlan) -> J {
    let stages: Vec<J> = d
        .stages
        .iter()
        .map(|s| {
            json!({
                "stage": s.stage.as_str(),
                "section": s.section,
                "section_changes": changes_json(&s.section_changes),
                "consume_data": changes_json(&s.consume),
                "modules": s.modules.iter().map(|m| json!({
                    "op": m.op.as_str(),
                    "module": m.name,
                    "old_index": m.old_index,
                    "new_index": m.new_index,
                    "old": state_json(m.old.as_ref()),
                    "new": state_json(m.new.as_ref()),
                })).collect::<Vec<_>>(),
                "commands": s.commands.iter().map(|c| json!({
                    "module": c.module,
                    "changes": changes_json(&c.changes),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "format": "cloudfold-plan-diff/1",
        "same": d.is_empty(),
        "release": about.release.as_str(),
        "boot": about.boot.as_str(),
        "stages": stages,
        "notes": changes_json(&d.notes),
    })
}
