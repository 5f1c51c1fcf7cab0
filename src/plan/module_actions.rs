//! `module_actions`: what a running module's `handle` does with the config — for the modules that run commands or write files, exactly; for packages, users and power state, what they are asked to do.

use super::action::{Action, RunPart};
use super::cloud_fs::{CloudFs, FsEntry, dirname};
use super::cloud_util::{encode_text, get_cfg_by_path, get_cfg_option_bool, get_cfg_option_list};
use super::shellify::shellify;
use super::users::normalize_users_groups;
use super::write_files::write_files;
use crate::layers::Layered;
use crate::yaml::value::{Node, Value, py_str};

/// A module's run: its actions, and the exception its `handle` raised.
#[derive(Debug, Default)]
pub(super) struct ModuleRun {
    /// In order.
    pub actions: Vec<Action>,
    /// The exception (cloud-init logs it; the section goes on).
    pub error: Option<String>,
}

impl ModuleRun {
    fn fail(e: String) -> ModuleRun {
        ModuleRun {
            actions: Vec::new(),
            error: Some(e),
        }
    }
}

/// Run `cc_<module>.handle` against `cfg` (listed as `name`).
pub(super) fn module_actions(
    module: &str,
    name: &str,
    cfg: &Node,
    layered: &Layered,
    fs: &mut CloudFs,
) -> ModuleRun {
    let get = |k: &str| cfg.as_map().and_then(|m| m.get_str(k));
    match module {
        "bootcmd" => {
            let Some(v) = get("bootcmd") else {
                return ModuleRun::default();
            };
            match shellify(v)
                .map_err(|e| e.to_string())
                .and_then(|s| encode_text(&s).map(|_| s))
            {
                Ok(s) => ModuleRun {
                    actions: vec![Action::RunShell {
                        script: s.to_string_lossy().into_owned(),
                    }],
                    error: None,
                },
                Err(e) => ModuleRun::fail(format!("Failed to shellify bootcmd: {e}")),
            }
        }
        "runcmd" => {
            let Some(v) = get("runcmd") else {
                return ModuleRun::default();
            };
            let path = format!("{}/runcmd", fs.ipath("scripts"));
            let failed = |e: String| {
                let kind = e.split(':').next().unwrap_or("TypeError").to_owned();
                ModuleRun::fail(format!(
                    "{kind}: Failed to shellify {} into file {path}",
                    py_str(v)
                ))
            };
            let script = match shellify(v) {
                Ok(s) => s,
                Err(e) => return failed(format!("TypeError: {e}")),
            };
            if let Err(e) = fs.ensure_dir(&dirname(&path)) {
                return failed(e.to_string());
            }
            let bytes = match encode_text(&script) {
                Ok(b) => b,
                // `type(e)(msg)` cannot build a UnicodeEncodeError from one argument.
                Err(_) => {
                    return ModuleRun::fail(
                        "TypeError: function takes exactly 5 arguments (1 given)".into(),
                    );
                }
            };
            if let Err(e) = fs.open_write(&path, &bytes, 0o700, false) {
                return failed(e.to_string());
            }
            ModuleRun {
                actions: vec![Action::WriteScript {
                    path,
                    script: script.to_string_lossy().into_owned(),
                }],
                error: None,
            }
        }
        "write_files" | "write_files_deferred" => {
            let r = write_files(cfg, module == "write_files_deferred", layered.release, fs);
            ModuleRun {
                actions: r.actions,
                error: r.error,
            }
        }
        "scripts_user" => runparts(fs, &fs.ipath_cur("scripts"), None),
        "scripts_per_boot" => runparts(fs, &fs.cpath("scripts/per-boot"), None),
        "scripts_per_instance" => runparts(fs, &fs.cpath("scripts/per-instance"), None),
        "scripts_per_once" => runparts(fs, &fs.cpath("scripts/per-once"), None),
        "scripts_vendor" => match get_cfg_by_path(cfg, &["vendor_data", "prefix"]) {
            Ok(prefix) => runparts(fs, &fs.ipath_cur("scripts/vendor"), Some(prefix)),
            Err(e) => ModuleRun::fail(e),
        },
        "package_update_upgrade_install" => packages(cfg),
        "users_groups" => {
            let du = layered
                .system_info
                .as_map()
                .and_then(|m| m.get_str("default_user"));
            match normalize_users_groups(cfg, du, layered.release) {
                Ok(ug) => {
                    let mut actions = Vec::new();
                    if !ug.groups.is_empty() {
                        actions.push(Action::Groups(ug.groups));
                    }
                    actions.push(Action::Users(ug.users));
                    ModuleRun {
                        actions,
                        error: None,
                    }
                }
                Err(e) => ModuleRun::fail(e.to_string()),
            }
        }
        "power_state_change" => power_state(get("power_state")),
        _ => {
            let _ = name;
            ModuleRun::default()
        }
    }
}

/// `subp.runparts(dir, exe_prefix=prefix)`: each entry of the directory in
/// Python's sorted order; regular files with an execute bit run.
fn runparts(fs: &CloudFs, dir: &str, prefix: Option<Option<Node>>) -> ModuleRun {
    let Some(names) = fs.listdir(dir) else {
        return ModuleRun {
            actions: vec![Action::RunParts {
                dir: dir.to_owned(),
                prefix: Vec::new(),
                exists: false,
                entries: Vec::new(),
            }],
            error: None,
        };
    };
    // get_cfg_by_path(..., []) then the type check of exe_prefix.
    let prefix: Vec<String> = match prefix {
        None | Some(None) => Vec::new(),
        Some(Some(p)) => match p.value() {
            Value::Null => Vec::new(),
            Value::Str(s) => vec![s.to_string_lossy().into_owned()],
            Value::Seq(items) => items
                .iter()
                .map(|i| py_str(i).to_string_lossy().into_owned())
                .collect(),
            _ => return ModuleRun::fail("TypeError: exe_prefix must be None, str, or list".into()),
        },
    };
    let entries = names
        .into_iter()
        .map(|name| {
            let path = format!("{dir}/{name}");
            let (runs, why_not, text) = match fs.get(&path) {
                Some(FsEntry::File { data, mode }) if mode & 0o111 != 0 => {
                    (true, None, Some(String::from_utf8_lossy(data).into_owned()))
                }
                Some(FsEntry::File { mode, .. }) => (
                    false,
                    Some(format!("not executable (mode {mode:04o})")),
                    None,
                ),
                _ => (false, Some("a directory".to_owned()), None),
            };
            RunPart {
                name,
                path,
                runs,
                why_not,
                text,
            }
        })
        .collect();
    ModuleRun {
        actions: vec![Action::RunParts {
            dir: dir.to_owned(),
            prefix,
            exists: true,
            entries,
        }],
        error: None,
    }
}

/// `cc_package_update_upgrade_install.handle`.
fn packages(cfg: &Node) -> ModuleRun {
    let any = |keys: &[&str]| -> Result<bool, String> {
        for k in keys {
            if get_cfg_option_bool(cfg, k, false)? {
                return Ok(true);
            }
        }
        Ok(false)
    };
    let run = || -> Result<Action, String> {
        let update = any(&["apt_update", "package_update"])?;
        let upgrade = any(&["package_upgrade", "apt_upgrade"])?;
        let reboot = any(&["apt_reboot_if_required", "package_reboot_if_required"])?;
        let install = get_cfg_option_list(cfg, "packages")?
            .iter()
            .map(package_name)
            .collect();
        Ok(Action::Packages {
            update: update || upgrade,
            upgrade,
            install,
            reboot_if_required: reboot,
        })
    };
    match run() {
        Ok(a) => ModuleRun {
            actions: vec![a],
            error: None,
        },
        Err(e) => ModuleRun::fail(e),
    }
}

/// A `packages` entry as the package manager is asked for it: `name`,
/// `[name, version]` as `name=version`, `{manager: [...]}` as written.
fn package_name(p: &Node) -> String {
    match p.value() {
        Value::Str(s) => s.to_string_lossy().into_owned(),
        Value::Seq(items) => match items.items() {
            [n, v] if v.is_truthy() => format!("{}={}", py_str(n), py_str(v)),
            [n, ..] => py_str(n).to_string_lossy().into_owned(),
            [] => "[]".to_owned(),
        },
        _ => py_str(p).to_string_lossy().into_owned(),
    }
}

/// `cc_power_state_change.load_power_state`: the shutdown command, or the
/// warning that stops it.
fn power_state(ps: Option<&Node>) -> ModuleRun {
    let note = |m: String| ModuleRun {
        actions: vec![Action::Note(m)],
        error: None,
    };
    let Some(ps) = ps.filter(|p| !p.is_null()) else {
        return ModuleRun::default();
    };
    let Some(m) = ps.as_map() else {
        return note("power_state is not a dict. Not performing power state change!".into());
    };
    let mode = m.get_str("mode").and_then(Node::as_str).unwrap_or("");
    if !matches!(mode, "halt" | "poweroff" | "reboot") {
        return note(format!(
            "power_state[mode] required, must be one of: halt,poweroff,reboot. found: '{}'. Not performing power state change!",
            m.get_str("mode").map_or_else(
                || "None".into(),
                |v| py_str(v).to_string_lossy().into_owned()
            )
        ));
    }
    let delay = match m.get_str("delay") {
        None => "now".to_owned(),
        Some(d) if d.as_str() == Some("now") => "now".to_owned(),
        Some(d) => match crate::userdata::py_int(d.value()) {
            Ok(i) => format!("+{i}"),
            Err(_) => match d.as_str().and_then(crate::userdata::int_from_str) {
                Some(i) => format!("+{i}"),
                None => {
                    return note(format!(
                        "power_state[delay] must be 'now' or '+m' (minutes). found '{}'. Not performing power state change!",
                        py_str(d)
                    ));
                }
            },
        },
    };
    let message = m
        .get_str("message")
        .filter(|v| v.is_truthy())
        .map(|v| py_str(v).to_string_lossy().into_owned());
    let timeout = m.get_str("timeout").map_or_else(
        || "30.0".to_owned(),
        |t| py_str(t).to_string_lossy().into_owned(),
    );
    let condition = m.get_str("condition").map_or_else(
        || "True".to_owned(),
        |c| py_str(c).to_string_lossy().into_owned(),
    );
    ModuleRun {
        actions: vec![Action::PowerState {
            mode: mode.to_owned(),
            delay,
            message,
            timeout,
            condition,
        }],
        error: None,
    }
}
