//! `validate --schema` against cloud-init's own schema file, found where the oracle setup
//! extracts cloud-init (never committed). Golden outputs: fixtures/validate/schema-*.stdout;
//! regenerate with `CLOUDFOLD_BLESS=1 cargo test -p cloudfold-cli --test cli validate_schema:: -- --include-ignored`.

use std::path::PathBuf;
use std::process::Command;

const SCHEMA: &str =
    "usr/lib/python3/dist-packages/cloudinit/config/schemas/schema-cloud-config-v1.json";

/// The trixie (25.1) schema from the oracle's cache; a missing one fails the test.
fn schema() -> PathBuf {
    let cache = std::env::var_os("CI_ORACLE_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("cloudfold-oracle"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/cloudfold-oracle"))
        })
        .unwrap_or_default();
    let p = cache.join("cloud-init-root-trixie").join(SCHEMA);
    assert!(
        p.is_file(),
        "{} is missing (run ../shared/oracle/setup.sh --trixie)",
        p.display()
    );
    p
}

fn run(schema: &std::path::Path, fixture: &str, json: bool) -> (String, i32) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/validate");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cloudfold"));
    cmd.current_dir(dir)
        .arg("validate")
        .arg(format!("--schema={}", schema.display()))
        .arg(fixture);
    if json {
        cmd.args(["--format", "json"]);
    }
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
#[ignore = "needs the extracted cloud-init 25.1 (../shared/oracle/setup.sh --trixie): scripts/conformance.sh runs it"]
fn schema_golden_cases() {
    let schema = schema();
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/validate"));
    for (name, code) in [("schema-invalid", 5), ("schema-deprecated", 0)] {
        for json in [false, true] {
            let (out, status) = run(&schema, &format!("{name}.txt"), json);
            assert_eq!(status, code, "{name} json={json}\n{out}");
            let golden = dir.join(format!("{name}{}.stdout", if json { "-json" } else { "" }));
            if std::env::var_os("CLOUDFOLD_BLESS").is_some() {
                std::fs::write(&golden, &out).unwrap();
            }
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            assert_eq!(
                out,
                want,
                "{} differs (bless with CLOUDFOLD_BLESS=1)",
                golden.display()
            );
        }
    }
}

/// A config with no problems passes the real schema; every sample the oracle merges
/// cleanly has no schema *error* on a key cloud-init's own docs use.
#[test]
#[ignore = "needs the extracted cloud-init 25.1 (../shared/oracle/setup.sh --trixie): scripts/conformance.sh runs it"]
fn schema_accepts_a_typical_config() {
    let schema = schema();
    let dir = std::env::temp_dir().join(format!("cloudfold-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("ok.yaml");
    std::fs::write(
        &f,
        "#cloud-config\npackage_update: true\npackages: [nginx, [git, '1:2.39']]\nruncmd:\n  - [systemctl, start, nginx]\n  - echo done\nusers:\n  - default\n  - name: bob\n    groups: [sudo]\n    shell: /bin/bash\nwrite_files:\n  - path: /etc/motd\n    content: hi\n    permissions: '0644'\nswap:\n  size: 512M\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cloudfold"))
        .arg("validate")
        .arg(format!("--schema={}", schema.display()))
        .arg(&f)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("schema-"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A config touching many modules, valid under the 25.1 schema.
const BASE: &str = r#"{
  "package_update": true, "package_upgrade": false, "packages": ["nginx", ["git", "1:2.39"]],
  "runcmd": [["systemctl", "start", "nginx"], "echo done"],
  "bootcmd": ["echo boot"],
  "users": ["default", {"name": "bob", "groups": ["sudo"], "shell": "/bin/bash",
             "sudo": "ALL=(ALL) NOPASSWD:ALL", "lock_passwd": true,
             "ssh_authorized_keys": ["ssh-ed25519 AAAA bob"]}],
  "write_files": [{"path": "/etc/motd", "content": "hi", "permissions": "0644",
                   "owner": "root:root", "append": false, "defer": true}],
  "swap": {"filename": "/swap.img", "size": "512M", "maxsize": 1073741824},
  "ntp": {"enabled": true, "servers": ["ntp.example.com"], "pools": ["pool.ntp.org"]},
  "timezone": "Europe/Berlin", "hostname": "web", "fqdn": "web.example.com",
  "manage_etc_hosts": true, "ssh_pwauth": false, "disable_root": true,
  "apt": {"preserve_sources_list": true, "sources": {"x": {"source": "deb http://example.com stable main"}}},
  "final_message": "up after $UPTIME", "power_state": {"mode": "reboot", "delay": 5, "condition": true},
  "growpart": {"mode": "auto", "devices": ["/"]}, "resize_rootfs": true,
  "mounts": [["/dev/sdb", "/data", "ext4", "defaults", "0", "2"]],
  "ssh_keys": {"rsa_private": "x", "rsa_public": "y"},
  "chpasswd": {"expire": false, "users": [{"name": "bob", "password": "x", "type": "text"}]},
  "phone_home": {"url": "http://example.com/$INSTANCE_ID/", "post": "all", "tries": 10},
  "locale": "en_US.UTF-8", "snap": {"commands": ["snap install hello"]}
}"#;

/// Schema findings against cloud-init's own validator, over random mutations of
/// [`BASE`]: the same top-level keys have errors, and the same have deprecations.
#[test]
#[ignore = "needs the extracted cloud-init 25.1 (../shared/oracle/setup.sh --trixie): scripts/conformance.sh runs it"]
fn schema_differential_cloud_init() {
    use cloudfold::userdata::NoIncludes;
    use cloudfold::validate::{JsonSchema, ValidateOptions, validate};
    use serde_json::{Value as J, json};
    use std::collections::BTreeSet;
    use std::io::{BufRead, Write};
    let schema_path = schema();
    let root = schema_path
        .ancestors()
        .find(|p| p.file_name().is_some_and(|n| n == "cloud-init-root-trixie"))
        .unwrap()
        .to_path_buf();
    let schema = JsonSchema::parse(&std::fs::read_to_string(&schema_path).unwrap()).unwrap();
    let n: usize = std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let base: J = serde_json::from_str(BASE).unwrap();
    let mut seed: u64 = 0x5C4E_3A11;
    let mut next = move |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m.max(1) as u64) as usize
    };
    let values = [
        json!("text"),
        json!(""),
        json!(3),
        json!(-1),
        json!(true),
        json!(null),
        json!(1.5),
        json!([]),
        json!(["a"]),
        json!({}),
        json!({"x": 1}),
        json!("512M"),
        json!("auto"),
        json!([1, 2]),
        json!("yes"),
    ];
    let keys = [
        "sudoers",
        "pacakges",
        "runcmd",
        "name",
        "x",
        "apt_update",
        "apt_upgrade",
        "mode",
        "size",
    ];
    let configs: Vec<J> = (0..n)
        .map(|_| {
            let mut c = base.clone();
            for _ in 0..=next(3) {
                // Walk to a random container, then change, add or delete one entry.
                let mut ptr = String::new();
                for _ in 0..next(4) {
                    let cur = c.pointer(&ptr).unwrap();
                    let (seg, child) = match cur {
                        J::Object(o) if !o.is_empty() => {
                            let k = o.keys().nth(next(o.len())).unwrap().clone();
                            let child = &o[&k];
                            (k.replace('~', "~0").replace('/', "~1"), child)
                        }
                        J::Array(a) if !a.is_empty() => {
                            let i = next(a.len());
                            (i.to_string(), &a[i])
                        }
                        _ => break,
                    };
                    if !(child.is_object() || child.is_array()) {
                        break;
                    }
                    ptr = format!("{ptr}/{seg}");
                }
                let cur = c.pointer_mut(&ptr).unwrap();
                let v = values[next(values.len())].clone();
                match cur {
                    J::Object(o) => match next(3) {
                        0 if !o.is_empty() => {
                            let k = o.keys().nth(next(o.len())).unwrap().clone();
                            o.insert(k, v);
                        }
                        1 if !o.is_empty() => {
                            let k = o.keys().nth(next(o.len())).unwrap().clone();
                            o.remove(&k);
                        }
                        _ => {
                            o.insert(keys[next(keys.len())].to_owned(), v);
                        }
                    },
                    J::Array(a) if !a.is_empty() => {
                        let i = next(a.len());
                        a[i] = v;
                    }
                    J::Array(a) => a.push(v),
                    _ => {}
                }
            }
            c
        })
        .collect();
    let mut child = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scripts/schema_oracle.py"
        ))
        .arg(&root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feed: Vec<String> = configs
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"id": i, "config": c}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for l in feed {
            if writeln!(stdin, "{l}").is_err() {
                break;
            }
        }
    });
    let top = |p: &str| p.split(['.', '[']).next().unwrap_or("").to_owned();
    let mut bad = Vec::new();
    let mut seen = 0;
    let (mut with_errors, mut with_deps) = (0, 0);
    for line in std::io::BufReader::new(child.stdout.take().unwrap()).lines() {
        let v: J = serde_json::from_str(&line.unwrap()).unwrap();
        let i = v["id"].as_u64().unwrap() as usize;
        seen += 1;
        let keys_of = |k: &str| -> BTreeSet<String> {
            v[k].as_array()
                .unwrap()
                .iter()
                .map(|p| top(p[0].as_str().unwrap()))
                .collect()
        };
        let (want_err, want_dep) = (keys_of("errors"), keys_of("deprecations"));
        with_errors += usize::from(!want_err.is_empty());
        with_deps += usize::from(!want_dep.is_empty());
        let payload = format!("#cloud-config\n{}\n", configs[i]);
        let opts = ValidateOptions {
            schema: Some(schema.clone()),
            ..ValidateOptions::default()
        };
        let r = validate(payload.as_bytes(), &opts, &NoIncludes);
        let root_extra = r
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("Additional properties are not allowed"))
            .filter_map(|d| d.primary.as_ref()?.path.as_deref())
            .filter(|p| p.matches(['.', '[']).count() == 1)
            .count();
        let ours = |code: &str| -> BTreeSet<String> {
            r.diagnostics
                .iter()
                .filter(|d| d.code == code)
                .filter_map(|d| {
                    let p = d.primary.as_ref()?.path.as_deref()?;
                    // cloud-init puts an unexpected key at its parent's path.
                    // (At the root, cloud-init names the key when it is the only one.)
                    if d.message.contains("Additional properties are not allowed")
                        && !(p.matches(['.', '[']).count() == 1 && root_extra == 1)
                    {
                        let parent = match p.rfind(['.', '[']) {
                            Some(i) => &p[..i],
                            None => p,
                        };
                        return Some(top(parent.trim_start_matches('$').trim_start_matches('.')));
                    }
                    Some(top(p.trim_start_matches("$.")))
                })
                .collect()
        };
        let (got_err, got_dep) = (ours("schema-invalid"), ours("schema-deprecated"));
        if got_err != want_err || got_dep != want_dep {
            bad.push(format!(
                "case {i}: errors ours {got_err:?} cloud-init {want_err:?}; deprecations ours {got_dep:?} cloud-init {want_dep:?}\n  {}",
                configs[i]
            ));
        }
    }
    writer.join().unwrap();
    let _ = child.wait();
    assert_eq!(seen, n);
    eprintln!(
        "schema vs cloud-init: {}/{n} configs agree ({with_errors} with errors, {with_deps} with deprecations)",
        n - bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
}
