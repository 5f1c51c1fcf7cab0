//! Generated cloud-config fragments for the keyed dialect: the keys of the identity table, small value pools so that items meet, merge and conflict.

use super::rng::Rng;

fn pick(r: &mut Rng, xs: &[&str]) -> String {
    xs[r.below(xs.len())].to_owned()
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

fn list(r: &mut Rng, max: usize, item: impl Fn(&mut Rng) -> String) -> String {
    let n = 1 + r.below(max);
    let items: Vec<String> = (0..n).map(|_| item(r)).collect();
    format!("[{}]", items.join(", "))
}

fn write_file(r: &mut Rng) -> String {
    let mut fields = vec![format!(
        "path: {}",
        q(&pick(r, &["/etc/a", "/etc/b", "/etc/c"]))
    )];
    if r.chance(60) {
        fields.push(format!("content: {}", q(&pick(r, &["one\n", "two\n"]))));
    }
    if r.chance(30) {
        fields.push(format!("permissions: {}", q(&pick(r, &["0644", "0600"]))));
    }
    if r.chance(20) {
        fields.push("append: true".into());
    }
    format!("{{{}}}", fields.join(", "))
}

fn user(r: &mut Rng) -> String {
    if r.chance(25) {
        return q(&pick(r, &["default", "carol"]));
    }
    let mut fields = vec![format!("name: {}", q(&pick(r, &["alice", "bob"])))];
    if r.chance(50) {
        fields.push(format!(
            "groups: {}",
            list(r, 2, |r| q(&pick(r, &["sudo", "adm", "docker"])))
        ));
    }
    if r.chance(30) {
        fields.push(format!(
            "shell: {}",
            q(&pick(r, &["/bin/bash", "/bin/zsh"]))
        ));
    }
    if r.chance(30) {
        fields.push(format!(
            "ssh_authorized_keys: {}",
            list(r, 2, |r| q(&pick(
                r,
                &["ssh-ed25519 AAAA k1", "ssh-ed25519 BBBB k2"]
            )))
        ));
    }
    format!("{{{}}}", fields.join(", "))
}

fn key_value(r: &mut Rng) -> (&'static str, String) {
    match r.below(14) {
        0 | 1 => (
            "packages",
            list(r, 3, |r| {
                if r.chance(15) {
                    format!("[{}, {}]", q("nginx"), q(&pick(r, &["1.2", "1.3"])))
                } else {
                    q(&pick(r, &["git", "curl", "vim", "htop"]))
                }
            }),
        ),
        2 => (
            "runcmd",
            list(r, 2, |r| {
                if r.chance(20) {
                    format!("[{}, {}]", q("echo"), q(&pick(r, &["a", "b"])))
                } else {
                    q(&pick(r, &["echo hi", "touch /x", "echo hi"]))
                }
            }),
        ),
        3 => (
            "bootcmd",
            list(r, 2, |r| q(&pick(r, &["echo boot", "true"]))),
        ),
        4 | 5 => ("write_files", list(r, 2, write_file)),
        6 => ("users", list(r, 2, user)),
        7 => (
            "groups",
            list(r, 2, |r| {
                if r.chance(50) {
                    q(&pick(r, &["ops", "dev"]))
                } else {
                    format!(
                        "{{{}: {}}}",
                        q(&pick(r, &["admins", "ops"])),
                        list(r, 2, |r| q(&pick(r, &["alice", "bob"])))
                    )
                }
            }),
        ),
        8 => (
            "mounts",
            list(r, 2, |r| {
                format!(
                    "[{}, {}, {}]",
                    q(&pick(r, &["/dev/sdb", "/dev/sdc"])),
                    q(&pick(r, &["/mnt", "/data"])),
                    q("auto")
                )
            }),
        ),
        9 => (
            "ssh_authorized_keys",
            list(r, 2, |r| {
                q(&pick(r, &["ssh-rsa AAA one", "ssh-rsa BBB two"]))
            }),
        ),
        10 => ("hostname", q(&pick(r, &["web", "db"]))),
        11 => (
            "apt",
            format!(
                "{{sources: {{{}: {{source: {}}}}}}}",
                q(&pick(r, &["docker", "nodesource"])),
                q(&pick(
                    r,
                    &["deb http://a stable main", "deb http://b stable main"]
                ))
            ),
        ),
        12 => (
            "ntp",
            format!(
                "{{enabled: true, servers: {}}}",
                list(r, 2, |r| q(&pick(r, &["ntp1", "ntp2"])))
            ),
        ),
        _ => ("package_update", pick(r, &["true", "true", "false"])),
    }
}

/// One fragment: a flow mapping of up to four distinct keys.
pub(crate) fn fragment(r: &mut Rng) -> String {
    let mut seen = Vec::new();
    let mut fields = Vec::new();
    for _ in 0..1 + r.below(4) {
        let (k, v) = key_value(r);
        if !seen.contains(&k) {
            seen.push(k);
            fields.push(format!("{k}: {v}"));
        }
    }
    format!("{{{}}}\n", fields.join(", "))
}

/// 1–4 fragments.
pub(crate) fn fragment_set(r: &mut Rng) -> Vec<String> {
    (0..1 + r.below(4)).map(|_| fragment(r)).collect()
}
