//! Shared test helpers: the MIME description (same JSON as scripts/mime_oracle.py)
//! and running the Python oracle.

use base64::Engine as _;
use cloudfold::mime::{self, Message, ParamValue, PyError};
use cloudfold::{AsideJob, RunAside};
use serde_json::{Value, json};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn err(e: &PyError) -> Value {
    json!({ "error": e.python_class() })
}

fn param_json(p: Result<Option<ParamValue>, PyError>) -> Value {
    match p {
        Err(e) => err(&e),
        Ok(None) => Value::Null,
        Ok(Some(ParamValue::Str(s))) => json!(s),
        Ok(Some(ParamValue::Rfc2231 {
            charset,
            language,
            value,
        })) => json!([charset, language, value]),
    }
}

fn opt_json(p: Result<Option<String>, PyError>) -> Value {
    match p {
        Err(e) => err(&e),
        Ok(v) => json!(v),
    }
}

fn part_json(depth: usize, m: &Message) -> Value {
    let (payload, decoded, decode_defects) = match m.decode_payload() {
        Some((bytes, defects)) => (
            json!(m.payload_text()),
            json!(base64::engine::general_purpose::STANDARD.encode(bytes)),
            json!(defects.iter().map(|d| d.python_name()).collect::<Vec<_>>()),
        ),
        None => (Value::Null, Value::Null, json!([])),
    };
    json!({
        "depth": depth,
        "headers": m.items().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
        "unixfrom": m.unixfrom(),
        "content_type": m.get_content_type(),
        "default_type": m.get_default_type(),
        "is_multipart": m.is_multipart(),
        "filename": opt_json(m.get_filename()),
        "boundary_param": param_json(m.get_param("boundary", "content-type")),
        "boundary": opt_json(m.get_boundary()),
        "cte": m.get("Content-Transfer-Encoding"),
        "payload": payload,
        "decoded": decoded,
        "preamble": m.preamble(),
        "epilogue": m.epilogue(),
        "defects": m.defects().iter().map(|d| d.kind.python_name()).collect::<Vec<_>>(),
        "decode_defects": decode_defects,
    })
}

/// Runs a split parse's second half at once, before the first half.
struct Inline;

impl RunAside for Inline {
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
        job();
        Ok(())
    }
}

/// Runs it on a new thread, which begins whenever it is scheduled.
struct Spawn;

impl RunAside for Spawn {
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
        std::thread::spawn(job);
        Ok(())
    }
}

/// Our description of a document (same shape as the oracle's).
pub(crate) fn describe(text: &str) -> Value {
    let parsed = mime::parse(text);
    // Bodies cut from a shared text, and a root multipart's second half
    // parsed aside, are the same tree.
    let src = std::sync::Arc::new(text.to_owned());
    let asides: [(&str, Option<&dyn RunAside>); 3] = [
        ("shared", None),
        ("split inline", Some(&Inline)),
        ("split on a thread", Some(&Spawn)),
    ];
    for (how, aside) in asides {
        let shared = mime::parse_shared_splitting(&src, aside, 0);
        assert_eq!(parsed, shared, "{how} differs from parse: {text:?}");
    }
    match parsed {
        Err(mime::ParseError::Python { error, .. }) => err(&error),
        Err(e) => json!({ "error": e.to_string() }),
        Ok(m) => json!({
            "parts": m.walk().with_depth().map(|(d, p)| part_json(d, p)).collect::<Vec<_>>()
        }),
    }
}

pub(crate) fn python_available() -> bool {
    Command::new("python3")
        .arg("-c")
        .arg("import email")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run scripts/mime_oracle.py over the documents.
pub(crate) fn oracle(docs: &[String]) -> Vec<Value> {
    if let Ok(path) = std::env::var("CLOUDFOLD_DIFF_DUMP") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        for d in docs {
            writeln!(f, "{}", serde_json::to_string(d).unwrap()).unwrap();
        }
    }
    let script = repo_root().join("scripts/mime_oracle.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut input = String::new();
    for d in docs {
        input.push_str(&serde_json::to_string(d).unwrap());
        input.push('\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "oracle failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), docs.len());
    v
}

/// The first differing path between two JSON values, for messages.
pub(crate) fn first_diff(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let vb = y.get(k).unwrap_or(&Value::Null);
                if let Some(d) = first_diff(va, vb, &format!("{path}.{k}")) {
                    return Some(d);
                }
            }
            for k in y.keys() {
                if !x.contains_key(k) {
                    return Some(format!("{path}.{k}: missing on our side"));
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_diff(va, vb, &format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            if x.len() != y.len() {
                return Some(format!("{path}: length {} vs {}", x.len(), y.len()));
            }
            None
        }
        _ if a == b => None,
        _ => Some(format!("{path}: ours {a} vs python {b}")),
    }
}

/// The ../shared directory beside the repository (or `$CLOUDFOLD_SHARED`, for
/// worktrees that do not sit beside it), if present.
pub(crate) fn shared_dir() -> Option<PathBuf> {
    let p = std::env::var_os("CLOUDFOLD_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared"));
    if p.is_dir() { Some(p) } else { None }
}

pub(crate) fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

pub(crate) fn read_text(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}
