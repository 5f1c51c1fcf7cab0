//! The YAML emitter against PyYAML 6.0.3, live: random values (scripts/yaml_dump_oracle.py),
//! and cloud-init's recorded outputs in ../shared. Offline cases: tests/integration/yaml_dump.rs.

use crate::support;

use crate::support::yaml_dump_decode::*;
use cloudfold::yaml::typed_json::{canonical, from_typed_json};
use cloudfold::yaml::value::{Node, Seq, Value};
use cloudfold::yaml::{DumpOptions, dump, dump_via_graph};
use serde_json::{Value as J, json};
use std::io::Write;
use std::process::{Command, Stdio};

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
#[ignore = "needs python3 with PyYAML 6.0.3: scripts/conformance.sh runs it"]
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
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn recorded_cloud_init_outputs() {
    let shared = support::shared(".");
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

#[test]
#[ignore = "needs python3 with PyYAML 6.0.3: scripts/conformance.sh runs it"]
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
