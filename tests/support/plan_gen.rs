//! A random generator of boot plans' inputs: an image profile (with a site file now and then),
//! user-data of every part type (scripts and boothooks with names that sort surprisingly,
//! per-boot/instance/once scripts, jinja, part-handlers, archives, unknown types), cloud-configs
//! with every module key, runcmd/bootcmd of every item type, write_files into the script
//! directories, users and groups, user module lists, and vendor-data with its scripts.

use super::layers_gen::Case;
use super::rng::Rng;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::layers::ImageProfile;
use cloudfold::userdata::Release;
use serde_json::{Value as J, json};
use std::io::Write;

/// One case: a release, a profile, the layers and the instance id.
#[derive(Clone, Debug)]
pub(crate) struct PlanCase {
    pub release: Release,
    pub profile: ImageProfile,
    pub layers: Case,
    pub iid: String,
}

impl PlanCase {
    pub(crate) fn to_json(&self, id: usize) -> J {
        let mut j = self.layers.to_json(id);
        j["iid"] = json!(self.iid);
        j
    }

    /// Readable, for a disagreement report (the profile's own files left out).
    pub(crate) fn describe(&self) -> String {
        let mut short = self.layers.clone();
        if let Some(etc) = &mut short.etc {
            etc.retain(|(rel, _)| rel.starts_with("cloud.cfg.d/9"));
        }
        format!(
            "{} at {} (iid {}){}",
            self.profile.name(),
            self.release.as_str(),
            self.iid,
            short.describe()
        )
    }
}

/// The profiles of a release.
pub(crate) fn profiles(release: Release) -> [ImageProfile; 2] {
    match release {
        Release::V22_4 => [ImageProfile::Debian12, ImageProfile::Ubuntu],
        Release::V25_1 => [ImageProfile::Debian13, ImageProfile::Ubuntu],
    }
}

const NAMES: &[&str] = &[
    "a", "B", "Z", "_z", "-x", "10", "9", "part-001", "part-010", "part-2", "runcmd", "(1)",
    ".hidden", "..", ".", "a b", "a/b", "x.sh", "vendor", "...", "Zeta", "alpha", "~tilde", "aa",
    "a.", "A", "0", "per-boot",
];

fn name(r: &mut Rng) -> String {
    (*r.pick(NAMES)).to_owned()
}

fn script(r: &mut Rng, tag: &str) -> String {
    match r.below(8) {
        0 => format!("#!/bin/bash\r\necho {tag}\r\n"),
        1 => format!("#!/bin/sh\necho '{tag}' \u{e9}\n"),
        2 => format!("#!/usr/bin/env python3\nprint('{tag}')"),
        _ => format!("#!/bin/sh\necho {tag}\n"),
    }
}

/// A runcmd / bootcmd value.
fn commands(r: &mut Rng, tag: &str) -> String {
    if r.chance(6) {
        return (*r.pick(&["echo whole", "~", "{a: 1}", "5", "[]", "!!set {a: ~}"])).to_owned();
    }
    let n = 1 + r.below(4);
    let mut items = Vec::new();
    for i in 0..n {
        items.push(match r.below(14) {
            0 => format!("\"echo {tag}{i} 'quoted' \\\"dq\\\"\""),
            1 => format!("[echo, \"it's {tag}\", 1, 1.5, true, null]"),
            2 => "[ls, -l, 1.0e+16, .inf, -.nan, 0x10, 0o17, 017, 2001-12-14]".to_owned(),
            3 => "[echo, {k: v}, [1, [2]], '']".to_owned(),
            4 => "~".to_owned(),
            5 => "\"multi\\nline\"".to_owned(),
            6 if r.chance(30) => (*r.pick(&["5", "{a: 1}", "true", "1.5"])).to_owned(),
            7 => format!("[\"sh\", \"-c\", \"echo {tag} > /tmp/x\"]"),
            8 => "[]".to_owned(),
            9 => "\"h\\u00e9llo\"".to_owned(),
            10 => "[echo, 2001-12-14 21:59:43.10 -5]".to_owned(),
            _ => format!("echo {tag}{i}"),
        });
    }
    format!("[{}]", items.join(", "))
}

fn script_path(r: &mut Rng, iid: &str) -> String {
    let n = name(r).replace(['/', ' '], "_");
    match r.below(12) {
        0 => format!("/var/lib/cloud/scripts/per-instance/{n}"),
        1 => format!("/var/lib/cloud/scripts/per-once/{n}"),
        2 => format!("/var/lib/cloud/instance/scripts/{n}"),
        3 => format!("/var/lib/cloud/instances/{iid}/scripts/{n}"),
        4 => format!("var/lib/cloud/scripts/per-boot/{n}"),
        5 => format!("/var/lib/cloud/scripts/per-boot/../per-once/{n}"),
        6 => format!("/var/lib/cloud/instance/scripts/vendor/{n}"),
        7 => "/var/lib/cloud/instance/sem/config_runcmd".to_owned(),
        8 => "/var/lib/cloud/instance/scripts/runcmd".to_owned(),
        9 => format!("/etc/cloudfold-plan/{n}"),
        _ => format!("/var/lib/cloud/scripts/per-boot/{n}"),
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn write_files(r: &mut Rng, tag: &str, iid: &str) -> String {
    let n = 1 + r.below(4);
    let mut entries = Vec::new();
    for i in 0..n {
        let mut kv = Vec::new();
        if !r.chance(5) {
            kv.push(format!("path: {}", script_path(r, iid)));
        }
        let text = script(r, &format!("{tag}wf{i}"));
        match r.below(10) {
            0 => {
                kv.push(format!("content: {}", B64.encode(text.as_bytes())));
                kv.push(format!("encoding: {}", r.pick(&["b64", "base64", "B64 "])));
            }
            1 => {
                kv.push(format!("content: {}", B64.encode(gzip(text.as_bytes()))));
                kv.push(format!("encoding: {}", r.pick(&["gz+b64", "gzip+base64"])));
            }
            2 => kv.push(format!(
                "content: !!binary {}",
                B64.encode(gzip(text.as_bytes()))
            )),
            3 if r.chance(40) => kv.push("content: 5".to_owned()),
            4 => {
                kv.push(format!(
                    "content: {}",
                    serde_json::to_string(&text).unwrap()
                ));
                kv.push("encoding: base65".to_owned());
            }
            5 if r.chance(30) => kv.push("content: ~".to_owned()),
            _ => kv.push(format!(
                "content: {}",
                serde_json::to_string(&text).unwrap()
            )),
        }
        if r.chance(70) {
            kv.push(format!(
                "permissions: {}",
                r.pick(&[
                    "'0755'", "'0644'", "493", "'0700'", "'755'", "'0o700'", "0644", "rwx", "1.5",
                    "'0'", "'+0755'", "0o755",
                ])
            ));
        }
        if r.chance(30) {
            kv.push(format!(
                "defer: {}",
                r.pick(&["true", "false", "'yes'", "1", "~"])
            ));
        }
        if r.chance(15) {
            kv.push("append: true".to_owned());
        }
        if r.chance(30) {
            kv.push(format!(
                "owner: {}",
                r.pick(&["'root:root'", "'bob:bob'", "nobody", "'-1:none'", "''"])
            ));
        }
        if r.chance(5) {
            kv.push("source: {uri: ''}".to_owned());
        }
        entries.push(format!("{{{}}}", kv.join(", ")));
    }
    if r.chance(4) {
        return (*r.pick(&["~", "{path: /x}", "'str'"])).to_owned();
    }
    format!("[{}]", entries.join(", "))
}

const MODULE_NAMES: &[&str] = &[
    "runcmd",
    "scripts-user",
    "scripts_user",
    "scripts-per-boot",
    "scripts_per_once",
    "scripts-per-instance",
    "scripts-vendor",
    "write-files",
    "write_files_deferred",
    "bootcmd",
    "users-groups",
    "package-update-upgrade-install",
    "power-state-change",
    "snap",
    "fan",
    "cc_runcmd",
    "runcmd.py",
    "RunCmd",
    "nope",
    "migrator",
    "ubuntu-advantage",
    "ubuntu_pro",
    "final-message",
    "apt-configure",
    "ssh-import-id",
    "keyboard",
    "ntp",
    "locale",
    "refresh_rmc_and_interface",
    "rightscale_userdata",
    "  write-files  ",
    "write files",
];

fn module_entry(r: &mut Rng) -> String {
    let n = *r.pick(MODULE_NAMES);
    let q = serde_json::to_string(n).unwrap();
    match r.below(12) {
        0 | 1 => format!(
            "[{q}, {}]",
            r.pick(&["always", "once", "once-per-instance", "weekly", "''"])
        ),
        2 => format!(
            "{{name: {q}, frequency: {}}}",
            r.pick(&["always", "once", "per-instance"])
        ),
        3 => format!("{{name: {q}}}"),
        4 if r.chance(20) => {
            (*r.pick(&["5", "[5]", "{frequency: once}", "''", "[]", "~"])).to_owned()
        }
        _ => q,
    }
}

fn module_list(r: &mut Rng) -> String {
    if r.chance(5) {
        return (*r.pick(&["~", "runcmd", "5", "[]", "{runcmd: 1}"])).to_owned();
    }
    let n = r.below(7);
    let items: Vec<String> = (0..n).map(|_| module_entry(r)).collect();
    format!("[{}]", items.join(", "))
}

fn users(r: &mut Rng) -> String {
    (*r.pick(&[
        "[default]",
        "[default, bob]",
        "[bob]",
        "[{name: bob, groups: [adm], shell: /bin/zsh}]",
        "[default, {name: alice, sudo: 'ALL=(ALL) NOPASSWD:ALL', lock-passwd: false}]",
        "'a, b'",
        "{bob: true, default: true}",
        "[{name: default, groups: extra}]",
        "[[u1, u2], default]",
        "~",
    ]))
    .to_owned()
}

fn groups(r: &mut Rng) -> String {
    (*r.pick(&[
        "[admins, {cloud-users: [bob, alice]}]",
        "'g1, g2'",
        "{g3: [x], g4: 'y,z'}",
        "[{g5: y}, {g5: [x, y]}]",
    ]))
    .to_owned()
}

fn other_value(r: &mut Rng) -> String {
    (*r.pick(&["true", "{x: 1}", "[a, b]", "'s'", "~", "false"])).to_owned()
}

/// A cloud-config body (one top-level key per line).
pub(crate) fn cloud_config(r: &mut Rng, tag: &str, iid: &str, keys: &[&'static str]) -> String {
    let mut out = String::from("#cloud-config\n");
    let n = 1 + r.below(7);
    let mut seen: Vec<&str> = Vec::new();
    for _ in 0..n {
        let k = match r.below(10) {
            0..=5 => *r.pick(&[
                "runcmd",
                "bootcmd",
                "write_files",
                "users",
                "groups",
                "packages",
                "power_state",
                "cloud_final_modules",
                "cloud_config_modules",
                "cloud_init_modules",
                "unverified_modules",
                "vendor_data",
                "package_update",
                "package_upgrade",
                "user",
            ]),
            _ => *r.pick(keys),
        };
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        let v = match k {
            "runcmd" | "bootcmd" => commands(r, tag),
            "write_files" => write_files(r, tag, iid),
            "users" => users(r),
            "groups" => groups(r),
            "user" => (*r.pick(&["carol", "{name: dave, shell: /bin/sh}"])).to_owned(),
            "packages" => (*r.pick(&["[vim, [curl, 7.0], git]", "htop", "[]", "~"])).to_owned(),
            "power_state" => (*r.pick(&[
                "{mode: reboot, delay: '+5', message: bye}",
                "{mode: poweroff}",
                "{mode: nap}",
                "{mode: halt, delay: now, condition: true}",
            ]))
            .to_owned(),
            "cloud_final_modules" | "cloud_config_modules" | "cloud_init_modules" => module_list(r),
            "unverified_modules" => {
                (*r.pick(&["[snap, fan]", "snap", "~", "[]", "5", "[lxd, landscape]"])).to_owned()
            }
            "vendor_data" => (*r.pick(&[
                "{enabled: true, prefix: [/usr/bin/env, -i]}",
                "{enabled: true, prefix: /bin/sh}",
                "{prefix: 5}",
                "{enabled: false}",
                "{enabled: true}",
            ]))
            .to_owned(),
            "package_update" | "package_upgrade" => {
                (*r.pick(&["true", "false", "'yes'"])).to_owned()
            }
            _ => other_value(r),
        };
        out.push_str(&format!("{k}: {v}\n"));
    }
    out
}

/// One MIME part: (content type, filename, body).
fn part(
    r: &mut Rng,
    tag: &str,
    iid: &str,
    keys: &[&'static str],
    vendor: bool,
) -> (String, Option<String>, String) {
    let fname = if r.chance(60) { Some(name(r)) } else { None };
    match r.below(if vendor { 8 } else { 14 }) {
        0 | 1 => ("text/cloud-config".into(), fname, cloud_config(r, tag, iid, keys)),
        2 | 3 => ("text/x-shellscript".into(), fname, script(r, tag)),
        4 => (
            format!(
                "text/x-shellscript-{}",
                r.pick(&["per-boot", "per-instance", "per-once"])
            ),
            fname,
            script(r, tag),
        ),
        5 => {
            let body = match r.below(5) {
                0 => format!("#cloud-boothook\r\n#!/bin/sh\r\necho hook {tag}\r\n"),
                1 => format!("#Cloud-Boothook\n#!/bin/sh\necho hook {tag}\n"),
                2 => format!("#cloud-boothook\n\n  echo no shebang {tag}\n"),
                _ => format!("#cloud-boothook\n#!/bin/sh\necho hook {tag}\n"),
            };
            ("text/cloud-boothook".into(), fname, body)
        }
        6 => {
            let body = match r.below(4) {
                0 => format!("## template: jinja\n#cloud-config\nruncmd: [echo {{{{ v1.region }}}} {tag}]\n"),
                1 => format!("## template: jinja\n#cloud-boothook\n#!/bin/sh\necho {{{{ v1.instance_id }}}} {tag}\n"),
                _ => format!("## template: jinja\n#!/bin/sh\necho {{{{ v1.instance_id }}}} {tag}\n"),
            };
            ("text/jinja2".into(), fname, body)
        }
        7 => (
            "text/x-unknown".into(),
            fname,
            if r.chance(50) { String::new() } else { format!("data {tag}") },
        ),
        8 => (
            "text/part-handler".into(),
            fname,
            "#part-handler\ndef list_types():\n    return [\"text/x-cloudfold-unused\"]\n\n\ndef handle_part(data, ctype, filename, payload):\n    pass\n"
                .into(),
        ),
        9 => (
            "text/cloud-config-archive".into(),
            fname,
            format!(
                "#cloud-config-archive\n- {{type: text/x-shellscript, filename: {}, content: \"#!/bin/sh\\necho arch {tag}\\n\"}}\n- {{content: \"#cloud-boothook\\n#!/bin/sh\\necho arch hook\\n\"}}\n- \"#cloud-config\\nbootcmd: [arch]\"\n",
                serde_json::to_string(&name(r)).unwrap()
            ),
        ),
        _ => ("text/cloud-config".into(), fname, cloud_config(r, tag, iid, keys)),
    }
}

fn mime(parts: &[(String, Option<String>, String)]) -> Vec<u8> {
    let b = "==plan-boundary==";
    let mut out = format!("Content-Type: multipart/mixed; boundary=\"{b}\"\nMIME-Version: 1.0\n\n");
    for (ct, fname, body) in parts {
        out.push_str(&format!(
            "--{b}\nContent-Type: {ct}; charset=\"utf-8\"\nMIME-Version: 1.0\n"
        ));
        if let Some(f) = fname {
            out.push_str(&format!(
                "Content-Disposition: attachment; filename=\"{}\"\n",
                f.replace('"', "")
            ));
        }
        out.push('\n');
        out.push_str(body);
        if !body.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&format!("--{b}--\n"));
    out.into_bytes()
}

fn payload(r: &mut Rng, tag: &str, iid: &str, keys: &[&'static str], vendor: bool) -> Vec<u8> {
    if r.chance(20) {
        let (_, _, body) = part(r, tag, iid, keys, vendor);
        return body.into_bytes();
    }
    let n = 1 + r.below(if vendor { 4 } else { 8 });
    let parts: Vec<_> = (0..n)
        .map(|i| part(r, &format!("{tag}{i}"), iid, keys, vendor))
        .collect();
    mime(&parts)
}

/// A case for `release`; `keys`: every module's activation keys.
pub(crate) fn case(r: &mut Rng, release: Release, keys: &[&'static str]) -> PlanCase {
    let profile = *r.pick(&profiles(release));
    let iid = (*r.pick(&["iid-plan", "i-0abc", "iid-plan"])).to_owned();
    let mut etc: Vec<(String, Option<Vec<u8>>)> = profile
        .files(release)
        .iter()
        .map(|(rel, text)| ((*rel).to_owned(), Some(text.as_bytes().to_vec())))
        .collect();
    if r.chance(15) {
        let site = match r.below(5) {
            0 => "cloud_final_modules: [scripts-user, runcmd, final-message]\n".to_owned(),
            1 => "vendor_data: {enabled: false}\n".to_owned(),
            2 => "unverified_modules: [snap]\nsnap: {commands: [x]}\n".to_owned(),
            3 => "allow_userdata: false\n".to_owned(),
            _ => "system_info: {distro: ubuntu, default_user: {name: site, groups: [a]}}\n"
                .to_owned(),
        };
        etc.push((
            "cloud.cfg.d/90_site.cfg".to_owned(),
            Some(site.into_bytes()),
        ));
    }
    let user = (!r.chance(5)).then(|| payload(r, "u", &iid, keys, false));
    let vendor = r.chance(35).then(|| payload(r, "v", &iid, keys, true));
    let vendor2 = r.chance(10).then(|| payload(r, "w", &iid, keys, true));
    let instance_data = r.chance(70).then(|| {
        json!({"v1": {"instance_id": iid, "region": "r1", "cloud_name": "nocloud"}, "ds": {}})
            .to_string()
    });
    PlanCase {
        release,
        profile,
        iid,
        layers: Case {
            etc: Some(etc),
            user,
            vendor,
            vendor2,
            instance_data,
            ..Case::default()
        },
    }
}
