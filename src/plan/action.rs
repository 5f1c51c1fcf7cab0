//! `Action`: what a running module does — a shell script run or written, files written, scripts run by run-parts, packages, users, power state.

/// One thing a module does, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `bootcmd`: the `shellify` text, run at once as `/bin/sh <tmp>.sh`
    /// with `INSTANCE_ID` in the environment.
    RunShell {
        /// The script.
        script: String,
    },
    /// `runcmd`: the `shellify` text written (0700) where `scripts_user`
    /// runs it in the final stage.
    WriteScript {
        /// The file.
        path: String,
        /// The script.
        script: String,
    },
    /// A `write_files` entry.
    WriteFile(FileWrite),
    /// A `write_files` entry skipped (with cloud-init's warning).
    SkipFile {
        /// 1-based entry number.
        entry: usize,
        /// Why.
        why: String,
    },
    /// `subp.runparts(dir)`: each entry in Python's sorted order.
    RunParts {
        /// The directory.
        dir: String,
        /// `vendor_data.prefix` (scripts_vendor).
        prefix: Vec<String>,
        /// Whether the directory exists (else nothing runs).
        exists: bool,
        /// Its entries, in order.
        entries: Vec<RunPart>,
    },
    /// `package_update_upgrade_install`.
    Packages {
        /// `package_update` / `apt_update` (or an upgrade) refreshes the index.
        update: bool,
        /// `package_upgrade` / `apt_upgrade`.
        upgrade: bool,
        /// `packages`, as the distro is asked to install them.
        install: Vec<String>,
        /// `package_reboot_if_required` / `apt_reboot_if_required`.
        reboot_if_required: bool,
    },
    /// `users_groups`: the groups created, in order, with their members.
    Groups(Vec<(String, Vec<String>)>),
    /// `users_groups`: the users created, in order.
    Users(Vec<UserPlan>),
    /// `power_state_change`: what is done once the final stage ends.
    PowerState {
        /// `mode` (`poweroff`, `reboot`, `halt`).
        mode: String,
        /// `delay`.
        delay: String,
        /// `message`.
        message: Option<String>,
        /// `timeout` (seconds to wait for cloud-init to finish).
        timeout: String,
        /// `condition`.
        condition: String,
    },
    /// Something cloudfold cannot predict, or a detail worth knowing.
    Note(String),
}

/// One file `write_files` writes.
#[derive(Clone, Debug, PartialEq)]
pub struct FileWrite {
    /// 1-based entry number in the (filtered) list.
    pub entry: usize,
    /// `os.path.abspath(path)`.
    pub path: String,
    /// `owner` (`None`: not changed).
    pub owner: Option<String>,
    /// `group`.
    pub group: Option<String>,
    /// The mode set.
    pub permissions: u32,
    /// `encoding` as given (`text/plain` when none).
    pub encoding: String,
    /// Appended (`append: true`) rather than replaced.
    pub append: bool,
    /// Written by `write_files_deferred` in the final stage.
    pub deferred: bool,
    /// The bytes written.
    pub content: Vec<u8>,
}

impl FileWrite {
    /// Whether run-parts would run it (root: any execute bit).
    pub fn executable(&self) -> bool {
        self.permissions & 0o111 != 0
    }
}

/// One entry of a run-parts directory.
#[derive(Clone, Debug, PartialEq)]
pub struct RunPart {
    /// The file name.
    pub name: String,
    /// The path run.
    pub path: String,
    /// Whether it runs (a regular file with an execute bit).
    pub runs: bool,
    /// Why not (a directory, not executable).
    pub why_not: Option<String>,
    /// Its text when it runs (UTF-8, invalid bytes replaced).
    pub text: Option<String>,
}

/// One user `users_groups` creates.
#[derive(Clone, Debug, PartialEq)]
pub struct UserPlan {
    /// The name.
    pub name: String,
    /// The image's default user (`users: [default]`).
    pub default: bool,
    /// Its settings, `key: value` as Python prints them.
    pub settings: Vec<(String, String)>,
}
