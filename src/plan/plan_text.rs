//! `plan_text`: a [`BootPlan`] as the text timeline `cloudfold plan` prints — stage by stage, parts, then each listed module with its frequency and what it does or why it does not run.

use super::action::{Action, FileWrite};
use super::boot_plan::{BootPlan, ModuleStep, PartEffect, PartStep, StagePlan};
use super::module_meta::ModuleTable;
use crate::userdata::Release;
use std::fmt::Write as _;

/// The plan as text. `select`: only the modules it [`selects`], with their
/// actions.
pub fn to_text(p: &BootPlan, select: Option<&str>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# cloud-init {}: {} boot of instance {} (distro {})",
        p.release.as_str(),
        p.boot.as_str(),
        p.instance_id,
        if p.distro.is_empty() { "?" } else { &p.distro }
    );
    for st in &p.stages {
        stage(&mut out, st, select, p.release);
    }
    if select.is_none() && !p.notes.is_empty() {
        out.push_str("\nnotes:\n");
        for n in &p.notes {
            let _ = writeln!(out, "  - {n}");
        }
    }
    out
}

/// Whether a module entry matches `--select`: its name as listed or as the
/// `cc_` module (`-` and `_` alike), or a config key among its activation
/// keys (`packages` selects `package-update-upgrade-install`, `write_files`
/// both `write-files` and `write-files-deferred`).
pub fn selects(m: &ModuleStep, select: &str, release: Release) -> bool {
    let canon = |s: &str| s.trim().replace('-', "_");
    let want = canon(select);
    let want_cc = want.strip_prefix("cc_").unwrap_or(&want).to_owned();
    canon(&m.name) == want
        || m.module.as_deref().is_some_and(|cc| {
            cc.strip_prefix("cc_").unwrap_or(cc) == want_cc
                || ModuleTable::of(release)
                    .find(cc)
                    .is_some_and(|meta| meta.activate_by.contains(&select.trim()))
        })
}

fn stage(out: &mut String, st: &StagePlan, select: Option<&str>, release: Release) {
    let _ = writeln!(out, "\n== {} ({})", st.stage.as_str(), st.stage.command());
    if let Some(c) = st.consume.as_ref().filter(|_| select.is_none()) {
        let _ = writeln!(out, "  consume_data ({})", c.frequency);
        for p in &c.parts {
            part(out, p);
        }
        if let Some(s) = &c.stopped {
            let _ = writeln!(out, "    stopped: {s}");
        }
    }
    let Some(sec) = &st.section else {
        if select.is_none() {
            out.push_str("  (no module list: cloud-init finds the datasource and applies network config; not planned)\n");
        }
        return;
    };
    let from = sec
        .list_from
        .as_ref()
        .map(|(layer, file)| {
            if file.is_empty() {
                format!(" from {}", layer.code())
            } else {
                format!(" from {file}")
            }
        })
        .unwrap_or_default();
    let _ = writeln!(out, "  {}{from}", sec.key);
    if let Some(e) = &sec.error {
        let _ = writeln!(out, "    section fails, no module runs: {e}");
    }
    let width = sec
        .modules
        .iter()
        .map(|m| m.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(32);
    for m in &sec.modules {
        if select.is_some_and(|s| !selects(m, s, release)) {
            continue;
        }
        module(out, m, width);
    }
}

fn part(out: &mut String, p: &PartStep) {
    let what = match &p.effect {
        PartEffect::Merged => "merged into the config".to_owned(),
        PartEffect::Skipped(why) => format!("skipped: {why}"),
        PartEffect::WritesScript { path, run_by } => match run_by {
            Some(m) => format!("writes {path} (run by {m})"),
            None => format!("writes {path} (nothing runs it)"),
        },
        PartEffect::RunsBoothook { path, .. } => format!("writes {path} and runs it now"),
        PartEffect::Fails(e) => format!("handler fails: {e}"),
        PartEffect::RegistersHandler { path } => {
            format!("registers a part-handler ({path})")
        }
        PartEffect::Ignored(why) => format!("ignored: {why}"),
    };
    let _ = writeln!(
        out,
        "    {} part {} ({}) {}: {what}",
        p.payload.code(),
        p.number,
        p.filename,
        p.content_type
    );
    if let PartEffect::RunsBoothook { text, .. } = &p.effect {
        block(out, text, 6);
    }
}

fn module(out: &mut String, m: &ModuleStep, width: usize) {
    let freq = match m.frequency {
        Some(f) if f.as_str().is_empty() => "''".to_owned(),
        Some(f) => f.as_str().to_owned(),
        None => "-".to_owned(),
    };
    let status = match (&m.skip, m.runs, &m.fails) {
        (Some(s), _, _) => format!("skip: {}", s.reason()),
        (None, true, Some(e)) => format!("runs, fails: {e}"),
        (None, true, None) => "runs".to_owned(),
        (None, false, Some(e)) => format!("does not run: {e}"),
        (None, false, None) => "does not run".to_owned(),
    };
    let _ = writeln!(out, "    {:<width$}  {freq:<17}  {status}", m.name);
    for w in &m.warnings {
        let _ = writeln!(out, "      warning: {w}");
    }
    for a in &m.actions {
        action(out, a);
    }
}

fn action(out: &mut String, a: &Action) {
    match a {
        Action::RunShell { script } => {
            out.push_str("      runs now (/bin/sh):\n");
            block(out, script, 8);
        }
        Action::WriteScript { path, script } => {
            let _ = writeln!(out, "      writes {path} (scripts_user runs it):");
            block(out, script, 8);
        }
        Action::WriteFile(f) => write_file(out, f),
        Action::SkipFile { entry, why } => {
            let _ = writeln!(out, "      entry {entry}: skipped: {why}");
        }
        Action::RunParts {
            dir,
            prefix,
            exists,
            entries,
        } => {
            let pre = if prefix.is_empty() {
                String::new()
            } else {
                format!(" with prefix {}", prefix.join(" "))
            };
            if !exists {
                let _ = writeln!(
                    out,
                    "      run-parts {dir}{pre}: no such directory, nothing runs"
                );
                return;
            }
            if entries.is_empty() {
                let _ = writeln!(out, "      run-parts {dir}{pre}: empty");
                return;
            }
            let _ = writeln!(out, "      run-parts {dir}{pre}, in this order:");
            for e in entries {
                match (&e.why_not, &e.text) {
                    (Some(w), _) => {
                        let _ = writeln!(out, "        {}: not run ({w})", e.name);
                    }
                    (None, Some(t)) => {
                        let _ = writeln!(out, "        {}:", e.name);
                        block(out, t, 10);
                    }
                    (None, None) => {
                        let _ = writeln!(out, "        {}", e.name);
                    }
                }
            }
        }
        Action::Packages {
            update,
            upgrade,
            install,
            reboot_if_required,
        } => {
            let _ = writeln!(
                out,
                "      packages: update {update}, upgrade {upgrade}, install [{}], reboot if required {reboot_if_required}",
                install.join(", ")
            );
        }
        Action::Groups(g) => {
            for (name, members) in g {
                let _ = writeln!(out, "      group {name}: members [{}]", members.join(", "));
            }
        }
        Action::Users(u) => {
            for user in u {
                let settings: Vec<String> = user
                    .settings
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "      user {}{}{}",
                    user.name,
                    if user.default {
                        " (the image's default user)"
                    } else {
                        ""
                    },
                    if settings.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", settings.join(", "))
                    }
                );
            }
        }
        Action::PowerState {
            mode,
            delay,
            message,
            timeout,
            condition,
        } => {
            let _ = writeln!(
                out,
                "      after the final stage: {mode} (delay {delay}, timeout {timeout}, condition {condition}){}",
                message
                    .as_ref()
                    .map(|m| format!(", message {m:?}"))
                    .unwrap_or_default()
            );
        }
        Action::Note(n) => {
            let _ = writeln!(out, "      note: {n}");
        }
    }
}

fn write_file(out: &mut String, f: &FileWrite) {
    let owner = match (&f.owner, &f.group) {
        (None, None) => String::new(),
        (o, g) => format!(
            ", owner {}:{}",
            o.as_deref().unwrap_or("-"),
            g.as_deref().unwrap_or("-")
        ),
    };
    let _ = writeln!(
        out,
        "      {} {} (mode {:04o}{owner}, encoding {}{}):",
        if f.append { "appends to" } else { "writes" },
        f.path,
        f.permissions,
        f.encoding,
        if f.deferred { ", deferred" } else { "" }
    );
    match std::str::from_utf8(&f.content) {
        Ok(t) => block(out, t, 8),
        Err(_) => {
            let _ = writeln!(out, "        ({} bytes, not UTF-8)", f.content.len());
        }
    }
}

/// A text indented, each line after `| ` (a missing final newline said so).
fn block(out: &mut String, text: &str, indent: usize) {
    let pad = " ".repeat(indent);
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        if lines.peek().is_none() {
            if !line.is_empty() {
                let _ = writeln!(out, "{pad}| {line}");
                let _ = writeln!(out, "{pad}(no newline at the end)");
            }
            break;
        }
        let _ = writeln!(out, "{pad}| {line}");
    }
}
