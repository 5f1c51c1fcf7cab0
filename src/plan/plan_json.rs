//! `plan_json`: a [`BootPlan`] as the JSON document of `cloudfold plan --format json` (README documents the schema).

use super::action::{Action, FileWrite, RunPart, UserPlan};
use super::boot_plan::{BootPlan, ConsumeData, ModuleStep, PartEffect, PartStep, StagePlan};
use serde_json::{Value as J, json};

/// An object with its fields in this order, each value a built [`J`]:
/// `json!` passes every field through `to_value`, which copies a value
/// already built, so nested objects were copied once per level.
macro_rules! obj {
    ({ $($k:literal : $v:expr),* $(,)? }) => {{
        let mut m = serde_json::Map::new();
        $( m.insert($k.to_owned(), $v); )*
        J::Object(m)
    }};
}

/// The plan as one JSON value: `{"format": "cloudfold-plan/1", "cloud_init",
/// "boot", "instance_id", "distro", "stages": [...], "notes": [...]}`.
pub fn to_json(p: &BootPlan) -> J {
    obj!({
        "format": json!("cloudfold-plan/1"),
        "cloud_init": json!(p.release.as_str()),
        "boot": json!(p.boot.as_str()),
        "instance_id": json!(p.instance_id),
        "distro": json!(p.distro),
        "stages": J::Array(p.stages.iter().map(stage).collect()),
        "notes": json!(p.notes),
    })
}

fn stage(s: &StagePlan) -> J {
    let sec = s.section.as_ref();
    obj!({
        "stage": json!(s.stage.as_str()),
        "command": json!(s.stage.command()),
        "consume_data": s.consume.as_ref().map_or(J::Null, consume),
        "section": json!(sec.map(|x| x.key)),
        "list_from": json!(sec.and_then(|x| x.list_from.as_ref()).map(|(layer, file)| {
            json!({"layer": layer.code(), "file": file})
        })),
        "error": json!(sec.and_then(|x| x.error.clone())),
        "modules": J::Array(sec.map(|x| x.modules.iter().map(module).collect()).unwrap_or_default()),
    })
}

fn consume(c: &ConsumeData) -> J {
    obj!({
        "frequency": json!(c.frequency.as_str()),
        "stopped": json!(c.stopped),
        "parts": J::Array(c.parts.iter().map(part).collect()),
    })
}

fn part(p: &PartStep) -> J {
    let (effect, detail) = match &p.effect {
        PartEffect::Merged => ("merged", json!({})),
        PartEffect::Skipped(why) => ("skipped", json!({"why": why})),
        PartEffect::WritesScript { path, run_by } => {
            ("writes-script", json!({"path": path, "run_by": run_by}))
        }
        PartEffect::RunsBoothook { path, text } => {
            ("runs-boothook", json!({"path": path, "text": text}))
        }
        PartEffect::Fails(e) => ("fails", json!({"error": e})),
        PartEffect::RegistersHandler { path } => ("registers-handler", json!({"path": path})),
        PartEffect::Ignored(why) => ("ignored", json!({"why": why})),
    };
    let mut j = json!({
        "payload": p.payload.code(),
        "part": p.number,
        "filename": p.filename,
        "content_type": p.content_type,
        "handler": p.handler,
        "effect": effect,
    });
    if let (Some(o), J::Object(d)) = (j.as_object_mut(), detail) {
        o.extend(d);
    }
    j
}

fn module(m: &ModuleStep) -> J {
    let reason = m
        .skip
        .as_ref()
        .map(super::boot_plan::Skip::reason)
        .or_else(|| m.fails.as_ref().filter(|_| !m.runs).cloned());
    obj!({
        "name": json!(m.name),
        "module": json!(m.module),
        "frequency": json!(m.frequency.map(|f| f.as_str())),
        "runs": json!(m.runs),
        "reason": json!(reason),
        "reason_code": json!(m.skip.as_ref().map(super::boot_plan::Skip::code)),
        "activated_by": json!(m.activated_by),
        "actions": J::Array(m.actions.iter().map(action).collect()),
        "error": json!(m.fails),
        "warnings": json!(m.warnings),
    })
}

fn action(a: &Action) -> J {
    match a {
        Action::RunShell { script } => json!({"action": "run-shell", "script": script}),
        Action::WriteScript { path, script } => {
            json!({"action": "write-script", "path": path, "script": script})
        }
        Action::WriteFile(f) => file(f),
        Action::SkipFile { entry, why } => {
            json!({"action": "skip-file", "entry": entry, "why": why})
        }
        Action::RunParts {
            dir,
            prefix,
            exists,
            entries,
        } => obj!({
            "action": json!("run-parts"),
            "dir": json!(dir),
            "prefix": json!(prefix),
            "exists": json!(exists),
            "entries": J::Array(entries.iter().map(run_part).collect()),
        }),
        Action::Packages {
            update,
            upgrade,
            install,
            reboot_if_required,
        } => json!({
            "action": "packages",
            "update": update,
            "upgrade": upgrade,
            "install": install,
            "reboot_if_required": reboot_if_required,
        }),
        Action::Groups(g) => obj!({
            "action": json!("groups"),
            "groups": J::Array(g.iter().map(|(n, m)| json!({"name": n, "members": m})).collect()),
        }),
        Action::Users(u) => obj!({
            "action": json!("users"),
            "users": J::Array(u.iter().map(user).collect()),
        }),
        Action::PowerState {
            mode,
            delay,
            message,
            timeout,
            condition,
        } => json!({
            "action": "power-state",
            "mode": mode,
            "delay": delay,
            "message": message,
            "timeout": timeout,
            "condition": condition,
        }),
        Action::Note(n) => json!({"action": "note", "text": n}),
    }
}

fn file(f: &FileWrite) -> J {
    let text = std::str::from_utf8(&f.content).ok();
    json!({
        "action": "write-file",
        "entry": f.entry,
        "path": f.path,
        "owner": f.owner,
        "group": f.group,
        "permissions": format!("{:04o}", f.permissions),
        "encoding": f.encoding,
        "append": f.append,
        "deferred": f.deferred,
        "content": text,
        "content_base64": if text.is_none() {
            Some(base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &f.content))
        } else {
            None
        },
    })
}

fn run_part(r: &RunPart) -> J {
    json!({
        "name": r.name,
        "path": r.path,
        "runs": r.runs,
        "why_not": r.why_not,
        "text": r.text,
    })
}

fn user(u: &UserPlan) -> J {
    obj!({
        "name": json!(u.name),
        "default": json!(u.default),
        "settings": J::Array(u.settings.iter().map(|(k, v)| json!([k, v])).collect()),
    })
}
