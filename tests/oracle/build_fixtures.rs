//! `build`'s cloud-init layout against cloud-init's own `make-mime`, run live from the
//! oracle's package. The Terraform layout is in tests/integration/build_fixtures.rs.

use crate::support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::build::{BuildOptions, PartSpec, build};
use serde_json::{Value as J, json};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use support::rng::Rng;

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
#[ignore = "needs ../shared (recorded cloud-init vectors, the extracted cloud-init): scripts/conformance.sh runs it"]
fn cloud_init_style_is_make_mime_layout() {
    support::shared("oracle/ci_oracle.py");
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
    assert_ne!(
        status.code(),
        Some(3),
        "the cloud-init package is not extracted (../shared/oracle/setup.sh)"
    );
    assert_eq!(seen, cases.len());
    eprintln!(
        "make-mime layout: {seen}/{} part sets byte-identical",
        cases.len()
    );
}
