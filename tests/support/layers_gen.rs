//! A random generator of layer sets: every layer present or absent, conflicts at every depth,
//! lists and strings in several layers, merge specs in every layer, vendor-data settings,
//! cloud.cfg.d names that sort surprisingly, conf_d redirection, system_info.

use super::rng::Rng;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::layers::{ConfigFile, EtcCloud, EtcEntry, LayerInputs};
use serde_json::{Value as J, json};
use std::path::Path;

/// One generated case: each layer's bytes (None: absent).
#[derive(Clone, Debug, Default)]
pub(crate) struct Case {
    /// `/etc/cloud` entries: relative path, bytes (None: a directory).
    pub etc: Option<Vec<(String, Option<Vec<u8>>)>>,
    pub run: Option<Vec<u8>>,
    pub env: Option<Vec<u8>>,
    pub cmdline: Option<String>,
    pub ds: Option<Vec<u8>>,
    pub user: Option<Vec<u8>>,
    pub vendor: Option<Vec<u8>>,
    pub vendor2: Option<Vec<u8>>,
    /// `/run/cloud-init/instance-data-sensitive.json`.
    pub instance_data: Option<String>,
}

fn b64(b: &Option<Vec<u8>>) -> J {
    b.as_ref().map_or(J::Null, |b| J::String(B64.encode(b)))
}

impl Case {
    /// The layers as the library takes them (paths as cloud-init reads them).
    pub(crate) fn inputs(&self) -> LayerInputs {
        let file = |b: &Option<Vec<u8>>, path: &str| b.clone().map(|b| ConfigFile::new(path, b));
        LayerInputs {
            etc: self.etc.as_ref().map(|files| {
                let mut etc = EtcCloud::new();
                for (rel, data) in files {
                    etc.insert(
                        rel,
                        data.as_ref()
                            .map_or(EtcEntry::Dir, |d| EtcEntry::File(d.clone())),
                    );
                }
                etc
            }),
            run_cloud_cfg: file(&self.run, "/run/cloud-init/cloud.cfg"),
            kernel_cmdline: self.cmdline.clone(),
            cloud_cfg_env: file(&self.env, "/tmp/cloud-cfg-env.cfg"),
            datasource_config: file(&self.ds, "datasource"),
            user_data: self.user.clone(),
            vendor_data: self.vendor.clone(),
            vendor_data2: self.vendor2.clone(),
        }
    }

    pub(crate) fn to_json(&self, id: usize) -> J {
        json!({
            "id": id,
            "etc": self.etc.as_ref().map(|files| files.iter().map(|(p, d)| json!([p, b64(d)])).collect::<Vec<_>>()),
            "run_cloud_cfg": b64(&self.run),
            "env": b64(&self.env),
            "cmdline": self.cmdline,
            "ds": b64(&self.ds),
            "user": b64(&self.user),
            "vendor": b64(&self.vendor),
            "vendor2": b64(&self.vendor2),
            "instance_data": self.instance_data,
        })
    }

    /// A case recorded as a directory (`fixtures/layers/*/`): `etc/` (the `/etc/cloud` tree)
    /// and `etc-dirs` (its empty directories, one relative path a line), `run.cfg`,
    /// `env.cfg`, `cmdline`, `ds.yaml`, `user-data`, `vendor-data`, `vendor-data2`,
    /// `instance-data.json`; a missing file is an absent layer, an empty file an empty one.
    pub(crate) fn from_dir(dir: &Path) -> Case {
        let read = |name: &str| std::fs::read(dir.join(name)).ok();
        let etc_root = dir.join("etc");
        let dirs = read("etc-dirs");
        let etc = (etc_root.is_dir() || dirs.is_some()).then(|| {
            let mut files = Vec::new();
            let mut stack = vec![etc_root.clone()];
            while let Some(d) = stack.pop() {
                let Ok(rd) = std::fs::read_dir(&d) else {
                    continue;
                };
                for e in rd {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else {
                        let rel = p
                            .strip_prefix(&etc_root)
                            .unwrap()
                            .to_string_lossy()
                            .into_owned();
                        files.push((rel, Some(std::fs::read(&p).unwrap())));
                    }
                }
            }
            files.sort();
            for line in String::from_utf8(dirs.unwrap_or_default()).unwrap().lines() {
                files.push((line.to_owned(), None));
            }
            files
        });
        Case {
            etc,
            run: read("run.cfg"),
            env: read("env.cfg"),
            cmdline: read("cmdline").map(|b| String::from_utf8(b).unwrap()),
            ds: read("ds.yaml"),
            user: read("user-data"),
            vendor: read("vendor-data"),
            vendor2: read("vendor-data2"),
            instance_data: read("instance-data.json").map(|b| String::from_utf8(b).unwrap()),
        }
    }

    /// Readable, for a disagreement report (`(empty)`: present, no bytes; the exact bytes are
    /// in the case's JSON line, printed with it).
    pub(crate) fn describe(&self) -> String {
        let s = |b: &Option<Vec<u8>>| {
            b.as_ref().map(|b| {
                if b.is_empty() {
                    "(empty)\n".to_owned()
                } else {
                    String::from_utf8_lossy(b).into_owned()
                }
            })
        };
        let mut out = String::new();
        let absent: Vec<&str> = [
            ("/etc/cloud", self.etc.is_none()),
            ("run", self.run.is_none()),
            ("env", self.env.is_none()),
            ("cmdline", self.cmdline.is_none()),
            ("ds", self.ds.is_none()),
            ("user", self.user.is_none()),
            ("vendor", self.vendor.is_none()),
            ("vendor2", self.vendor2.is_none()),
            ("instance-data", self.instance_data.is_none()),
        ]
        .into_iter()
        .filter_map(|(n, a)| a.then_some(n))
        .collect();
        out.push_str(&format!("\n(absent: {})", absent.join(", ")));
        if let Some(files) = &self.etc {
            if files.is_empty() {
                out.push_str("\n--- /etc/cloud\n(an empty directory)\n");
            }
            for (p, d) in files {
                out.push_str(&format!(
                    "\n--- /etc/cloud/{p}\n{}",
                    s(d).unwrap_or_else(|| "<dir>".into())
                ));
            }
        }
        for (name, v) in [
            ("run", s(&self.run)),
            ("env", s(&self.env)),
            ("cmdline", self.cmdline.clone()),
            ("ds", s(&self.ds)),
            ("user", s(&self.user)),
            ("vendor", s(&self.vendor)),
            ("vendor2", s(&self.vendor2)),
            ("instance-data", self.instance_data.clone()),
        ] {
            if let Some(v) = v {
                out.push_str(&format!("\n--- {name}\n{v}"));
            }
        }
        out
    }
}

const SPECS: &[&str] = &[
    "list(append)+dict(no_replace,recurse_list)+str()",
    "dict(replace)+list()+str()",
    "list(append)",
    "dict(recurse_array)+list(prepend)+str(append)",
    "dict(replace,recurse_list)+list(append)",
    "list()+dict()+str()",
    "dict(no_replace,recurse_str)+str(append)",
    "dict(recurse_list,allow_delete)+list(append)",
];

/// A scalar, in YAML flow syntax.
fn scalar(r: &mut Rng, tag: &str) -> String {
    match r.below(9) {
        0 => tag.to_owned(),
        1 => format!("'{tag} s'"),
        2 => r.below(5).to_string(),
        3 => (*r.pick(&["true", "false", "yes", "no", "~", "null"])).to_owned(),
        4 => (*r.pick(&["1.5", "0755", "'0644'", "2001-12-14", "0x1F"])).to_owned(),
        _ => format!("{tag}-{}", r.below(3)),
    }
}

fn list(r: &mut Rng, tag: &str) -> String {
    let n = 1 + r.below(3);
    let items: Vec<String> = (0..n).map(|i| format!("{tag}{i}")).collect();
    format!("[{}]", items.join(", "))
}

/// A value for a generic key, in flow syntax, at most `depth` more levels.
fn value(r: &mut Rng, tag: &str, depth: usize) -> String {
    match r.below(if depth == 0 { 3 } else { 5 }) {
        0 => scalar(r, tag),
        1 => list(r, tag),
        2 => format!("'{tag} string'"),
        _ => {
            let keys = ["x", "y", "z"];
            let n = 1 + r.below(3);
            let mut parts = Vec::new();
            for k in keys.iter().take(n) {
                parts.push(format!("{k}: {}", value(r, tag, depth - 1)));
            }
            format!("{{{}}}", parts.join(", "))
        }
    }
}

fn vendor_setting(r: &mut Rng) -> String {
    if r.chance(10) {
        return (*r.pick(&["false", "no", "[1]", "'off'", "~", "5"])).to_owned();
    }
    let mut parts = Vec::new();
    if r.chance(85) {
        parts.push(format!(
            "enabled: {}",
            r.pick(&[
                "true", "false", "true", "'yes'", "'no'", "1", "0", "~", "'true'", "'off'"
            ])
        ));
    }
    if r.chance(40) {
        parts.push(format!(
            "disabled_handlers: {}",
            r.pick(&[
                "[text/cloud-config]",
                "[text/x-shellscript]",
                "text/cloud-config",
                "text/cloud",
                "~",
                "[text/cloud-config, text/x-shellscript]",
                "{text/cloud-config: 1}",
            ])
        ));
    }
    if r.chance(30) {
        parts.push("prefix: [a]".to_owned());
    }
    format!("{{{}}}", parts.join(", "))
}

fn system_info(r: &mut Rng, tag: &str) -> String {
    let mut parts = Vec::new();
    if r.chance(60) {
        parts.push(format!("default_user: {{name: {tag}}}"));
    }
    if r.chance(40) {
        parts.push(format!("ntp_client: {tag}"));
    }
    if r.chance(15) {
        parts.push(
            "paths: {cloud_dir: /var/lib/cloud/, templates_dir: /etc/cloud/templates/}".to_owned(),
        );
    }
    if r.chance(30) {
        parts.push(format!("package_mirrors: {}", list(r, tag)));
    }
    format!("{{{}}}", parts.join(", "))
}

/// A cloud-config mapping body (one top-level key per line).
pub(crate) fn body(r: &mut Rng, tag: &str, allow_spec: bool) -> String {
    let keys: &[&str] = &[
        "runcmd",
        "bootcmd",
        "packages",
        "a",
        "b",
        "nested",
        "users",
        "vendor_data",
        "vendor_data2",
        "system_info",
        "allow_userdata",
        "hostname",
        "merge_how",
        "merge_type",
    ];
    let n = r.below(6);
    let mut out = String::new();
    let mut seen = Vec::new();
    for _ in 0..n {
        let k = *r.pick(keys);
        if seen.contains(&k) {
            continue;
        }
        seen.push(k);
        let v = match k {
            "runcmd" | "bootcmd" | "packages" | "users" => {
                if r.chance(85) {
                    list(r, tag)
                } else {
                    format!("'{tag} str'")
                }
            }
            "nested" => value(r, tag, 3),
            "vendor_data" | "vendor_data2" => vendor_setting(r),
            "system_info" => {
                if r.chance(5) {
                    "5".to_owned()
                } else {
                    system_info(r, tag)
                }
            }
            "allow_userdata" => (*r.pick(&["false", "true", "'no'", "0", "1", "'yes'"])).to_owned(),
            "hostname" => format!("'{tag}-host'"),
            "merge_how" | "merge_type" => {
                if !allow_spec {
                    continue;
                }
                format!("'{}'", r.pick(SPECS))
            }
            _ => value(r, tag, 2),
        };
        out.push_str(&format!("{k}: {v}\n"));
    }
    out
}

/// A conf.d file name; some sort in surprising ways (`9_` after `10_`, upper case
/// before lower, `_` after letters' upper case), some are not `.cfg` files.
const CONFD_NAMES: &[&str] = &[
    "05_logging.cfg",
    "10_a.cfg",
    "9_b.cfg",
    "90_dpkg.cfg",
    "99-z.cfg",
    "Z.cfg",
    "a.cfg",
    "_under.cfg",
    "x.cfg.bak",
    "README",
    "zz.cfg",
    "100_c.cfg",
];

fn etc(r: &mut Rng) -> Vec<(String, Option<Vec<u8>>)> {
    let mut files = Vec::new();
    let confd_dir = if r.chance(15) { "alt.d" } else { "cloud.cfg.d" };
    if r.chance(85) {
        let mut cfg = if r.chance(10) {
            template(r, "etc")
        } else {
            body(r, "etc", true)
        };
        if r.chance(15) {
            cfg.push_str(&format!(
                "conf_d: {}\n",
                r.pick(&[
                    "/etc/cloud/alt.d",
                    "etc/cloud/alt.d",
                    "''",
                    "~",
                    "/etc/cloud/cloud.cfg.d",
                    "/opt/none.d",
                    "/etc/cloud"
                ])
            ));
        }
        files.push(("cloud.cfg".to_owned(), Some(cfg.into_bytes())));
    }
    let n = r.below(5);
    for _ in 0..n {
        let name = *r.pick(CONFD_NAMES);
        let dir = if r.chance(80) {
            "cloud.cfg.d"
        } else {
            confd_dir
        };
        let path = format!("{dir}/{name}");
        if files.iter().any(|(p, _)| *p == path) {
            continue;
        }
        let tag = name.trim_end_matches(".cfg").replace(['.', '-'], "_");
        let text = if r.chance(5) {
            "a: [1\n".to_owned()
        } else if r.chance(5) {
            "- a list\n".to_owned()
        } else {
            body(r, &tag, true)
        };
        files.push((path, Some(text.into_bytes())));
    }
    if r.chance(5) {
        files.push(("cloud.cfg.d/dir.cfg".to_owned(), None));
    }
    files
}

fn payload(r: &mut Rng, tag: &str) -> Vec<u8> {
    match r.below(10) {
        0 => super::payload_gen::cloud_config(r).into_bytes(),
        1 => Vec::new(),
        2..=4 => {
            // Multipart: cloud-config parts with or without Merge-Type, maybe a script.
            let mut p =
                b"Content-Type: multipart/mixed; boundary=XB\nMIME-Version: 1.0\n\n".to_vec();
            for i in 0..(1 + r.below(3)) {
                if r.chance(20) {
                    p.extend_from_slice(
                        b"--XB\nContent-Type: text/x-shellscript\n\n#!/bin/sh\necho hi\n",
                    );
                    continue;
                }
                p.extend_from_slice(b"--XB\nContent-Type: text/cloud-config\n");
                if r.chance(40) {
                    p.extend_from_slice(format!("Merge-Type: {}\n", r.pick(SPECS)).as_bytes());
                }
                if r.chance(30) {
                    p.extend_from_slice(
                        format!("Content-Disposition: attachment; filename=\"{tag}{i}.yaml\"\n")
                            .as_bytes(),
                    );
                }
                p.extend_from_slice(b"\n");
                p.extend_from_slice(body(r, &format!("{tag}{i}"), true).as_bytes());
            }
            p.extend_from_slice(b"--XB--\n");
            p
        }
        5 => format!(
            "## template: jinja\n#cloud-config\nruncmd: [{{{{ v1.region }}}}, {tag}]\n{}",
            body(r, tag, true)
        )
        .into_bytes(),
        _ => format!("#cloud-config\n{}", body(r, tag, true)).into_bytes(),
    }
}

/// A `## template: jinja` config file: values from the instance data, a
/// conditional, a missing variable, an undefined error, a syntax error, an
/// empty render, an unknown template type, a basic template.
fn template(r: &mut Rng, tag: &str) -> String {
    let head = "## template: jinja\n";
    match r.below(10) {
        0 => format!(
            "{head}runcmd: [{{{{ v1.region }}}}, '{{{{ v1.local_hostname }}}}']\n{}",
            body(r, tag, true)
        ),
        1 => format!(
            "{head}{{% if v1.region == 'eu-1' %}}\nbootcmd: [{{{{ v1.instance_id }}}}]\n{{% else %}}\nbootcmd: [other]\n{{% endif %}}\n"
        ),
        2 => format!("{head}a: '{{{{ nope }}}}'\n"),
        3 => format!("{head}a: '{{{{ nope.x }}}}'\n"),
        4 => format!("{head}a: {{{{ v1.region\n"),
        5 => format!("{head}{{# nothing #}}"),
        6 => "## template: mustache\na: 1\n".to_owned(),
        7 => format!("## template: basic\n{}", body(r, tag, true)),
        8 => format!(
            "{head}packages: {{{{ ds.meta_data.tags }}}}\nhostname: {{{{ v1.local_hostname }}}}-{tag}\n"
        ),
        _ => format!("{head}{}", body(r, tag, true)),
    }
}

const INSTANCE_DATA: &[&str] = &[
    r#"{"v1": {"region": "eu-1", "local_hostname": "h1", "instance_id": "i-1"}, "ds": {"meta_data": {"tags": ["t1", "t2"]}}}"#,
    r#"{"v1": {"region": "us-2", "local_hostname": "h2", "instance_id": "i-2"}, "ds": {"meta_data": {"tags": []}}}"#,
];

pub(crate) fn case(r: &mut Rng) -> Case {
    Case {
        etc: r.chance(75).then(|| etc(r)),
        run: r.chance(20).then(|| body(r, "run", true).into_bytes()),
        env: r.chance(15).then(|| body(r, "env", true).into_bytes()),
        cmdline: r.chance(20).then(|| {
            let b = body(r, "cmd", true).replace('\n', "\\n");
            format!("ro quiet cc: {b} end_cc console=ttyS0")
        }),
        ds: r.chance(20).then(|| body(r, "ds", true).into_bytes()),
        user: r.chance(80).then(|| payload(r, "user")),
        vendor: r.chance(50).then(|| payload(r, "vendor")),
        vendor2: r.chance(25).then(|| payload(r, "vendortwo")),
        instance_data: r.chance(50).then(|| (*r.pick(INSTANCE_DATA)).to_owned()),
    }
}

/// Every recorded case under `fixtures/layers/` (directory, case), by name.
pub(crate) fn recorded_cases() -> Vec<(String, Case)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/layers");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs.into_iter()
        .map(|d| (d.to_string_lossy().into_owned(), Case::from_dir(&d)))
        .collect()
}
