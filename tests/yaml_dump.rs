//! The YAML emitter against PyYAML 6.0.3: random values (scripts/yaml_dump_oracle.py),
//! hand-picked fixtures (fixtures/yaml-dump/), and cloud-init's recorded outputs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use cloudfold::yaml::typed_json::{canonical, from_typed_json};
use cloudfold::yaml::value::{Entries, Map, Node, Seq, Value, insert};
use cloudfold::yaml::{DumpError, DumpOptions, dump, dump_via_graph};
use serde_json::{Value as J, json};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Typed JSON plus `{"$def": name, "$value": v}` / `{"$ref": name}` for
/// shared (and recursive) objects, as the oracle script writes them.
struct SharedDecoder {
    defs: HashMap<String, Node>,
}

impl SharedDecoder {
    fn decode(&mut self, j: &J) -> Node {
        match j {
            J::Object(m) if m.len() == 1 && m.contains_key("$ref") => {
                self.defs[m["$ref"].as_str().unwrap()].clone()
            }
            J::Object(m) if m.len() == 2 && m.contains_key("$def") => {
                let name = m["$def"].as_str().unwrap().to_owned();
                self.define(name, &m["$value"])
            }
            J::Array(a) => Node::synthetic(Value::Seq(Seq::new(
                a.iter().map(|x| self.decode(x)).collect(),
            ))),
            J::Object(m)
                if m.len() == 1 && (m.contains_key("$tuple") || m.contains_key("$set")) =>
            {
                let (k, v) = m.iter().next().unwrap();
                let items: Vec<Node> = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| self.decode(x))
                    .collect();
                if k == "$tuple" {
                    Node::synthetic(Value::Tuple(Seq::new(items)))
                } else {
                    Node::synthetic(Value::Set(Map::new(set_entries(items))))
                }
            }
            J::Object(m) if is_plain_map(m) => {
                let mut e = Entries::default();
                for (k, v) in m {
                    insert(&mut e, key_node(k), self.decode(v));
                }
                Node::synthetic(Value::Map(Map::new(e)))
            }
            other => from_typed_json(other).unwrap_or_else(|e| panic!("{e}: {other}")),
        }
    }

    /// A shared object: containers are registered before their items so
    /// that items may refer back to them.
    fn define(&mut self, name: String, j: &J) -> Node {
        match j {
            J::Array(a) => {
                let node = Node::synthetic(Value::Seq(Seq::pending()));
                self.defs.insert(name, node.clone());
                let items = a.iter().map(|x| self.decode(x)).collect();
                let Value::Seq(s) = node.value() else {
                    unreachable!()
                };
                s.fill(items).unwrap();
                node
            }
            J::Object(m)
                if m.len() == 1 && (m.contains_key("$tuple") || m.contains_key("$set")) =>
            {
                let (k, v) = m.iter().next().unwrap();
                let tuple = k == "$tuple";
                let node = Node::synthetic(if tuple {
                    Value::Tuple(Seq::pending())
                } else {
                    Value::Set(Map::pending())
                });
                self.defs.insert(name, node.clone());
                let items: Vec<Node> = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| self.decode(x))
                    .collect();
                match node.value() {
                    Value::Tuple(s) => s.fill(items).unwrap(),
                    Value::Set(s) => s.fill(set_entries(items)).unwrap(),
                    _ => unreachable!(),
                }
                node
            }
            J::Object(m) if is_plain_map(m) => {
                let node = Node::synthetic(Value::Map(Map::pending()));
                self.defs.insert(name, node.clone());
                let mut e = Entries::default();
                for (k, v) in m {
                    insert(&mut e, key_node(k), self.decode(v));
                }
                let Value::Map(map) = node.value() else {
                    unreachable!()
                };
                map.fill(e).unwrap();
                node
            }
            other => {
                let node = self.decode(other);
                self.defs.insert(name, node.clone());
                node
            }
        }
    }
}

fn set_entries(items: Vec<Node>) -> Entries {
    let mut e = Entries::default();
    for it in items {
        insert(&mut e, it, Node::synthetic(Value::Null));
    }
    e
}

/// An object that is a mapping rather than a one-key type marker.
fn is_plain_map(m: &serde_json::Map<String, J>) -> bool {
    const MARKERS: [&str; 11] = [
        "$bigint",
        "$float",
        "$str_surrogateescape_b64",
        "$str_codepoints",
        "$bytes_b64",
        "$date",
        "$datetime",
        "$tuple",
        "$set",
        "$ref",
        "$def",
    ];
    !(m.len() == 1
        && m.keys()
            .next()
            .is_some_and(|k| MARKERS.contains(&k.as_str())))
}

/// A typed-JSON key (`"$int:1"` …) as a node, via a one-entry mapping.
fn key_node(k: &str) -> Node {
    let mut m = serde_json::Map::new();
    m.insert(k.to_owned(), J::Null);
    let node = from_typed_json(&J::Object(m)).unwrap();
    node.as_map().unwrap().keys().next().unwrap().clone()
}

fn decode_shared(j: &J) -> Node {
    SharedDecoder {
        defs: HashMap::new(),
    }
    .decode(j)
}

fn python_oracle(args: &[&str], stdin: Option<String>) -> String {
    let mut child = Command::new("python3")
        .arg(repo().join("scripts/yaml_dump_oracle.py"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 with PyYAML is required");
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin {
            input.write_all(s.as_bytes()).unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "oracle script failed");
    String::from_utf8(out.stdout).unwrap()
}

/// `yaml.safe_load` of each text, as shared typed JSON (or an error string).
fn python_load(texts: &[String]) -> Vec<J> {
    let input: String = texts
        .iter()
        .map(|t| json!({ "text": t }).to_string() + "\n")
        .collect();
    python_oracle(&["load"], Some(input))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn show_diff(label: &str, want: &str, got: &str) {
    let line = want
        .lines()
        .zip(got.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    let from = line.saturating_sub(3);
    let w: Vec<&str> = want.lines().skip(from).take(8).collect();
    let g: Vec<&str> = got.lines().skip(from).take(8).collect();
    eprintln!("--- {label}: expected (from line {from})\n{w:#?}\n--- got\n{g:#?}\n---");
}

#[test]
fn differential_against_pyyaml() {
    let cases: usize = std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let seed = std::env::var("CLOUDFOLD_DIFF_SEED").unwrap_or_else(|_| "1".into());
    let text = python_oracle(
        &["gen", "--seed", &seed, "--count", &cases.to_string()],
        None,
    );
    let (mut ci_ok, mut ci_bad, mut rd_ok, mut rd_bad) = (0, 0, 0, 0);
    let mut trips: Vec<(usize, J, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let case: J = serde_json::from_str(line).unwrap();
        let node = decode_shared(&case["value"]);
        let ci = dump(&node, &DumpOptions::cloud_init()).unwrap();
        // The one walk agrees with the two-pass reference (shared nodes,
        // recursion and all).
        assert_eq!(
            ci,
            dump_via_graph(&node, &DumpOptions::cloud_init()).unwrap(),
            "case {i}"
        );
        if let Some(want) = case["cloud_init"].as_str() {
            if ci == want {
                ci_ok += 1;
            } else {
                ci_bad += 1;
                if ci_bad <= 5 {
                    eprintln!("case {i}: {}", case["value"]);
                    show_diff("cloud_init", want, &ci);
                }
            }
        }
        let rd = dump(&node, &DumpOptions::readable()).unwrap();
        assert_eq!(
            rd,
            dump_via_graph(&node, &DumpOptions::readable()).unwrap(),
            "case {i}"
        );
        if let Some(want) = case["readable"].as_str() {
            if rd == want {
                rd_ok += 1;
            } else {
                rd_bad += 1;
                if rd_bad <= 5 {
                    eprintln!("case {i}: {}", case["value"]);
                    show_diff("readable", want, &rd);
                }
            }
        }
        if case["loadable"] == J::Bool(true) {
            trips.push((i, case["value"].clone(), rd));
        }
    }
    let texts: Vec<String> = trips.iter().map(|t| t.2.clone()).collect();
    let loaded = python_load(&texts);
    let mut trip_bad = 0;
    for ((i, want, text), got) in trips.iter().zip(&loaded) {
        let same = got
            .get("value")
            .is_some_and(|g| canonical(g) == canonical(want));
        if !same {
            trip_bad += 1;
            if trip_bad <= 5 {
                let (w, g) = (
                    canonical(want),
                    got.get("value").map(canonical).unwrap_or_default(),
                );
                let at = w
                    .bytes()
                    .zip(g.bytes())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                let near = |s: &str| {
                    s.get(at.saturating_sub(150)..(at + 150).min(s.len()))
                        .unwrap_or("")
                        .to_owned()
                };
                eprintln!(
                    "case {i} does not round-trip: {got:.300}\n{text:.300}\nwant ...{}\ngot  ...{}",
                    near(&w),
                    near(&g)
                );
            }
        }
    }
    eprintln!(
        "yaml dump differential: cloud_init {ci_ok} equal / {ci_bad} differ; readable {rd_ok} equal / {rd_bad} differ; \
         readable round-trip {} ok / {trip_bad} fail",
        trips.len() - trip_bad
    );
    assert_eq!(loaded.len(), trips.len());
    assert_eq!((ci_bad, rd_bad, trip_bad), (0, 0, 0));
}

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

/// `cloud_config_txt` minus its header: the YAML dump starts at the first
/// line that is not a comment or empty.
fn yaml_part(txt: &str) -> &str {
    let mut rest = txt;
    while let Some((line, tail)) = rest.split_once('\n') {
        if line.starts_with('#') || line.is_empty() {
            rest = tail;
        } else {
            break;
        }
    }
    rest
}

fn check_recorded(buf: &J, txt: &str, label: &str, counts: &mut (usize, usize, usize)) {
    let Ok(node) = from_typed_json(buf) else {
        return;
    };
    // Plain JSON loses which objects were shared; such outputs cannot be
    // rebuilt from it (shared nodes are tested by hand below).
    if buf.is_null() || txt.contains("&id0") {
        counts.2 += 1;
        return;
    }
    let got = dump(&node, &DumpOptions::cloud_init()).unwrap();
    if got == yaml_part(txt) {
        counts.0 += 1;
    } else {
        counts.1 += 1;
        eprintln!("{label}:");
        show_diff("cloud_config_txt", yaml_part(txt), &got);
    }
}

#[test]
fn recorded_cloud_init_outputs() {
    let Some(shared) = common::shared(".") else {
        return;
    };
    let mut counts = (0, 0, 0);
    let dir = shared.join("conformance/cloud-init-generated");
    let hv: J =
        serde_json::from_str(&std::fs::read_to_string(dir.join("handler-vectors.json")).unwrap())
            .unwrap();
    let cases = hv
        .get("cases")
        .and_then(J::as_array)
        .cloned()
        .unwrap_or_else(|| hv.as_array().cloned().unwrap());
    for c in &cases {
        let id = c["id"].as_str().unwrap_or("?");
        let e = &c["expected"];
        let mut buf = e["buf"].clone();
        // Its buffer has a real int key, which plain JSON spells "1" (the
        // dump keeps insertion order: 1 and "a" do not sort).
        if id == "yaml-dup-keys"
            && let Some(m) = buf.as_object_mut()
        {
            *m = m
                .iter()
                .map(|(k, v)| {
                    (
                        if k == "1" { "$int:1".into() } else { k.clone() },
                        v.clone(),
                    )
                })
                .collect();
        }
        if let Some(txt) = e["cloud_config_txt"].as_str() {
            check_recorded(&buf, txt, id, &mut counts);
        }
    }
    let uv: J =
        serde_json::from_str(&std::fs::read_to_string(dir.join("userdata-vectors.json")).unwrap())
            .unwrap();
    let cases = uv
        .get("cases")
        .and_then(J::as_array)
        .cloned()
        .unwrap_or_else(|| uv.as_array().cloned().unwrap());
    for c in &cases {
        let id = c["id"].as_str().unwrap_or("?");
        let cc = &c["expected"]["cloud_config"];
        if let Some(txt) = cc["cloud_config_txt"].as_str() {
            check_recorded(&cc["buf"], txt, id, &mut counts);
        }
    }
    for release in ["bookworm", "trixie"] {
        let d = shared.join("oracle/samples/expected").join(release);
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in rd {
            let path = entry.unwrap().path();
            let doc: J = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if let Some(txt) = doc["cloud_config_txt"].as_str() {
                check_recorded(
                    &doc["cloud_config"],
                    txt,
                    &path.display().to_string(),
                    &mut counts,
                );
            }
        }
    }
    eprintln!(
        "recorded cloud-config.txt: {} equal / {} differ ({} skipped: no value or shared objects)",
        counts.0, counts.1, counts.2
    );
    assert_eq!(counts.1, 0);
    assert!(counts.0 > 20);
}

fn seq(items: Vec<Node>) -> Node {
    Node::synthetic(Value::Seq(Seq::new(items)))
}

fn map(pairs: Vec<(Node, Node)>) -> Node {
    let mut e = Entries::default();
    for (k, v) in pairs {
        insert(&mut e, k, v);
    }
    Node::synthetic(Value::Map(Map::new(e)))
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

#[test]
fn readable_pairs_round_trip_with_collection_keys() {
    // `!!omap`/`!!pairs` items may have lists or mappings as keys.
    let int = |i: i64| Node::synthetic(Value::Int(i.into()));
    let tuple = |a: Node, b: Node| Node::synthetic(Value::Tuple(Seq::new(vec![a, b])));
    let pairs = seq(vec![
        tuple(seq(vec![Node::str("a"), Node::str("b")]), int(1)),
        tuple(map(vec![]), int(2)),
        tuple(Node::str("k"), seq(vec![int(3)])),
    ]);
    let root = map(vec![(Node::str("x"), pairs)]);
    let text = dump(&root, &DumpOptions::readable()).unwrap();
    assert_eq!(
        text,
        "x: !!pairs\n- ? - a\n    - b\n  : 1\n- {}: 2\n- k:\n  - 3\n"
    );
    let loaded = python_load(&[text]);
    let want =
        json!({"x": [{"$tuple": [["a", "b"], 1]}, {"$tuple": [{}, 2]}, {"$tuple": ["k", [3]]}]});
    assert_eq!(canonical(&loaded[0]["value"]), canonical(&want));
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
