//! The YAML emitter on hand-picked fixtures (fixtures/yaml-dump/, recorded from PyYAML
//! 6.0.3), anchors for shared nodes, depth and size limits. Random values against the
//! live PyYAML and cloud-init's recorded outputs are in tests/oracle/yaml_dump.rs.

use crate::support::yaml_dump_decode::*;
use cloudfold::yaml::value::{Entries, Map, Node, Seq, Value, insert};
use cloudfold::yaml::{DumpError, DumpOptions, dump};
use serde_json::Value as J;

#[test]
fn fixtures_match_pyyaml() {
    let dir = repo().join("fixtures/yaml-dump");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let case: J = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let node = decode_shared(&case["value"]);
        for (field, opts) in [
            ("cloud_init", DumpOptions::cloud_init()),
            ("readable", DumpOptions::readable()),
        ] {
            if let Some(want) = case[field].as_str() {
                let got = dump(&node, &opts).unwrap();
                assert_eq!(got, want, "{} ({field})", path.display());
                n += 1;
            }
        }
    }
    assert!(n > 10, "fixtures missing");
}

#[test]
fn shared_nodes_become_anchors() {
    let a = seq(vec![Node::str("x")]);
    let b = map(vec![(Node::str("k"), Node::str("v"))]);
    let s = Node::str("same string");
    let root = seq(vec![a.clone(), b.clone(), b, a, s.clone(), s]);
    let got = dump(&root, &DumpOptions::cloud_init()).unwrap();
    assert_eq!(
        got,
        "---\n- &id002\n    - x\n- &id001\n    k: v\n- *id001\n- *id002\n- same string\n- same string\n...\n"
    );
    // A mapping that contains itself.
    let m = Node::synthetic(Value::Map(Map::pending()));
    let mut e = Entries::default();
    insert(&mut e, Node::str("self"), m.clone());
    let Value::Map(inner) = m.value() else {
        unreachable!()
    };
    inner.fill(e).unwrap();
    assert_eq!(
        dump(&m, &DumpOptions::cloud_init()).unwrap(),
        "--- &id001\nself: *id001\n...\n"
    );
    assert_eq!(
        dump(&m, &DumpOptions::readable()).unwrap(),
        "&id001\nself: *id001\n"
    );
    // Break the cycle so the test does not leak.
    drop(m);
}

#[test]
fn shared_keys_become_anchors() {
    // Expected outputs: PyYAML 6.0.3 with cloud-init's options for
    // {d: 1, "k": d} and {t: 1, "k": t} where d is a date and t a tuple.
    let d = Node::synthetic(Value::Date(
        cloudfold::yaml::value::Date::new(2001, 1, 1).unwrap(),
    ));
    let m2 = map(vec![
        (d.clone(), Node::synthetic(Value::Int(1.into()))),
        (Node::str("k"), d),
    ]);
    assert_eq!(
        dump(&m2, &DumpOptions::cloud_init()).unwrap(),
        "---\n&id001 2001-01-01: 1\nk: *id001\n...\n"
    );
    let t = Node::synthetic(Value::Tuple(Seq::new(vec![
        Node::synthetic(Value::Int(1.into())),
        Node::synthetic(Value::Int(2.into())),
    ])));
    let m = map(vec![
        (t.clone(), Node::synthetic(Value::Int(1.into()))),
        (Node::str("k"), t),
    ]);
    assert_eq!(
        dump(&m, &DumpOptions::cloud_init()).unwrap(),
        "---\n? &id001\n- 1\n- 2\n: 1\nk: *id001\n...\n"
    );
}

#[test]
fn aliases_as_simple_keys() {
    // PyYAML 6.0.3 (cloud-init options) for {"k": d, d: 1} and {"k": t, t: 1}:
    // the keys do not sort (str vs date/tuple), so insertion order stays.
    let d = Node::synthetic(Value::Date(
        cloudfold::yaml::value::Date::new(2001, 1, 1).unwrap(),
    ));
    let m = map(vec![
        (Node::str("k"), d.clone()),
        (d, Node::synthetic(Value::Int(1.into()))),
    ]);
    assert_eq!(
        dump(&m, &DumpOptions::cloud_init()).unwrap(),
        "---\nk: &id001 2001-01-01\n*id001: 1\n...\n"
    );
    let t = Node::synthetic(Value::Tuple(Seq::new(vec![
        Node::synthetic(Value::Int(1.into())),
        Node::synthetic(Value::Int(2.into())),
    ])));
    let m = map(vec![
        (Node::str("k"), t.clone()),
        (t, Node::synthetic(Value::Int(1.into()))),
    ]);
    assert_eq!(
        dump(&m, &DumpOptions::cloud_init()).unwrap(),
        "---\nk: &id001\n- 1\n- 2\n*id001: 1\n...\n"
    );
}

/// A chain of `depth` nested one-item lists.
fn deep_list(depth: usize) -> Node {
    let mut n = Node::str("leaf");
    for _ in 0..depth {
        n = seq(vec![n]);
    }
    n
}

#[test]
fn deep_trees_do_not_overflow() {
    let deep = deep_list(200_000);
    assert_eq!(
        dump(&deep, &DumpOptions::cloud_init()),
        Err(DumpError::TooDeep(10_000))
    );
    let opts = DumpOptions {
        max_depth: 300_000,
        ..DumpOptions::cloud_init()
    };
    let out = dump(&deep, &opts).unwrap();
    assert!(out.starts_with("---\n-   -   -"));
    assert!(out.ends_with("- leaf\n...\n"));
    // Dropping a 200,000-deep Rc chain recurses; leak it instead.
    std::mem::forget(deep);
}

#[test]
fn output_limit_is_a_clean_error() {
    let big = seq((0..1000).map(|_| Node::str(&"x".repeat(100))).collect());
    let opts = DumpOptions {
        max_output_bytes: 10_000,
        ..DumpOptions::readable()
    };
    assert_eq!(dump(&big, &opts), Err(DumpError::TooLarge(10_000)));
}

/// A cloud-config-like value of about `mb` megabytes of output.
fn cloud_config_like(mb: usize) -> Node {
    let mut users = Vec::new();
    let mut files = Vec::new();
    let mut i = 0;
    let mut size = 0;
    while size < mb << 20 {
        i += 1;
        let key = format!("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC{i:08}Xk2Zz user{i}@example.com");
        size += key.len() + 200;
        users.push(map(vec![
            (Node::str("name"), Node::str(&format!("user{i}"))),
            (Node::str("groups"), Node::str("sudo, adm")),
            (Node::str("shell"), Node::str("/bin/bash")),
            (
                Node::str("lock_passwd"),
                Node::synthetic(Value::Bool(i % 2 == 0)),
            ),
            (
                Node::str("uid"),
                Node::synthetic(Value::Int((1000 + i as i64).into())),
            ),
            (Node::str("ssh_authorized_keys"), seq(vec![Node::str(&key)])),
        ]));
        let content = format!(
            "[Unit]\nDescription=service {i}\n\n[Service]\nExecStart=/usr/bin/thing --flag={i} --other 'quoted value'\n"
        );
        size += content.len() + 60;
        files.push(map(vec![
            (
                Node::str("path"),
                Node::str(&format!("/etc/systemd/system/s{i}.service")),
            ),
            (Node::str("permissions"), Node::str("0644")),
            (Node::str("content"), Node::str(&content)),
        ]));
    }
    map(vec![
        (Node::str("users"), seq(users)),
        (Node::str("write_files"), seq(files)),
        (
            Node::str("package_update"),
            Node::synthetic(Value::Bool(true)),
        ),
    ])
}

/// CPU time of this thread in seconds (Linux), to measure on a busy machine.
fn thread_cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

#[test]
fn throughput() {
    let v = cloud_config_like(if cfg!(debug_assertions) { 1 } else { 5 });
    for (name, opts) in [
        ("cloud_init", DumpOptions::cloud_init()),
        ("readable", DumpOptions::readable()),
    ] {
        let t = std::time::Instant::now();
        let cpu = thread_cpu_secs();
        let mut bytes = 0;
        let rounds = 5;
        for _ in 0..rounds {
            bytes += dump(&v, &opts).unwrap().len();
        }
        let secs = t.elapsed().as_secs_f64();
        let cpu_secs = thread_cpu_secs().zip(cpu).map(|(b, a)| b - a);
        eprintln!(
            "dump {name}: {:.1} MB output, {:.0} MB/s wall, {:.0} MB/s of CPU time",
            bytes as f64 / rounds as f64 / 1e6,
            bytes as f64 / secs / 1e6,
            cpu_secs.map_or(0.0, |c| bytes as f64 / c / 1e6)
        );
    }
}
