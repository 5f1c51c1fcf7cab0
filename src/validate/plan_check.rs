//! `plan_traps`: the boot-order traps ([`PlanKind`]) in a folded payload — bootcmd needing a package not installed yet, a module list replacing the image's, a users list without `default`, boothooks.
//!
//! These read `plan`'s own pieces (`read_section`, `form_module_name`,
//! `normalize_users_groups`) and the image profiles' module lists from
//! `layers`, so the warnings say what `cloudfold plan` shows.

use super::plan_kind::PlanKind;
use super::spans::first_line;
use crate::diagnostic::{Diagnostic, Label};
use crate::layers::ImageProfile;
use crate::merge::{Path, PathSeg};
use crate::plan::{
    ModuleTable, clean_filename, form_module_name, normalize_users_groups, read_section,
};
use crate::source::LineIndex;
use crate::userdata::{Folded, PartOutcome, PartType, Release};
use crate::yaml::value::{Node, Value, py_str};
use crate::yaml::{LoadOptions, load};

/// The module-list keys a user-data config may set.
const SECTIONS: [&str; 3] = [
    "cloud_init_modules",
    "cloud_config_modules",
    "cloud_final_modules",
];

/// The image a plan assumes without `--image`: `plan`'s own default.
pub fn default_profile(release: Release) -> ImageProfile {
    match release {
        Release::V22_4 => ImageProfile::Debian12,
        Release::V25_1 => ImageProfile::Debian13,
    }
}

/// Every trap in `folded` (user-data folded for `release`); `image`: the
/// image the payload boots on (`None`: [`default_profile`], and the warning
/// says it was assumed).
pub(super) fn plan_traps(
    folded: &Folded,
    release: Release,
    image: Option<ImageProfile>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for p in &folded.parts {
        if p.part_type == PartType::Boothook && matches!(p.outcome, PartOutcome::WouldRun) {
            let text = super::part_source::PartSource::text_of(p);
            let label = Label::new(first_line(p.source, &LineIndex::new(&text)))
                .with_message("run again on every boot");
            out.push(
                Diagnostic::new(&PlanKind::BoothookEveryBoot { part: p.number })
                    .with_primary(label),
            );
        }
    }
    let Some(cfg) = folded.config.as_ref() else {
        return out;
    };
    let Some(map) = cfg.as_map() else {
        return out;
    };
    let (profile, assumed) = match image {
        Some(p) => (p, false),
        None => (default_profile(release), true),
    };
    let image_cfg = image_config(profile, release);
    out.extend(bootcmd_before_packages(cfg));
    out.extend(runcmd_among_part_scripts(folded, cfg));
    for key in SECTIONS {
        let Some((k, _)) = map.iter().find(|(k, _)| k.as_str() == Some(key)) else {
            continue;
        };
        if let Some(d) = list_replaced(cfg, image_cfg.as_ref(), k, key, release, profile, assumed) {
            out.push(d);
        }
    }
    if let Some((k, users)) = map.iter().find(|(k, _)| k.as_str() == Some("users")) {
        let default_user = image_cfg.as_ref().and_then(|c| {
            c.as_map()?
                .get_str("system_info")?
                .as_map()?
                .get_str("default_user")
                .cloned()
        });
        if let Ok(ug) = normalize_users_groups(cfg, default_user.as_ref(), release)
            && !ug.users.iter().any(|u| u.default)
            && matches!(users.value(), Value::Seq(_) | Value::Str(_) | Value::Map(_))
        {
            let name = default_user
                .as_ref()
                .and_then(|d| d.as_map()?.get_str("name")?.as_str().map(str::to_owned));
            out.push(
                Diagnostic::new(&PlanKind::UsersWithoutDefault { default_user: name })
                    .with_primary(
                        Label::new(k.span())
                            .with_path(path(&[PathSeg::Key(k.clone())]))
                            .with_message("no `default` in this list"),
                    )
                    .with_note(image_note(profile, assumed)),
            );
        }
    }
    out
}

fn path(segs: &[PathSeg]) -> String {
    Path::from_segments(segs.to_vec()).to_string()
}

fn image_note(profile: ImageProfile, assumed: bool) -> String {
    if assumed {
        format!(
            "the image is taken to be the {} profile, the one `cloudfold plan` uses by default (validate was given no --image)",
            profile.name()
        )
    } else {
        format!("the image is the {} profile (--image)", profile.name())
    }
}

/// The profile's `/etc/cloud/cloud.cfg`, loaded.
fn image_config(profile: ImageProfile, release: Release) -> Option<Node> {
    let [(_, cloud_cfg), _] = profile.files(release);
    load(cloud_cfg, &LoadOptions::default()).ok().flatten()
}

/// A command's first word: a string's first whitespace-separated word, a
/// list's first item as `str()` gives it (what `shellify` quotes).
fn first_word(cmd: &Node) -> Option<String> {
    match cmd.value() {
        Value::Str(s) => s.as_str()?.split_whitespace().next().map(str::to_owned),
        Value::Seq(items) => items
            .items()
            .first()
            .map(|n| py_str(n).to_string_lossy().into_owned()),
        _ => None,
    }
}

/// The names `packages` installs: a string item, or a list item's first
/// element (`[name, version]`), as cc_package_update_upgrade_install reads them.
fn package_names(packages: &Node) -> Vec<(String, Node)> {
    let Value::Seq(items) = packages.value() else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|p| match p.value() {
            Value::Str(s) => s.as_str().map(|s| (s.to_owned(), p.clone())),
            Value::Seq(pair) => pair
                .items()
                .first()
                .and_then(|n| n.as_str())
                .map(|s| (s.to_owned(), p.clone())),
            _ => None,
        })
        .collect()
}

fn bootcmd_before_packages(cfg: &Node) -> Vec<Diagnostic> {
    let Some(map) = cfg.as_map() else {
        return Vec::new();
    };
    let (Some((bk, bootcmd)), Some(packages)) = (
        map.iter().find(|(k, _)| k.as_str() == Some("bootcmd")),
        map.get_str("packages"),
    ) else {
        return Vec::new();
    };
    let names = package_names(packages);
    let Value::Seq(cmds) = bootcmd.value() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, cmd) in cmds.iter().enumerate() {
        let Some(word) = first_word(cmd) else {
            continue;
        };
        if let Some((name, pkg)) = names.iter().find(|(n, _)| *n == word) {
            out.push(
                Diagnostic::new(&PlanKind::BootcmdBeforePackages {
                    package: name.clone(),
                })
                .with_primary(
                    Label::new(cmd.span())
                        .with_path(path(&[PathSeg::Key(bk.clone()), PathSeg::Index(i)]))
                        .with_message("runs in the init stage, every boot"),
                )
                .with_secondary(
                    Label::new(pkg.span()).with_message("installed later, in the final stage"),
                ),
            );
        }
    }
    out
}

/// `runcmd` (written to `scripts/runcmd` by the runcmd module) beside the
/// shell-script parts (written to `scripts/<clean_filename>` by consume_data):
/// `scripts_user` runs them sorted by name. The trap is a part script whose place
/// relative to runcmd differs between the payload (the part the `runcmd` key comes
/// from) and that order.
fn runcmd_among_part_scripts(folded: &Folded, cfg: &Node) -> Option<Diagnostic> {
    let (rk, _) = cfg
        .as_map()?
        .iter()
        .find(|(k, _)| k.as_str() == Some("runcmd"))?;
    let runcmd_part = folded
        .parts
        .iter()
        .find(|p| p.source == rk.span().source)?
        .number;
    let mut scripts: Vec<(String, &crate::userdata::PartReport)> = Vec::new();
    for p in &folded.parts {
        if p.part_type == PartType::Script && matches!(p.outcome, PartOutcome::WouldRun) {
            let name = clean_filename(&p.filename());
            // A later part of the same name overwrites the file; `runcmd` itself is
            // overwritten by the runcmd module.
            scripts.retain(|(n, _)| *n != name);
            if name != "runcmd" {
                scripts.push((name, p));
            }
        }
    }
    scripts.sort_by(|(a, _), (b, _)| a.cmp(b));
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut first = None;
    for (name, p) in scripts {
        let runs_first = name.as_str() < "runcmd";
        let written_first = p.number < runcmd_part;
        if runs_first != written_first {
            first.get_or_insert(p);
            if runs_first { &mut before } else { &mut after }.push(name);
        }
    }
    let first = first?;
    let text = super::part_source::PartSource::text_of(first);
    Some(
        Diagnostic::new(&PlanKind::RuncmdAmongPartScripts { before, after })
            .with_primary(
                Label::new(rk.span())
                    .with_path(path(&[PathSeg::Key(rk.clone())]))
                    .with_message("run by scripts_user as the file `runcmd`"),
            )
            .with_secondary(
                Label::new(first_line(first.source, &LineIndex::new(&text)))
                    .with_message("a part script, run from the same directory by name"),
            ),
    )
}

fn list_replaced(
    cfg: &Node,
    image_cfg: Option<&Node>,
    key_node: &Node,
    key: &str,
    release: Release,
    profile: ImageProfile,
    assumed: bool,
) -> Option<Diagnostic> {
    let table = ModuleTable::of(release);
    let ours = read_section(cfg, key, table).ok()?;
    let theirs = read_section(image_cfg?, key, table).ok()?;
    let kept: Vec<Option<String>> = ours.iter().map(|m| form_module_name(&m.name)).collect();
    let dropped: Vec<String> = theirs
        .iter()
        .filter(|m| !kept.contains(&form_module_name(&m.name)))
        .map(|m| m.name.clone())
        .collect();
    if dropped.is_empty() {
        return None;
    }
    Some(
        Diagnostic::new(&PlanKind::ModuleListReplaced {
            key: key.to_owned(),
            image: format!("the {} profile", profile.name()),
            dropped,
        })
        .with_primary(
            Label::new(key_node.span())
                .with_path(path(&[PathSeg::Key(key_node.clone())]))
                .with_message("replaces the image's list"),
        )
        .with_note(image_note(profile, assumed)),
    )
}

#[cfg(test)]
mod tests {
    // Test code: a failed unwrap is a failed test.
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::userdata::{NoIncludes, UserDataOptions, render};

    fn codes(payload: &str) -> Vec<String> {
        let f = render(payload.as_bytes(), &UserDataOptions::default(), &NoIncludes).unwrap();
        plan_traps(&f, Release::V25_1, None)
            .iter()
            .map(|d| {
                format!(
                    "{} {}",
                    d.code,
                    d.primary
                        .as_ref()
                        .and_then(|l| l.path.clone())
                        .unwrap_or_default()
                )
            })
            .collect()
    }

    #[test]
    fn precise() {
        // Only a first word equal to a package name; `default` keeps the default user.
        assert!(codes("#cloud-config\npackages: [jq]\nbootcmd: [jqx, 'echo jq', [sudo, jq]]\nusers: [default, bob]\n").is_empty());
        assert_eq!(
            codes("#cloud-config\npackages: [[jq, '1.6']]\nbootcmd: [echo, ' jq -n']\n"),
            ["plan-bootcmd-before-packages $.bootcmd[1]"]
        );
        // A list naming every image module (in other spellings) drops none.
        let all = "#cloud-config\ncloud_config_modules: [snap, ssh_import_id, keyboard, locale, set_passwords, grub_dpkg, apt_pipelining, apt_configure, ntp, timezone, disable_ec2_metadata, runcmd, byobu, extra]\n";
        assert!(codes(all).is_empty());
        assert_eq!(
            codes("#cloud-config\ncloud_init_modules: [bootcmd]\nusers: {bob: {}}\n"),
            [
                "plan-module-list-replaced $.cloud_init_modules",
                "plan-users-without-default $.users"
            ]
        );
        // `user:` adds the default entry, as ug_util does.
        assert!(codes("#cloud-config\nuser: bob\nusers: [alice]\n").is_empty());
        // runcmd beside part scripts, and not without one.
        let mime = |runcmd: &str| {
            format!(
                "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/sh\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\n{runcmd}\n--B--\n"
            )
        };
        assert!(codes(&mime("runcmd: [ls]")).is_empty());
        assert!(codes(&mime("bootcmd: [ls]")).is_empty());
        // Written before the script, but the script (part-001) runs first.
        let early = "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: [ls]\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/sh\n--B--\n";
        assert_eq!(codes(early), ["plan-runcmd-among-part-scripts $.runcmd"]);
    }
}
