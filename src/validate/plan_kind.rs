//! `PlanKind`: boot-order traps — config that cloud-init runs, but not when or as often as the writer expects.

use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// A boot-order trap, found by looking at the merged user-data config and the
/// parts as `cloudfold plan` would run them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanKind {
    /// `plan-bootcmd-before-packages` (warning): a `bootcmd` command whose first word
    /// is a package the `packages` key installs. `bootcmd` runs in the init stage, every
    /// boot; `package-update-upgrade-install` runs in the final stage, so on the first
    /// boot the command is not there yet (`packages: [jq]` with `bootcmd: [jq --version]`).
    BootcmdBeforePackages {
        /// The package (the command's first word).
        package: String,
    },
    /// `plan-module-list-replaced` (warning): user-data sets a module list
    /// (`cloud_init_modules`, `cloud_config_modules`, `cloud_final_modules`), which replaces
    /// the image's list wholesale: the image's modules missing from it never run
    /// (`cloud_final_modules: [scripts-user]` drops `final-message`, `power-state-change`, …).
    ModuleListReplaced {
        /// The key.
        key: String,
        /// Where the image's list comes from (`the debian-13 profile`).
        image: String,
        /// The image's modules the new list lacks, as the image names them.
        dropped: Vec<String>,
    },
    /// `plan-users-without-default` (warning): a `users` list without `default`: the
    /// image's default user is not created (cloud-init #6702; `users: [{name: alice}]`).
    UsersWithoutDefault {
        /// The image's default user's name, if it has one.
        default_user: Option<String>,
    },
    /// `plan-runcmd-among-part-scripts` (warning): `runcmd` and shell-script parts
    /// both end up in the instance's `scripts/` directory, which `scripts_user` runs
    /// in file-name order (Python's code-point sort, cloud-init #3323), not in the
    /// payload's order: a script written after the runcmd part but named `part-002`
    /// or `hello.sh` runs before runcmd, one written before it but named `setup.sh`
    /// after it (`runcmd: [echo hi]`, then a `text/x-shellscript` part).
    RuncmdAmongPartScripts {
        /// Part scripts written after the runcmd part that run before it (file names,
        /// in run order).
        before: Vec<String>,
        /// Part scripts written before it that run after it.
        after: Vec<String>,
    },
    /// `plan-boothook-every-boot` (warning): a `#cloud-boothook` part runs in the init
    /// stage on every boot, not once (`#cloud-boothook` then `echo hi >> /etc/motd`).
    BoothookEveryBoot {
        /// Part number.
        part: usize,
    },
}

impl fmt::Display for PlanKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanKind::BootcmdBeforePackages { package } => write!(
                f,
                "bootcmd runs `{package}` in the init stage, but the packages module installs `{package}` later, in the final stage: on the first boot the command is not there yet"
            ),
            PlanKind::ModuleListReplaced {
                key,
                image,
                dropped,
            } => write!(
                f,
                "user-data's {key} replaces the image's list ({image}): {} never run{} ({})",
                if dropped.len() == 1 {
                    "1 module".to_owned()
                } else {
                    format!("{} modules", dropped.len())
                },
                if dropped.len() == 1 { "s" } else { "" },
                dropped.join(", ")
            ),
            PlanKind::UsersWithoutDefault { default_user } => write!(
                f,
                "this users list has no `default` entry, so the image's default user{} is not created",
                default_user
                    .as_ref()
                    .map(|u| format!(" ({u})"))
                    .unwrap_or_default()
            ),
            PlanKind::RuncmdAmongPartScripts { before, after } => {
                let mut said = Vec::new();
                if !before.is_empty() {
                    said.push(format!(
                        "{} before runcmd although written after it",
                        before.join(", ")
                    ));
                }
                if !after.is_empty() {
                    said.push(format!(
                        "{} after runcmd although written before it",
                        after.join(", ")
                    ));
                }
                write!(
                    f,
                    "scripts_user runs runcmd and the part scripts in file-name order, not the payload's: {}",
                    said.join("; ")
                )
            }
            PlanKind::BoothookEveryBoot { part } => write!(
                f,
                "part {part} is a boothook: cloud-init runs it early in the init stage on every boot, not once per instance"
            ),
        }
    }
}

impl DiagnosticKind for PlanKind {
    fn code(&self) -> &'static str {
        match self {
            PlanKind::BootcmdBeforePackages { .. } => "plan-bootcmd-before-packages",
            PlanKind::ModuleListReplaced { .. } => "plan-module-list-replaced",
            PlanKind::UsersWithoutDefault { .. } => "plan-users-without-default",
            PlanKind::RuncmdAmongPartScripts { .. } => "plan-runcmd-among-part-scripts",
            PlanKind::BoothookEveryBoot { .. } => "plan-boothook-every-boot",
        }
    }

    fn severity(&self) -> Severity {
        Severity::Warning
    }

    fn help(&self) -> Option<String> {
        Some(match self {
            PlanKind::BootcmdBeforePackages { .. } => {
                "move the command to runcmd (it runs in the final stage's scripts-user, after packages), or install the package from bootcmd first".into()
            }
            PlanKind::ModuleListReplaced { .. } => {
                "list every module the image runs that you still need (`cloudfold plan` shows the effective lists), or drop the key".into()
            }
            PlanKind::UsersWithoutDefault { .. } => {
                "add `default` as the list's first item to keep the image's default user".into()
            }
            PlanKind::RuncmdAmongPartScripts { .. } => {
                "the order follows the names (code points: `part-001` < `runcmd` < `setup.sh`); name the parts so the order is the one you need, or move the commands into one place".into()
            }
            PlanKind::BoothookEveryBoot { .. } => {
                "make it idempotent, or guard it with `cloud-init-per once NAME CMD` (or a text/x-shellscript-per-once part)".into()
            }
        })
    }
}
