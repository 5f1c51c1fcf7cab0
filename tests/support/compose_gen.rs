//! A generator of Docker Compose file sets (2–3 files) for the `compose` dialect's differential test.
//!
//! Files are written in flow style (JSON-like, quoted strings) so YAML 1.1
//! (our loader) and YAML 1.2 (compose-go) read the same scalars; tags
//! (`!reset`, `!override`) sit on flow values.

use super::rng::Rng;

/// A generated value.
#[derive(Clone, Debug)]
pub(crate) enum G {
    Null,
    Int(i64),
    Bool(bool),
    Str(String),
    Seq(Vec<G>),
    Map(Vec<(String, G)>),
    Tag(&'static str, Box<G>),
}

fn s(x: impl AsRef<str>) -> G {
    G::Str(x.as_ref().to_string())
}

impl G {
    /// Flow YAML.
    pub(crate) fn write(&self, out: &mut String, indent: usize) {
        match self {
            G::Null => out.push_str("null"),
            G::Int(i) => out.push_str(&i.to_string()),
            G::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            G::Str(x) => out.push_str(&serde_json::to_string(x).unwrap()),
            G::Seq(items) => {
                out.push('[');
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    it.write(out, indent);
                }
                out.push(']');
            }
            G::Map(entries) => {
                // Top two levels one entry per line, for readable fixtures.
                let nl = indent < 2;
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                        if !nl {
                            out.push(' ');
                        }
                    }
                    if nl {
                        out.push('\n');
                        out.push_str(&"  ".repeat(indent + 1));
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push_str(": ");
                    v.write(out, indent + 1);
                }
                if nl && !entries.is_empty() {
                    out.push('\n');
                    out.push_str(&"  ".repeat(indent));
                }
                out.push('}');
            }
            G::Tag(t, v) => {
                out.push_str(t);
                out.push(' ');
                v.write(out, indent);
            }
        }
    }
}

const SERVICES: &[&str] = &["web", "db", "cache"];
const WORDS: &[&str] = &["alpha", "beta", "x y", "v1", "v2", "héllo", ""];

fn word(r: &mut Rng) -> G {
    s(r.pick(WORDS))
}

fn scalar(r: &mut Rng) -> G {
    match r.below(5) {
        0 => G::Int(r.below(100) as i64),
        1 => G::Null,
        2 => G::Bool(r.chance(50)),
        _ => word(r),
    }
}

fn env_key(r: &mut Rng) -> String {
    (*r.pick(&["A", "B", "C", "D"])).to_string()
}

fn kv_block(r: &mut Rng, allow_reset: bool) -> G {
    let n = 1 + r.below(3);
    if r.chance(50) {
        let mut m = Vec::new();
        for _ in 0..n {
            let k = env_key(r);
            if m.iter().any(|(x, _): &(String, G)| *x == k) {
                continue;
            }
            let v = match r.below(4) {
                0 => G::Null,
                1 => G::Int(r.below(10) as i64),
                _ => word(r),
            };
            let v = if allow_reset && r.chance(10) {
                G::Tag("!reset", Box::new(G::Null))
            } else if r.chance(5) {
                G::Tag("!override", Box::new(v))
            } else {
                v
            };
            m.push((k, v));
        }
        G::Map(m)
    } else {
        let mut items = Vec::new();
        for _ in 0..n {
            let k = env_key(r);
            if items
                .iter()
                .any(|x: &G| matches!(x, G::Str(t) if t.split('=').next() == Some(&k)))
            {
                continue;
            }
            items.push(if r.chance(20) {
                s(&k)
            } else {
                s(format!("{k}={}", r.pick(&["1", "two", "x y", ""])))
            });
        }
        G::Seq(items)
    }
}

fn port(r: &mut Rng) -> G {
    match r.below(10) {
        0 => G::Int(*r.pick(&[80, 443, 9000])),
        1 => s(r.pick(&[
            "80",
            "8080:80",
            "127.0.0.1:81:81/udp",
            "8000-8001:90-91",
            "8001:91",
        ])),
        2 => s(r.pick(&[
            "80:80",
            "443:443",
            "8080:80/tcp",
            "[::1]:82:82",
            "9000-9001:9000-9001",
        ])),
        3 => s(r.pick(&["8000-8001:90", "53:53/udp", "53:53", "127.0.0.1::85"])),
        4 => G::Map(vec![
            ("target".into(), G::Int(80)),
            ("published".into(), s("80")),
        ]),
        5 => G::Map(vec![
            ("target".into(), G::Int(80)),
            ("published".into(), s("8080")),
            ("mode".into(), s("host")),
        ]),
        6 => G::Map(vec![
            ("target".into(), G::Int(53)),
            ("published".into(), s("53")),
            ("protocol".into(), s("udp")),
        ]),
        7 => G::Map(vec![("target".into(), G::Int(*r.pick(&[80, 90, 91])))]),
        8 => G::Map(vec![
            ("target".into(), G::Int(81)),
            ("published".into(), G::Int(81)),
            ("host_ip".into(), s("127.0.0.1")),
        ]),
        _ => G::Map(vec![
            ("target".into(), G::Int(443)),
            ("published".into(), s("443")),
            ("protocol".into(), s("tcp")),
        ]),
    }
}

fn volume(r: &mut Rng) -> G {
    match r.below(8) {
        0 => s(r.pick(&["data:/var/data", "data:/var/data:ro", "logs:/logs:nocopy"])),
        1 => s(r.pick(&["/host:/c:ro", "./src:/app", "./src:/app:rw,z", "/anon"])),
        2 => s(r.pick(&["~/x:/y", "/srv:/c", "cache:/var/data"])),
        3 => G::Map(vec![
            ("type".into(), s("volume")),
            ("source".into(), s("data")),
            ("target".into(), s("/var/data")),
        ]),
        4 => G::Map(vec![
            ("type".into(), s("bind")),
            ("source".into(), s("/h")),
            ("target".into(), s("/c")),
            ("read_only".into(), G::Bool(true)),
        ]),
        5 => G::Map(vec![
            ("type".into(), s("tmpfs")),
            ("target".into(), s("/tmp")),
        ]),
        _ => G::Map(vec![
            ("type".into(), s("volume")),
            ("source".into(), s("logs")),
            ("target".into(), s("/logs")),
            (
                "volume".into(),
                G::Map(vec![("nocopy".into(), G::Bool(true))]),
            ),
        ]),
    }
}

fn mount(r: &mut Rng, kind: &str) -> G {
    let names = if kind == "s" {
        ["s1", "s2"]
    } else {
        ["c1", "c2"]
    };
    let name = *r.pick(&names);
    match r.below(4) {
        0 | 1 => s(name),
        2 => G::Map(vec![("source".into(), s(name))]),
        _ => {
            let target = if kind == "s" {
                *r.pick(&["/run/secrets/s1", "/custom", "t2"])
            } else {
                *r.pick(&["/c1", "/etc/c", "/c2"])
            };
            G::Map(vec![
                ("source".into(), s(name)),
                ("target".into(), s(target)),
            ])
        }
    }
}

fn list_of(r: &mut Rng, f: impl Fn(&mut Rng) -> G) -> G {
    let n = 1 + r.below(3);
    let mut items: Vec<G> = (0..n).map(|_| f(r)).collect();
    if r.chance(8) {
        items.push(G::Tag("!reset", Box::new(f(r))));
    }
    G::Seq(items)
}

fn dedup_strings(items: Vec<G>) -> Vec<G> {
    let mut out: Vec<G> = Vec::new();
    for it in items {
        if let G::Str(x) = &it
            && out.iter().any(|o| matches!(o, G::Str(y) if y == x))
        {
            continue;
        }
        out.push(it);
    }
    out
}

fn command(r: &mut Rng) -> G {
    match r.below(3) {
        0 => s(r.pick(&["echo hi", "sleep 1"])),
        1 => G::Seq(vec![s("sh"), s("-c"), word(r)]),
        _ => G::Seq(vec![]),
    }
}

fn service(r: &mut Rng, idx: usize, name: &str) -> G {
    let later = idx > 0;
    let mut m: Vec<(String, G)> = Vec::new();
    if !later || r.chance(30) {
        m.push(("image".into(), s(r.pick(&["nginx", "redis:7", "alpine"]))));
    } else if idx == 1 && r.chance(5) {
        // A null keeps the earlier image (the first file defines every
        // service; nothing before the second file can have reset it).
        m.push(("image".into(), G::Null));
    }
    let fields = 1 + r.below(6);
    for _ in 0..fields {
        let (k, v): (&str, G) = match r.below(19) {
            0 => ("command", command(r)),
            1 => ("entrypoint", command(r)),
            2 => ("environment", kv_block(r, later)),
            3 => ("labels", kv_block(r, later)),
            4 => ("ports", G::Seq(dedup_ports(r))),
            5 => ("volumes", list_of(r, volume)),
            6 => ("secrets", list_of(r, |r| mount(r, "s"))),
            7 => ("configs", list_of(r, |r| mount(r, "c"))),
            8 => (
                "networks",
                if r.chance(50) {
                    G::Seq(dedup_strings(vec![
                        s(r.pick(&["front", "back"])),
                        s("back"),
                    ]))
                } else {
                    G::Map(vec![(
                        (*r.pick(&["front", "back"])).into(),
                        if r.chance(50) {
                            G::Null
                        } else {
                            G::Map(vec![("aliases".into(), G::Seq(vec![word(r)]))])
                        },
                    )])
                },
            ),
            9 => {
                let other = *r.pick(&SERVICES.iter().filter(|x| **x != name).collect::<Vec<_>>());
                (
                    "depends_on",
                    if r.chance(50) {
                        G::Seq(vec![s(other)])
                    } else {
                        G::Map(vec![(
                            other.to_string(),
                            G::Map(vec![(
                                "condition".into(),
                                s(r.pick(&["service_started", "service_healthy"])),
                            )]),
                        )])
                    },
                )
            }
            10 => (
                "healthcheck",
                G::Map(vec![
                    (
                        "test".into(),
                        if r.chance(50) {
                            G::Seq(vec![s("CMD"), s(r.pick(&["true", "curl"]))])
                        } else {
                            s("curl -f x")
                        },
                    ),
                    ("interval".into(), s(r.pick(&["5s", "10s"]))),
                    ("retries".into(), G::Int(r.below(5) as i64)),
                ]),
            ),
            11 => (
                "ulimits",
                G::Map(vec![if r.chance(50) {
                    ("nproc".into(), G::Int(100 + r.below(3) as i64))
                } else {
                    (
                        "nofile".into(),
                        G::Map(vec![
                            ("soft".into(), G::Int(1000)),
                            ("hard".into(), G::Int(2000 + r.below(3) as i64)),
                        ]),
                    )
                }]),
            ),
            12 => (
                "cap_add",
                G::Seq(dedup_strings(vec![
                    s(r.pick(&["NET_ADMIN", "SYS_TIME"])),
                    s("NET_ADMIN"),
                ])),
            ),
            13 => (
                "dns",
                if r.chance(50) {
                    s(r.pick(&["8.8.8.8", "1.1.1.1"]))
                } else {
                    G::Seq(dedup_strings(vec![
                        s("8.8.8.8"),
                        s(r.pick(&["1.1.1.1", "8.8.8.8"])),
                    ]))
                },
            ),
            14 => (
                "x-meta",
                G::Map(vec![((*r.pick(&["a", "b"])).into(), scalar(r))]),
            ),
            15 => (
                "expose",
                G::Seq(vec![if r.chance(50) {
                    G::Int(3000)
                } else {
                    s("3000")
                }]),
            ),
            16 => (
                "extra_hosts",
                if r.chance(50) {
                    G::Seq(vec![s(r.pick(&["a:10.0.0.1", "b:10.0.0.2"]))])
                } else {
                    G::Map(vec![((*r.pick(&["a", "b"])).into(), s("10.0.0.3"))])
                },
            ),
            17 => (
                "logging",
                G::Map(vec![
                    ("driver".into(), s(r.pick(&["json-file", "syslog"]))),
                    (
                        "options".into(),
                        G::Map(vec![((*r.pick(&["max-size", "tag"])).into(), word(r))]),
                    ),
                ]),
            ),
            _ => (
                "tmpfs",
                if r.chance(50) {
                    s("/run")
                } else {
                    G::Seq(vec![s("/run"), s("/tmp")])
                },
            ),
        };
        if m.iter().any(|(x, _)| x == k) {
            continue;
        }
        // The schema accepts null only for some fields.
        // (A null surviving the merge can still fail it: `environment: null`
        // on a service no earlier file has.)
        let nullable = matches!(k, "command" | "entrypoint" | "x-meta");
        let v = if later && r.chance(12) {
            // Tags on a whole field; nulls keep the earlier value.
            match r.below(3) {
                0 => G::Tag("!reset", Box::new(v)),
                1 => G::Tag("!override", Box::new(v)),
                _ if nullable => G::Null,
                _ => v,
            }
        } else {
            v
        };
        m.push((k.to_string(), v));
    }
    if later && r.chance(5) && !m.iter().any(|(k, _)| k == "image") {
        m.push(("image".into(), G::Tag("!override", Box::new(s("busybox")))));
    }
    G::Map(m)
}

fn dedup_ports(r: &mut Rng) -> Vec<G> {
    // Raw files must not repeat an item (the schema's uniqueItems).
    let mut out: Vec<G> = Vec::new();
    for _ in 0..1 + r.below(3) {
        let p = port(r);
        let mut a = String::new();
        p.write(&mut a, 5);
        if out.iter().any(|o| {
            let mut b = String::new();
            o.write(&mut b, 5);
            a == b
        }) {
            continue;
        }
        out.push(p);
    }
    out
}

fn top_resources(r: &mut Rng, kind: &str, idx: usize) -> G {
    let later = idx > 0;
    let names: &[&str] = match kind {
        "secrets" => &["s1", "s2"],
        "configs" => &["c1", "c2"],
        "networks" => &["front", "back"],
        _ => &["data", "logs", "cache"],
    };
    let mut m = Vec::new();
    for name in names {
        // Secrets and configs are defined (with a file) in the first file.
        if !r.chance(60) && (later || !matches!(kind, "secrets" | "configs")) {
            continue;
        }
        let mut def: Vec<(String, G)> = Vec::new();
        match kind {
            "secrets" | "configs" => {
                if !later {
                    def.push(("file".into(), s(r.pick(&["./a.txt", "./b.txt"]))));
                }
            }
            _ => {
                if r.chance(30) {
                    def.push(("driver".into(), s("local")));
                }
            }
        }
        if r.chance(30) {
            // Labels: map or list; for secrets/configs a list vs map across files fails.
            let labels = if kind == "secrets" || kind == "configs" {
                if r.chance(50) {
                    G::Map(vec![(env_key(r), word(r))])
                } else {
                    // Appended without de-duplication: distinct per file.
                    G::Seq(vec![s(format!("{}={idx}", env_key(r)))])
                }
            } else if r.chance(50) {
                G::Map(vec![(env_key(r), word(r))])
            } else {
                G::Seq(vec![s(format!("{}={idx}", env_key(r)))])
            };
            def.push(("labels".into(), labels));
        }
        if r.chance(10) {
            def.push(("x-note".into(), scalar(r)));
        }
        let v = if later && r.chance(8) {
            G::Null
        } else if later && r.chance(5) && !matches!(kind, "secrets" | "configs") {
            // (A reset secret or config given labels later would have no file.)
            G::Tag("!reset", Box::new(G::Map(def)))
        } else {
            G::Map(def)
        };
        m.push(((*name).to_string(), v));
    }
    G::Map(m)
}

/// One generated file.
pub(crate) fn compose_file(r: &mut Rng, idx: usize) -> String {
    let later = idx > 0;
    let mut top: Vec<(String, G)> = Vec::new();
    let mut services = Vec::new();
    for name in SERVICES {
        if !later || r.chance(50) {
            let svc = if later && r.chance(3) {
                G::Tag("!reset", Box::new(G::Null))
            } else {
                service(r, idx, name)
            };
            services.push(((*name).to_string(), svc));
        }
    }
    if !later {
        // Every service needs an image (or build) once merged.
        for (_, svc) in services.iter_mut() {
            if let G::Map(m) = svc
                && !m.iter().any(|(k, _)| k == "image")
            {
                m.insert(0, ("image".into(), s("nginx")));
            }
        }
    }
    top.push(("services".into(), G::Map(services)));
    for kind in ["volumes", "networks", "secrets", "configs"] {
        let always = !later && matches!(kind, "secrets" | "configs");
        if always || r.chance(if later { 25 } else { 50 }) {
            top.push((kind.into(), top_resources(r, kind, idx)));
        }
    }
    if r.chance(20) {
        top.push((
            "x-common".into(),
            G::Map(vec![((*r.pick(&["a", "b"])).into(), scalar(r))]),
        ));
    }
    let mut out = String::new();
    G::Map(top).write(&mut out, 0);
    out.push('\n');
    out
}

/// A set of 2–3 files, lowest priority first.
pub(crate) fn compose_case(seed: u64) -> Vec<String> {
    let mut r = Rng::new(seed);
    let n = 2 + r.below(2);
    (0..n).map(|i| compose_file(&mut r, i)).collect()
}
