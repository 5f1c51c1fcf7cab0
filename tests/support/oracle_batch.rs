//! One streaming run of the cloud-init oracle (`scripts/oracle_batch.py`) over many payloads.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Value as J, json};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};

/// One payload for the oracle: its bytes, the launch index to fold for, and whether the
/// oracle should also return the `cloud-config.txt` it writes.
pub(crate) struct Request<'a> {
    pub payload: &'a [u8],
    pub launch_index: Option<i64>,
    pub emit_file: bool,
    /// Ask for the config's `{"$summary": [depth, nodes]}` instead of the config
    /// itself (see [`summary`]), for values nested too deep for `serde_json`.
    pub summary: bool,
}

/// `{"$summary": [depth, nodes]}` of a typed-JSON value, as the oracle batch
/// script computes it for [`Request::summary`] (without recursion).
pub(crate) fn summary(v: &J) -> J {
    let (mut depth, mut nodes, mut stack) = (0, 0, vec![(v, 1)]);
    while let Some((x, d)) = stack.pop() {
        nodes += 1;
        depth = depth.max(d);
        match x {
            J::Object(m) => stack.extend(m.values().map(|c| (c, d + 1))),
            J::Array(a) => stack.extend(a.iter().map(|c| (c, d + 1))),
            _ => {}
        }
    }
    json!({ "$summary": [depth, nodes] })
}

/// The oracle's `doc` for every request, in request order, from one python process of
/// `release` (`bookworm` = 22.4, `trixie` = 25.1). Fails the test when the oracle
/// answers fewer requests than it was given.
pub(crate) fn docs<'a>(release: &str, requests: impl IntoIterator<Item = Request<'a>>) -> Vec<J> {
    docs_of_lines(
        release,
        requests.into_iter().map(|r| {
            json!({"b64": B64.encode(r.payload), "launch_index": r.launch_index,
                   "emit_file": r.emit_file, "summary": r.summary})
        }),
    )
}

/// [`docs`] for requests written as `scripts/oracle_batch.py` reads them
/// (`b64`, and optionally `launch_index`, `emit_file`, `summary`, `instance_data_b64`);
/// their `id` is set here. A large batch is split into contiguous chunks, one python
/// process each (`CLOUDFOLD_ORACLE_PROCS`, default: the available cores, at most 4), so
/// a single-test step uses the whole machine.
pub(crate) fn docs_of_lines(release: &str, requests: impl IntoIterator<Item = J>) -> Vec<J> {
    docs_of_script_lines("oracle_batch.py", &[], release, requests)
}

/// [`docs_of_lines`] through another driver in `scripts/` that reads and answers the same
/// JSON lines (`jinja_oracle.py`), run as `python3 scripts/SCRIPT --release RELEASE ARGS...`.
pub(crate) fn docs_of_script_lines(
    script: &str,
    args: &[&str],
    release: &str,
    requests: impl IntoIterator<Item = J>,
) -> Vec<J> {
    let feed: Vec<String> = requests
        .into_iter()
        .enumerate()
        .map(|(id, mut r)| {
            r["id"] = json!(id);
            r.to_string()
        })
        .collect();
    let procs = std::env::var("CLOUDFOLD_ORACLE_PROCS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(4)))
        .max(1);
    // Below this, a second interpreter's start-up costs more than it saves.
    const MIN_PER_PROC: usize = 8;
    let chunks = procs.min(feed.len() / MIN_PER_PROC).max(1);
    let size = feed.len().div_ceil(chunks).max(1);
    let n = feed.len();
    let mut docs = vec![None; n];
    std::thread::scope(|scope| {
        let runs: Vec<_> = feed
            .chunks(size)
            .map(|chunk| scope.spawn(move || run_batch(script, args, release, chunk)))
            .collect();
        for run in runs {
            for (id, doc) in run.join().unwrap() {
                docs[id] = Some(doc);
            }
        }
    });
    let answered = docs.iter().filter(|d| d.is_some()).count();
    assert_eq!(answered, n, "the oracle answered {answered} of {n} cases");
    docs.into_iter().map(Option::unwrap_or_default).collect()
}

/// One python process of `scripts/SCRIPT` over `feed` (JSON lines with ids):
/// the `(id, doc)` of every answer.
fn run_batch(script: &str, args: &[&str], release: &str, feed: &[String]) -> Vec<(usize, J)> {
    let path = format!("{}/scripts/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("python3")
        .args([path.as_str(), "--release", release])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut stdin = child.stdin.take().unwrap();
    let mut answers = Vec::with_capacity(feed.len());
    std::thread::scope(|scope| {
        // A writer thread, so a full stdout pipe cannot deadlock against a full stdin pipe.
        scope.spawn(move || {
            for line in feed {
                if writeln!(stdin, "{line}").is_err() {
                    break;
                }
            }
        });
        // Lossy: a lone surrogate in the oracle's answer (a header Python kept
        // surrogate-escaped) is written as invalid UTF-8; it becomes U+FFFD and
        // shows up as a disagreement with its payload instead of aborting the run.
        for line in std::io::BufReader::new(child.stdout.take().unwrap()).split(b'\n') {
            let line = String::from_utf8_lossy(&line.unwrap()).into_owned();
            let mut v: J = serde_json::from_str(&line).unwrap();
            let id = v["id"].as_u64().unwrap() as usize;
            answers.push((id, v["doc"].take()));
        }
    });
    let _ = child.wait();
    answers
}

/// Fail the test listing the first `shown` disagreements, if there are any.
pub(crate) fn assert_none(bad: &[String], shown: usize) {
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.iter()
            .take(shown)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// The releases a sweep runs under: both when `all`, else 25.1 (the default release).
pub(crate) fn releases(all: bool) -> &'static [(cloudfold::userdata::Release, &'static str)] {
    use cloudfold::userdata::Release;
    if all {
        &[(Release::V22_4, "bookworm"), (Release::V25_1, "trixie")]
    } else {
        &[(Release::V25_1, "trixie")]
    }
}

/// The oracle's docs for named text payloads (no launch index, no file).
pub(crate) fn docs_of_named(release: &str, cases: &[(String, String)], summary: bool) -> Vec<J> {
    docs(
        release,
        cases.iter().map(|(_, doc)| Request {
            payload: doc.as_bytes(),
            launch_index: None,
            emit_file: false,
            summary,
        }),
    )
}

/// One run of a driver in `scripts/` (`layers_oracle.py`, `plan_oracle.py`) that answers
/// each JSON line of `feed` with one JSON line, in order, under `--release release`, with
/// `envs` set. Fails the test when the driver fails or answers fewer lines than it was fed.
pub(crate) fn driver_docs(
    script: &str,
    release: &str,
    envs: &[(&str, &std::ffi::OsStr)],
    feed: Vec<String>,
) -> Vec<J> {
    let path = format!("{}/scripts/{script}", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("python3")
        .args([path.as_str(), "--release", release])
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let n = feed.len();
    let mut stdin = child.stdin.take().unwrap();
    // A writer thread, so a full stdout pipe cannot deadlock against a full stdin pipe.
    let writer = std::thread::spawn(move || {
        for line in feed {
            stdin.write_all(line.as_bytes()).unwrap();
            stdin.write_all(b"\n").unwrap();
        }
    });
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let docs: Vec<J> = out
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success(), "{script} failed");
    assert_eq!(
        docs.len(),
        n,
        "the oracle answered {} of {n} cases",
        docs.len()
    );
    docs
}
