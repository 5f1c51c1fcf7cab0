//! `build`'s byte layouts: Terraform's (fixtures/build/terraform, from the provider's documented
//! layout) byte for byte, and cloud-init's `make-mime` (run live from the oracle's package).

// Test code: a failed unwrap is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::build::{BuildOptions, PartSpec, Style, build};
use common::rng::Rng;
use serde_json::{Value as J, json};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};

fn spec_of(p: &J) -> PartSpec {
    let s = |k: &str| p[k].as_str().map(str::to_owned);
    PartSpec {
        content: s("content").unwrap().into_bytes(),
        content_type: s("type"),
        filename: s("filename"),
        merge_type: s("merge_type"),
        headers: Vec::new(),
    }
}

#[test]
fn terraform_layout_byte_for_byte() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/build/terraform");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let case: J = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let specs: Vec<PartSpec> = case["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(spec_of)
            .collect();
        let opts = BuildOptions {
            style: Style::Terraform,
            boundary: case["boundary"].as_str().map(str::to_owned),
            ..BuildOptions::default()
        };
        let built = build(&specs, &opts).unwrap();
        let expected = std::fs::read(path.with_extension("expected")).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&built.bytes),
            String::from_utf8_lossy(&expected),
            "{}",
            path.display()
        );
        assert_eq!(built.bytes, expected);
        n += 1;
    }
    assert!(n >= 4, "only {n} fixtures");
}

const TYPES: &[(&str, &str)] = &[
    ("cloud-config", "#cloud-config\n"),
    ("x-shellscript", "#!/bin/sh\n"),
    ("cloud-boothook", "#cloud-boothook\n"),
    ("jinja2", "## template: jinja\n"),
];
const TEXT: &[&str] = &[
    "a: 1\n",
    "motd: héllo €\n",
    "😀 ünï\n",
    "x",
    "",
    "long line ",
];

/// (content, short type, filename)
type MimePart = (String, String, String);

#[test]
fn cloud_init_style_is_make_mime_layout() {
    if common::shared("oracle/ci_oracle.py").is_none() {
        return;
    }
    let mut rng = Rng::new(0x3A4E_313E);
    let cases: Vec<(Vec<MimePart>, String)> = (0..200)
        .map(|c| {
            let parts = (0..1 + rng.below(4))
                .map(|i| {
                    let (ty, head) = *rng.pick(TYPES);
                    let mut body = head.to_owned();
                    for _ in 0..rng.below(30) {
                        let piece: &&str = rng.pick(TEXT);
                        body.push_str(piece);
                    }
                    (body, ty.to_owned(), format!("f{i}.txt"))
                })
                .collect();
            (parts, format!("==============={c:019}=="))
        })
        .collect();
    let mut child = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scripts/make_mime_reference.py"
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let feed: Vec<String> = cases
        .iter()
        .map(|(parts, b)| {
            let ps: Vec<J> = parts
                .iter()
                .map(|(c, t, f)| json!({"content": c, "type": t, "filename": f}))
                .collect();
            json!({"boundary": b, "parts": ps}).to_string()
        })
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for line in feed {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = 0;
    for (line, (parts, boundary)) in out.lines().zip(&cases) {
        let v: J = serde_json::from_str(&line.unwrap()).unwrap();
        let theirs = B64.decode(v["b64"].as_str().unwrap()).unwrap();
        let specs: Vec<PartSpec> = parts
            .iter()
            .map(|(c, t, f)| PartSpec {
                content: c.clone().into_bytes(),
                content_type: Some(t.clone()),
                filename: Some(f.clone()),
                ..PartSpec::default()
            })
            .collect();
        let opts = BuildOptions {
            boundary: Some(boundary.clone()),
            ..BuildOptions::default()
        };
        let ours = build(&specs, &opts).unwrap().bytes;
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs),
            "case {seen}"
        );
        seen += 1;
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    if status.code() == Some(3) {
        eprintln!(
            "\n*** SKIPPED: cloud-init package not extracted (../shared/oracle/setup.sh) ***\n"
        );
        assert!(
            std::env::var("CI").is_err(),
            "CI: make-mime reference missing"
        );
        return;
    }
    assert_eq!(seen, cases.len());
    eprintln!(
        "make-mime layout: {seen}/{} part sets byte-identical",
        cases.len()
    );
}
