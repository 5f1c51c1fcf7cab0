//! `IDENTITY_TABLE`: which cloud-config lists append, union, or merge by identity, from cloud-init's module docs (schema 25.1).

use super::ListRule;
use super::ListRule::{
    Append, Atomic, ByGroupName, ByIndex, ByKey, ByPackageName, ByUserName, Union,
};
use crate::merge::{Path, PathSeg};
use crate::yaml::value::Value;

/// One row: a list's place (`users[].groups`: `[]` is any item), its rule,
/// and the module that reads it.
#[derive(Clone, Copy, Debug)]
pub struct IdentityRule {
    /// Dotted path, `[]` for "any item of a list".
    pub path: &'static str,
    /// How fragments' lists combine there.
    pub rule: ListRule,
    /// The cloud-init module (`cc_*`) or the base config that reads it.
    pub module: &'static str,
}

const fn row(path: &'static str, rule: ListRule, module: &'static str) -> IdentityRule {
    IdentityRule { path, rule, module }
}

/// Every list in cloud-init's cloud-config schema whose combination is not
/// the default (a list under a mapping key: [`ListRule::Union`]; a list
/// inside a list: [`ListRule::Atomic`]).
pub const IDENTITY_TABLE: &[IdentityRule] = &[
    // Lists of objects, merged by identity.
    row("write_files", ByKey(&["path"]), "cc_write_files"),
    row("users", ByUserName, "cc_users_groups"),
    row("groups", ByGroupName, "cc_users_groups"),
    row("mounts", ByIndex(1), "cc_mounts"),
    row("fs_setup", ByKey(&["device", "partition"]), "cc_disk_setup"),
    row("chpasswd.users", ByKey(&["name"]), "cc_set_passwords"),
    row("wireguard.interfaces", ByKey(&["name"]), "cc_wireguard"),
    row("zypper.repos", ByKey(&["id"]), "cc_zypper_add_repo"),
    row("apt.primary", ByKey(&["arches"]), "cc_apt_configure"),
    row("apt.security", ByKey(&["arches"]), "cc_apt_configure"),
    row(
        "ansible.setup_controller.repositories",
        ByKey(&["path"]),
        "cc_ansible",
    ),
    row("merge_how", ByKey(&["name"]), "cloud-init mergers"),
    row("merge_type", ByKey(&["name"]), "cloud-init mergers"),
    // Commands and other ordered lists: appended, repeats kept.
    row("bootcmd", Append, "cc_bootcmd"),
    row("runcmd", Append, "cc_runcmd"),
    row("snap.commands", Append, "cc_snap"),
    row("ansible.galaxy.actions", Append, "cc_ansible"),
    row("ansible.setup_controller.run_ansible", Append, "cc_ansible"),
    row("chef.run_list", Append, "cc_chef"),
    row("wireguard.readinessprobe", Append, "cc_wireguard"),
    // Packages: one entry per package (two versions of one package cannot both install).
    row(
        "packages",
        ByPackageName,
        "cc_package_update_upgrade_install",
    ),
    row(
        "packages[].apt",
        ByPackageName,
        "cc_package_update_upgrade_install",
    ),
    row(
        "packages[].snap",
        ByPackageName,
        "cc_package_update_upgrade_install",
    ),
    // Sets: appended, de-duplicated (installing or adding twice is a no-op at best).
    row("ssh_authorized_keys", Union, "cc_ssh"),
    row("ssh_import_id", Union, "cc_ssh_import_id"),
    row("users[].groups", Union, "cc_users_groups"),
    row("users[].ssh_authorized_keys", Union, "cc_users_groups"),
    row("users[].ssh-authorized-keys", Union, "cc_users_groups"),
    row("users[].ssh_import_id", Union, "cc_users_groups"),
    row("users[].ssh-import-id", Union, "cc_users_groups"),
    row("users[].sudo", Union, "cc_users_groups"),
    row("users[].doas", Union, "cc_users_groups"),
    row("groups[].*", Union, "cc_users_groups"),
    row("ca_certs.trusted", Union, "cc_ca_certs"),
    row("ntp.servers", Union, "cc_ntp"),
    row("ntp.pools", Union, "cc_ntp"),
    row("ntp.peers", Union, "cc_ntp"),
    row("ntp.allow", Union, "cc_ntp"),
    row("resolv_conf.nameservers", Union, "cc_resolv_conf"),
    row("resolv_conf.searchdomains", Union, "cc_resolv_conf"),
    row("resolv_conf.sortlist", Union, "cc_resolv_conf"),
    row("rsyslog.configs", Union, "cc_rsyslog"),
    row("snap.assertions", Union, "cc_snap"),
    row("apt.disable_suites", Union, "cc_apt_configure"),
    row("growpart.devices", Union, "cc_growpart"),
    row("phone_home.post", Union, "cc_phone_home"),
    row("ubuntu_pro.enable", Union, "cc_ubuntu_pro"),
    row("ubuntu_pro.enable_beta", Union, "cc_ubuntu_pro"),
    row("cloud_init_modules", Union, "base config"),
    row("cloud_config_modules", Union, "base config"),
    row("cloud_final_modules", Union, "base config"),
    // Positional lists: equal in every fragment, or a conflict.
    row("mounts[]", Atomic, "cc_mounts"),
    row("bootcmd[]", Atomic, "cc_bootcmd"),
    row("runcmd[]", Atomic, "cc_runcmd"),
    row("packages[]", Atomic, "cc_package_update_upgrade_install"),
    row("fs_setup[].cmd", Atomic, "cc_disk_setup"),
    row("fs_setup[].extra_opts", Atomic, "cc_disk_setup"),
    row("disk_setup.*.layout", Atomic, "cc_disk_setup"),
    row("puppet.exec_args", Atomic, "cc_puppet"),
    row("random_seed.command", Atomic, "cc_seed_random"),
    row("rsyslog.service_reload_command", Atomic, "cc_rsyslog"),
    row("power_state.condition", Atomic, "cc_power_state_change"),
    row("vendor_data.prefix", Atomic, "cc_scripts_vendor"),
    row("output.all", Atomic, "cc_rsyslog / output"),
    row("output.init", Atomic, "cc_rsyslog / output"),
    row("output.config", Atomic, "cc_rsyslog / output"),
    row("output.final", Atomic, "cc_rsyslog / output"),
];

/// The path as the table writes it: `users[].groups`; a key that is not a
/// plain string is `?`.
pub fn pattern_of(path: &Path) -> String {
    let mut out = String::new();
    for seg in path.segments() {
        match seg {
            PathSeg::Index(_) => out.push_str("[]"),
            PathSeg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                match k.value() {
                    Value::Str(s) => out.push_str(s.as_str().unwrap_or("?")),
                    _ => out.push('?'),
                }
            }
        }
    }
    out
}

fn matches(pattern: &str, path: &str) -> bool {
    if pattern == path {
        return true;
    }
    // `*` stands for one key (`disk_setup.*.layout`, `groups[].*`).
    let (mut p, mut q) = (pattern.split('.'), path.split('.'));
    loop {
        match (p.next(), q.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == "*" || a == b => {}
            _ => return false,
        }
    }
}

/// The rule for the list at `path`.
pub fn rule_for(path: &Path) -> ListRule {
    let text = pattern_of(path);
    if let Some(r) = IDENTITY_TABLE.iter().find(|r| matches(r.path, &text)) {
        return r.rule;
    }
    if matches!(path.segments().last(), Some(PathSeg::Index(_))) {
        ListRule::Atomic
    } else {
        ListRule::Union
    }
}
