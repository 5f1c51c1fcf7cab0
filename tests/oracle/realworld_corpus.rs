//! Real-world user-data against the real cloud-init: every file of
//! `../shared/corpora/realworld` (written by other people; read from there, never copied
//! into this repository) through `cloudfold render`, `parts`, `validate` and `explain`,
//! and multipart payloads combined from its cloud-config files with random merge
//! headers, each compared with the oracle on both releases.
//!
//! What is compared, per payload and release (see [`Check`]):
//! * `render`: abort or not; the merged config (`--format json`, type-faithful) and
//!   `cloud-config.txt` (`--format cloud-init`), byte for byte.
//! * `parts`: every part's content type, filename, `Merge-Type` header, launch index,
//!   handler, and whether it merged / was skipped.
//! * `validate`: abort or not; each part's outcome; every part cloud-init drops or
//!   ignores named by a diagnostic; and the warnings cloud-init logs, each found in a
//!   diagnostic's `cloud-init logs:` note (and no note cloud-init does not log).
//! * `explain`: abort or not; the config rebuilt from its entries; each part's status
//!   and a warning for each part that does not merge.
//!
//! Payloads beyond the files themselves: a `cloud-config-noheader` body also as the
//! `text/cloud-config` MIME part its author sent it as; each `merge_sources` set of
//! cloud-init's own tests folded as parts in order, also compared with the set's
//! expected output (a `merge-expected-output` file, which is also run as a payload: it
//! is what cloud-init would do with it as user-data, ignore it). A payload with a jinja
//! template runs with `--instance-data fixtures/realworld/instance-data.json` (the
//! oracle's `--instance-data` on the other side).
//!
//! `CLOUDFOLD_REALWORLD_COMBINED` sets the combined payloads per release (default 40;
//! scripts/conformance.sh: 200); `CLOUDFOLD_ORACLE_SEED` varies them. `CLOUDFOLD_BIN`
//! names the binary to run (default: the `cloudfold` built beside this test, by
//! `cargo test --workspace`).

use crate::support;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::yaml::typed_json::canonical;
use serde_json::{Value as J, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use support::{oracle_batch, payload_gen, rng::Rng};

/// The binary under test: `CLOUDFOLD_BIN` (CI: the release build), else this build's.
fn bin() -> PathBuf {
    std::env::var_os("CLOUDFOLD_BIN").map_or_else(support::cloudfold_bin, PathBuf::from)
}
const INSTANCE_DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/realworld/instance-data.json"
);
const COMMANDS: [&str; 4] = ["render", "parts", "validate", "explain"];

/// One payload: a corpus file, or one built from corpus files.
struct Sample {
    label: String,
    payload: Vec<u8>,
    /// The file, for the CLI to read it itself (else the payload goes in on stdin).
    path: Option<PathBuf>,
    /// The payload has a jinja template: it runs with instance data (when supported).
    jinja: bool,
}

impl Sample {
    fn new(label: String, payload: Vec<u8>, path: Option<PathBuf>) -> Sample {
        let jinja =
            contains_ci(&payload, b"template: jinja") || contains_ci(&payload, b"text/jinja2");
        Sample {
            label,
            payload,
            path,
            jinja,
        }
    }
}

fn contains_ci(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// `SOURCES.tsv` rows: (local name, kind), and the files' directory.
fn corpus() -> (PathBuf, Vec<(String, String)>) {
    let root = support::shared("corpora/realworld");
    let tsv = std::fs::read_to_string(root.join("SOURCES.tsv")).unwrap();
    let rows: Vec<(String, String)> = tsv
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_owned(), f[4].to_owned())
        })
        .collect();
    assert!(
        rows.len() >= 140,
        "SOURCES.tsv lists {} files; the corpus has ~148",
        rows.len()
    );
    (root.join("files"), rows)
}

/// A multipart/mixed payload of `(content type, filename, extra headers, body)` parts.
fn multipart(parts: &[(String, String, Vec<String>, Vec<u8>)], boundary: &str) -> Vec<u8> {
    let mut s =
        format!("Content-Type: multipart/mixed; boundary=\"{boundary}\"\nMIME-Version: 1.0\n\n")
            .into_bytes();
    for (ctype, name, headers, body) in parts {
        s.extend_from_slice(format!("--{boundary}\nContent-Type: {ctype}\n").as_bytes());
        for h in headers {
            s.extend_from_slice(h.as_bytes());
            s.push(b'\n');
        }
        s.extend_from_slice(
            format!("Content-Disposition: attachment; filename=\"{name}\"\n\n").as_bytes(),
        );
        s.extend_from_slice(body);
        if !body.ends_with(b"\n") {
            s.push(b'\n');
        }
    }
    s.extend_from_slice(format!("--{boundary}--\n").as_bytes());
    s
}

/// Every corpus payload: the files, the header-less bodies as the MIME part their
/// authors sent them as, and the merge sets; plus, per merge set with an expected
/// output, the index of its sample and the expected file's text.
fn corpus_samples(dir: &Path, rows: &[(String, String)]) -> (Vec<Sample>, Vec<(usize, String)>) {
    let mut out = Vec::new();
    let mut sets: BTreeMap<u32, Vec<(u32, String)>> = BTreeMap::new();
    let mut expected: BTreeMap<u32, String> = BTreeMap::new();
    for (name, kind) in rows {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        out.push(Sample::new(name.clone(), bytes.clone(), Some(path.clone())));
        if kind == "cloud-config-noheader" {
            let part = (
                "text/cloud-config".to_owned(),
                name.clone(),
                Vec::new(),
                bytes,
            );
            out.push(Sample::new(
                format!("{name} as a text/cloud-config part"),
                multipart(&[part], "==realworld-noheader=="),
                None,
            ));
        }
        // cloud-init's tests/data/merge_sources: sourceN-M.yaml folded in M order must
        // give expectedN.yaml (its test_merge_cc_samples).
        if let Some(rest) = name.split("merge_sources_").nth(1) {
            let num = |s: &str| s.parse::<u32>().ok();
            if let Some(nm) = rest
                .strip_prefix("source")
                .and_then(|r| r.strip_suffix(".yaml"))
            {
                if let Some((n, m)) = nm
                    .split_once('-')
                    .and_then(|(n, m)| Some((num(n)?, num(m)?)))
                {
                    sets.entry(n).or_default().push((m, name.clone()));
                }
            } else if let Some(n) = rest
                .strip_prefix("expected")
                .and_then(|r| r.strip_suffix(".yaml"))
                .and_then(num)
            {
                expected.insert(
                    n,
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned(),
                );
            }
        }
    }
    let mut expect = Vec::new();
    for (n, mut files) in sets {
        files.sort();
        let parts: Vec<_> = files
            .iter()
            .map(|(_, f)| {
                (
                    "text/cloud-config".to_owned(),
                    f.clone(),
                    Vec::new(),
                    std::fs::read(dir.join(f)).unwrap(),
                )
            })
            .collect();
        if let Some(e) = expected.get(&n) {
            expect.push((out.len(), e.clone()));
        }
        out.push(Sample::new(
            format!("merge_sources set {n} ({} sources in order)", files.len()),
            multipart(&parts, "==realworld-merge-set=="),
            None,
        ));
    }
    (out, expect)
}

/// `count` multipart payloads of 2-5 random corpus cloud-configs in random order, each
/// part with a random `Merge-Type` / `X-Merge-Type` header, `merge_how` key, both or
/// neither, as plain text or base64.
fn combined_samples(dir: &Path, rows: &[(String, String)], count: usize, seed: u64) -> Vec<Sample> {
    let files: Vec<(String, Vec<u8>)> = rows
        .iter()
        .filter(|(_, k)| k == "cloud-config")
        .map(|(n, _)| (n.clone(), std::fs::read(dir.join(n)).unwrap()))
        .collect();
    let mut r = Rng::new(seed);
    (0..count)
        .map(|i| {
            let n = 2 + r.below(4);
            let mut names = Vec::new();
            let parts: Vec<_> = (0..n)
                .map(|_| {
                    let (name, text) = r.pick(&files);
                    names.push(name.split("__").last().unwrap_or(name).to_owned());
                    let mut body = text.clone();
                    if r.chance(8) {
                        mutate(&mut body, &mut r);
                    }
                    if r.chance(30) {
                        if !body.ends_with(b"\n") {
                            body.push(b'\n');
                        }
                        if r.chance(70) {
                            body.extend_from_slice(
                                format!("merge_how: '{}'\n", r.pick(payload_gen::GOOD_SPECS))
                                    .as_bytes(),
                            );
                        } else {
                            body.extend_from_slice(payload_gen::merge_key(&mut r).as_bytes());
                        }
                    }
                    let mut headers = Vec::new();
                    for h in ["Merge-Type", "X-Merge-Type"] {
                        if r.chance(40) {
                            let spec = if r.chance(80) {
                                *r.pick(payload_gen::GOOD_SPECS)
                            } else {
                                payload_gen::spec(&mut r)
                            };
                            headers.push(format!("{h}: {spec}"));
                        }
                    }
                    if r.chance(30) {
                        headers.push("Content-Transfer-Encoding: base64".to_owned());
                        body = B64.encode(&body).into_bytes();
                    }
                    let ctype = if r.chance(80) {
                        "text/cloud-config"
                    } else {
                        "text/plain"
                    };
                    (ctype.to_owned(), name.clone(), headers, body)
                })
                .collect();
            Sample::new(
                format!("combined {i}: {}", names.join(" + ")),
                multipart(
                    &parts,
                    &format!("==realworld-combined-{i}-{:x}==", r.next_u64()),
                ),
                None,
            )
        })
        .collect()
}

/// Break a real file the ways people do: a tab indent, a control character, cut
/// short (at a character boundary), a stray quote.
fn mutate(body: &mut Vec<u8>, r: &mut Rng) {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(
            body.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .filter(|&i| i < body.len())
        .collect();
    let at = *r.pick(&lines);
    match r.below(4) {
        0 => body.insert(at, b'\t'),
        1 => body.insert(at + r.below(3).min(body.len() - at), 0x01),
        2 => {
            let mut cut = r.below(body.len() + 1);
            while cut < body.len() && (body[cut] & 0xC0) == 0x80 {
                cut += 1;
            }
            body.truncate(cut);
        }
        _ => body.splice(at..at, b"  \"".iter().copied()).for_each(drop),
    }
}

/// One CLI run: exit code, stdout, stderr.
struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

fn cli(args: &[&str], sample: &Sample, instance_data: bool) -> Run {
    let mut cmd = Command::new(bin());
    cmd.args(args);
    if instance_data {
        cmd.args(["--instance-data", INSTANCE_DATA]);
    }
    match &sample.path {
        Some(p) => {
            cmd.arg(p);
            cmd.stdin(Stdio::null());
        }
        None => {
            cmd.arg("-");
            cmd.stdin(Stdio::piped());
        }
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if sample.path.is_none() {
        let mut stdin = child.stdin.take().unwrap();
        let payload = sample.payload.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&payload);
        });
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// What cloud-init did with the payload, from the oracle's document.
struct Theirs<'a> {
    doc: &'a J,
    aborted: bool,
    parts: Vec<&'a J>,
}

impl<'a> Theirs<'a> {
    fn new(doc: &'a J) -> Theirs<'a> {
        // As tests/oracle/differential_oracle.rs: a crash outside `process()` is a boot that
        // merges nothing; the oracle's own JSON encoder failing is not.
        let crash = doc["oracle_crash"].as_str().unwrap_or("");
        let aborted = !doc["error"].is_null()
            || (!crash.is_empty() && !crash.starts_with("UnicodeEncodeError"));
        let parts = doc["parts"]
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        Theirs {
            doc,
            aborted,
            parts,
        }
    }

    /// Each part's fate: merged, rejected, runs, ignored (no handler) or jinja.
    fn outcome(p: &J) -> &'static str {
        match (&p["merged"], p["handler"].as_str()) {
            (J::Bool(true), _) => "merged",
            (J::Bool(false), _) => "rejected",
            (_, None) => "ignored",
            (_, Some("JinjaTemplatePartHandler")) => "jinja",
            _ => "runs",
        }
    }

    /// The warnings cloud-init logged, without the level and logger, cut where they
    /// quote the payload; distinct.
    fn warnings(&self) -> BTreeSet<String> {
        self.doc["warnings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(J::as_str)
            .map(|w| {
                let w = w.strip_prefix("WARNING ").unwrap_or(w);
                let w = match w.strip_prefix('[') {
                    Some(r) => r.split_once("] ").map_or(w, |(_, m)| m),
                    None => w,
                };
                normalize_warning(w)
            })
            .collect()
    }
}

/// A cloud-init warning (or a diagnostic's note quoting one), cut where an
/// "Unhandled" warning quotes the payload (validate writes `...` there).
fn normalize_warning(w: &str) -> String {
    match w.find(" userdata: ") {
        Some(i) if w.starts_with("Unhandled ") => w[..i].to_owned(),
        _ => w.to_owned(),
    }
}

/// The oracle's encoding of a mapping key given as type-faithful JSON (its `encode_key`).
fn oracle_key(k: &J) -> String {
    match k {
        J::String(s) if s.starts_with('$') => format!("$str:{s}"),
        J::String(s) => s.clone(),
        J::Null => "$null".into(),
        J::Bool(b) => format!("$bool:{b}"),
        J::Number(n) if n.is_f64() => {
            let s = n.to_string();
            format!("$float:{}", python_float(&s))
        }
        J::Number(n) => format!("$int:{n}"),
        J::Object(o) if o.len() == 1 => {
            let (tag, v) = o.iter().next().unwrap();
            match (tag.as_str(), v) {
                ("$bigint", J::String(s)) => format!("$int:{s}"),
                ("$float" | "$bytes_b64" | "$date" | "$datetime", J::String(s)) => {
                    format!("{tag}:{s}")
                }
                _ => format!("$json:{}", canonical(k)),
            }
        }
        _ => format!("$json:{}", canonical(k)),
    }
}

/// Python's `repr` of a float from serde_json's shortest form (`1e20` -> `1e+20`).
fn python_float(s: &str) -> String {
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s.to_owned(),
    }
}

/// The merged config `explain --format json` describes, rebuilt from its entries
/// (document order, parents first) in the oracle's encoding.
fn rebuild(entries: &[J]) -> Result<J, String> {
    // Open containers: (path, value, type); children attach to the innermost open
    // container whose path prefixes theirs.
    fn close(stack: &mut Vec<(String, J, String)>) {
        let (_, v, t) = stack.pop().unwrap();
        let v = if t == "tuple" {
            json!({"$tuple": v})
        } else {
            v
        };
        let parent = &mut stack.last_mut().unwrap().1;
        match parent {
            J::Array(a) => a.push(v),
            J::Object(o) => {
                let k = o.remove("\u{0}pending").unwrap();
                o.insert(k.as_str().unwrap().to_owned(), v);
            }
            _ => unreachable!(),
        }
    }
    let mut stack: Vec<(String, J, String)> = vec![("$".into(), json!({}), "dict".into())];
    for e in entries {
        let path = e["path"].as_str().ok_or("entry without path")?;
        while stack.len() > 1 {
            let top = &stack.last().unwrap().0;
            let rest = path.strip_prefix(top.as_str()).unwrap_or("");
            if path.len() > top.len()
                && path.starts_with(top.as_str())
                && (rest.starts_with('.') || rest.starts_with('['))
            {
                break;
            }
            close(&mut stack);
        }
        let ty = e["type"].as_str().unwrap_or("");
        let value = match ty {
            "dict" => json!({}),
            "list" | "tuple" => json!([]),
            _ => e["value"].clone(),
        };
        let parent = &mut stack.last_mut().unwrap().1;
        let container = matches!(ty, "dict" | "list" | "tuple");
        match parent {
            J::Object(o) => {
                let k = oracle_key(e.get("key").ok_or_else(|| format!("{path}: no key"))?);
                if container {
                    o.insert("\u{0}pending".into(), J::String(k));
                } else {
                    o.insert(k, value.clone());
                }
            }
            J::Array(a) => {
                if !container {
                    a.push(value.clone());
                }
            }
            _ => return Err(format!("{path}: parent is not a container")),
        }
        if container {
            stack.push((path.to_owned(), value, ty.to_owned()));
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    Ok(stack.pop().unwrap().1)
}

/// The disagreements of one payload, per command.
#[derive(Default)]
struct Check {
    bad: BTreeMap<&'static str, Vec<String>>,
    /// Dropped parts named by a diagnostic's text but not its `part` field.
    part_in_text_only: usize,
    /// The oracle aborted on an `#include` URL it cannot fetch; validate warned.
    unfetched: bool,
}

impl Check {
    fn fail(&mut self, cmd: &'static str, msg: String) {
        self.bad.entry(cmd).or_default().push(msg);
    }

    /// A CLI run must end in 0 (done) or 1 (cloud-init aborts); 1 exactly when the
    /// oracle aborted. Returns the parsed stdout when there is one to compare.
    fn exit(&mut self, cmd: &'static str, run: &Run, theirs: &Theirs, ok: &[i32]) -> bool {
        let aborted = run.code == 1;
        if run.code != 1 && !ok.contains(&run.code) {
            self.fail(cmd, format!("exit {}: {}", run.code, run.stderr.trim_end()));
            return false;
        }
        if aborted != theirs.aborted {
            self.fail(
                cmd,
                format!(
                    "aborts: ours {aborted} ({}), cloud-init {} ({})",
                    run.stderr.trim_end(),
                    theirs.aborted,
                    theirs.doc["error"]
                ),
            );
            return false;
        }
        !aborted
    }
}

fn parse(cmd: &'static str, run: &Run, c: &mut Check) -> Option<J> {
    match serde_json::from_slice(&run.stdout) {
        Ok(v) => Some(v),
        Err(e) => {
            c.fail(cmd, format!("output is not JSON: {e}"));
            None
        }
    }
}

fn check_render(s: &Sample, rel: &str, id: bool, t: &Theirs, c: &mut Check) {
    let run = cli(&["render", "--cloud-init", rel, "--format", "json"], s, id);
    if !c.exit("render", &run, t, &[0]) {
        return;
    }
    if let Some(ours) = parse("render", &run, c)
        && canonical(&ours) != canonical(&t.doc["cloud_config"])
    {
        c.fail(
            "render",
            format!(
                "config: ours {}\n    cloud-init {}",
                canonical(&ours),
                canonical(&t.doc["cloud_config"])
            ),
        );
    }
    let run = cli(
        &["render", "--cloud-init", rel, "--format", "cloud-init"],
        s,
        id,
    );
    if !c.exit("render", &run, t, &[0]) {
        return;
    }
    // The oracle reads cloud-config.txt back in text mode (universal newlines).
    let ours = String::from_utf8_lossy(&run.stdout)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let theirs = t.doc["cloud_config_txt"].as_str().unwrap_or("");
    if ours != theirs {
        c.fail(
            "render",
            format!("cloud-config.txt: ours {ours:?}\n    cloud-init {theirs:?}"),
        );
    }
}

fn check_parts(s: &Sample, rel: &str, id: bool, t: &Theirs, c: &mut Check) {
    let run = cli(&["parts", "--cloud-init", rel, "--format", "json"], s, id);
    if !c.exit("parts", &run, t, &[0]) {
        return;
    }
    let Some(ours) = parse("parts", &run, c) else {
        return;
    };
    let ours: Vec<J> = ours
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let action = p["action"].as_str().unwrap_or("");
            let merged = if action == "merged" {
                J::Bool(true)
            } else if action.starts_with("skipped") {
                J::Bool(false)
            } else {
                J::Null
            };
            json!([
                p["content_type"],
                p["filename"],
                p["merge_type_header"],
                p["launch_index"],
                p["handler"],
                merged
            ])
        })
        .collect();
    let theirs: Vec<J> = t
        .parts
        .iter()
        .map(|p| {
            json!([
                p["content_type"],
                p["filename"],
                p["merge_type_header"],
                p["launch_index"],
                p["handler"],
                p["merged"]
            ])
        })
        .collect();
    if ours != theirs {
        c.fail(
            "parts",
            format!(
                "[type, filename, merge-type, launch-index, handler, merged]\n    ours       {}\n    cloud-init {}",
                J::Array(ours),
                J::Array(theirs)
            ),
        );
    }
}

fn check_validate(s: &Sample, rel: &str, id: bool, t: &Theirs, c: &mut Check) {
    let run = cli(
        &["validate", "--cloud-init", rel, "--format", "json"],
        s,
        id,
    );
    // 5: errors found (a part cloud-init drops is one).
    let Some(ours) = (match run.code {
        0 | 1 | 5 => parse("validate", &run, c),
        _ => {
            c.fail(
                "validate",
                format!("exit {}: {}", run.code, run.stderr.trim_end()),
            );
            None
        }
    }) else {
        return;
    };
    let diags: Vec<&J> = ours["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let aborted = ours["aborted"] == json!(true);
    // An `#include` URL: the oracle has no network, so its fetch fails and cloud-init
    // aborts; validate cannot know whether the instance will reach it and says so.
    let unfetched = t.doc["error"]
        .as_str()
        .is_some_and(|e| e.contains("network disabled, no --url-map entry"))
        && diags.iter().any(|d| d["code"] == "include-not-fetched");
    if aborted != t.aborted && !unfetched {
        c.fail(
            "validate",
            format!(
                "aborts: ours {aborted}, cloud-init {} ({})",
                t.aborted, t.doc["error"]
            ),
        );
        return;
    }
    if unfetched {
        c.unfetched = true;
    }
    if aborted || unfetched {
        return;
    }
    let ours_parts: Vec<&J> = ours["parts"].as_array().into_iter().flatten().collect();
    let outcomes: Vec<String> = ours_parts
        .iter()
        .map(|p| match p["outcome"].as_str().unwrap_or("") {
            "jinja-not-rendered" => "jinja".to_owned(),
            // An empty part of an unknown type: no handler, logged at debug level only.
            "empty" => "ignored".to_owned(),
            o => o.to_owned(),
        })
        .collect();
    let theirs: Vec<String> = t
        .parts
        .iter()
        .map(|p| Theirs::outcome(p).to_owned())
        .collect();
    if outcomes != theirs {
        c.fail(
            "validate",
            format!("part outcomes: ours {outcomes:?}, cloud-init {theirs:?}"),
        );
    }
    // Nothing lost: a part cloud-init drops or ignores is named by a diagnostic.
    for p in &ours_parts {
        let n = &p["part"];
        let outcome = p["outcome"].as_str().unwrap_or("");
        if !matches!(outcome, "rejected" | "ignored") {
            continue;
        }
        // Of any severity: a part another agent reads (EKS nodeadm) is a note.
        if diags.iter().any(|d| &d["part"] == n) {
            continue;
        }
        // Located on the MIME header, a diagnostic names its part in the text only
        // (`"part": null`; issue 28 item 2 gives it the part): counted, not failed.
        let in_text = format!("part {n} ");
        if diags.iter().any(|d| {
            d["part"].is_null() && d["message"].as_str().is_some_and(|m| m.contains(&in_text))
        }) {
            c.part_in_text_only += 1;
            continue;
        }
        c.fail(
            "validate",
            format!("part {n} is {outcome} but no diagnostic names it"),
        );
    }
    let notes: BTreeSet<String> = diags
        .iter()
        .flat_map(|d| d["notes"].as_array().into_iter().flatten())
        .filter_map(|n| n.as_str()?.strip_prefix("cloud-init logs: "))
        .map(normalize_warning)
        .collect();
    let warned = t.warnings();
    if notes != warned {
        c.fail(
            "validate",
            format!(
                "warnings cloud-init logs but no diagnostic quotes: {:?}; quoted but not logged: {:?}",
                warned.difference(&notes).collect::<Vec<_>>(),
                notes.difference(&warned).collect::<Vec<_>>()
            ),
        );
    }
}

fn check_explain(s: &Sample, rel: &str, id: bool, t: &Theirs, c: &mut Check) {
    let run = cli(&["explain", "--cloud-init", rel, "--format", "json"], s, id);
    if !c.exit("explain", &run, t, &[0]) {
        return;
    }
    let Some(ours) = parse("explain", &run, c) else {
        return;
    };
    let config = match &ours["config"] {
        J::Null => J::Null,
        J::Array(entries) => match rebuild(entries) {
            Ok(v) => v,
            Err(e) => {
                c.fail("explain", format!("entries do not make a config: {e}"));
                return;
            }
        },
        other => {
            c.fail("explain", format!("config is {other}"));
            return;
        }
    };
    if canonical(&config) != canonical(&t.doc["cloud_config"]) {
        c.fail(
            "explain",
            format!(
                "config: ours {}\n    cloud-init {}",
                canonical(&config),
                canonical(&t.doc["cloud_config"])
            ),
        );
    }
    let parts: Vec<&J> = ours["parts"].as_array().into_iter().flatten().collect();
    let statuses: Vec<&str> = parts
        .iter()
        .map(|p| match p["status"].as_str().unwrap_or("") {
            "dropped" => "rejected",
            "would_run" => "runs",
            "ignored" if p["content_type"] == "text/jinja2" => "jinja",
            s => s,
        })
        .collect();
    let theirs: Vec<&str> = t.parts.iter().map(|p| Theirs::outcome(p)).collect();
    if statuses != theirs {
        c.fail(
            "explain",
            format!("part statuses: ours {statuses:?}, cloud-init {theirs:?}"),
        );
    }
    for p in &parts {
        let n = &p["part"];
        if matches!(p["status"].as_str(), Some("dropped" | "ignored"))
            && !run.stderr.contains(&format!("warning: part {n} "))
        {
            c.fail(
                "explain",
                format!("part {n} is {} without a warning", p["status"]),
            );
        }
    }
}

/// Per command: payloads that agree, and the disagreements.
#[derive(Default)]
struct Tally {
    agree: BTreeMap<&'static str, usize>,
    bad: Vec<String>,
    compared: usize,
    oracle_secs: f64,
    part_in_text_only: usize,
    unfetched: usize,
    /// Parts, parts cloud-init did not merge or run, distinct warnings it logged.
    parts: usize,
    dropped: usize,
    warnings: usize,
}

fn check_all(samples: &[Sample], rel: &str, oracle_release: &str, what: &str) -> Tally {
    let started = Instant::now();
    let docs = oracle_batch::docs_of_lines(
        oracle_release,
        samples.iter().map(|s| {
            let mut r = json!({"b64": B64.encode(&s.payload), "emit_file": true});
            if s.jinja {
                r["instance_data_b64"] = json!(B64.encode(std::fs::read(INSTANCE_DATA).unwrap()));
            }
            r
        }),
    );
    let mut t = Tally {
        oracle_secs: started.elapsed().as_secs_f64(),
        ..Tally::default()
    };
    for (s, doc) in samples.iter().zip(&docs) {
        let theirs = Theirs::new(doc);
        let id = s.jinja;
        t.compared += 1;
        t.parts += theirs.parts.len();
        t.dropped += theirs
            .parts
            .iter()
            .filter(|p| matches!(Theirs::outcome(p), "rejected" | "ignored"))
            .count();
        t.warnings += theirs.warnings().len();
        let mut c = Check::default();
        check_render(s, rel, id, &theirs, &mut c);
        check_parts(s, rel, id, &theirs, &mut c);
        check_validate(s, rel, id, &theirs, &mut c);
        check_explain(s, rel, id, &theirs, &mut c);
        t.part_in_text_only += c.part_in_text_only;
        t.unfetched += usize::from(c.unfetched);
        for cmd in COMMANDS {
            match c.bad.get(cmd) {
                None => *t.agree.entry(cmd).or_default() += 1,
                Some(msgs) => t.bad.push(format!(
                    "{what} {} [{oracle_release}] {cmd}: {}{}",
                    s.label,
                    msgs.join("\n  "),
                    if s.path.is_none() {
                        format!("\n  payload b64 {}", B64.encode(&s.payload))
                    } else {
                        String::new()
                    }
                )),
            }
        }
    }
    t
}

fn report(t: &Tally, what: &str, oracle_release: &str, started: Instant) {
    let per: Vec<String> = COMMANDS
        .iter()
        .map(|c| {
            format!(
                "{c} {}/{}",
                t.agree.get(c).copied().unwrap_or(0),
                t.compared
            )
        })
        .collect();
    eprintln!(
        "{what} vs oracle {oracle_release}: {} payloads agree per command: {} ({:.1}s, of which the oracle {:.1}s)",
        t.compared,
        per.join(", "),
        started.elapsed().as_secs_f64(),
        t.oracle_secs
    );
    eprintln!(
        "  {} parts compared, {} of them dropped or ignored by cloud-init, {} distinct warnings it logged",
        t.parts, t.dropped, t.warnings
    );
    if t.unfetched > 0 {
        eprintln!(
            "  {} with an #include URL: cloud-init aborts when its fetch fails (the oracle has no network); validate warns include-not-fetched",
            t.unfetched
        );
    }
    if t.part_in_text_only > 0 {
        eprintln!(
            "  {} dropped parts named only in a diagnostic's text, its \"part\" null (a MIME-header location; issue 28 item 2)",
            t.part_in_text_only
        );
    }
}

fn run_corpus(rel: &str, oracle_release: &str) {
    let (dir, rows) = corpus();
    let started = Instant::now();
    let (samples, expected) = corpus_samples(&dir, &rows);
    let mut t = check_all(&samples, rel, oracle_release, "corpus");
    // Each merge set's fold equals cloud-init's own expected output (loaded by the
    // oracle as a cloud-config of that text).
    let docs = oracle_batch::docs_of_lines(
        oracle_release,
        expected
            .iter()
            .map(|(_, text)| json!({"b64": B64.encode(format!("#cloud-config\n{text}")), "emit_file": false})),
    );
    let mut sets_ok = 0;
    for ((i, _), doc) in expected.iter().zip(&docs) {
        let s = &samples[*i];
        let run = cli(
            &["render", "--cloud-init", rel, "--format", "json"],
            s,
            s.jinja,
        );
        let ours: J = serde_json::from_slice(&run.stdout).unwrap_or(J::Null);
        if canonical(&ours) == canonical(&doc["cloud_config"]) {
            sets_ok += 1;
        } else {
            t.bad.push(format!(
                "{} [{oracle_release}]: not cloud-init's expected output\n  ours     {}\n  expected {}",
                s.label,
                canonical(&ours),
                canonical(&doc["cloud_config"])
            ));
        }
    }
    report(&t, "realworld corpus", oracle_release, started);
    eprintln!(
        "  merge_sources sets equal to cloud-init's expected output: {sets_ok}/{}",
        expected.len()
    );
    oracle_batch::assert_none(&t.bad, 30);
}

fn run_combined(rel: &str, oracle_release: &str) {
    let (dir, rows) = corpus();
    let started = Instant::now();
    let n: usize = std::env::var("CLOUDFOLD_REALWORLD_COMBINED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let extra: u64 = std::env::var("CLOUDFOLD_ORACLE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let samples = combined_samples(
        &dir,
        &rows,
        n,
        0x00C0_4B1E ^ extra.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let t = check_all(&samples, rel, oracle_release, "combined");
    report(&t, "realworld combined multiparts", oracle_release, started);
    oracle_batch::assert_none(&t.bad, 20);
}

#[test]
#[ignore = "needs ../shared (the real-world corpus, the extracted cloud-init) and the cloudfold binary: scripts/conformance.sh runs it"]
fn conformance_realworld_corpus_22_4() {
    run_corpus("22.4", "bookworm");
}

#[test]
#[ignore = "needs ../shared (the real-world corpus, the extracted cloud-init) and the cloudfold binary: scripts/conformance.sh runs it"]
fn conformance_realworld_corpus_25_1() {
    run_corpus("25.1", "trixie");
}

#[test]
#[ignore = "needs ../shared (the real-world corpus, the extracted cloud-init) and the cloudfold binary: scripts/conformance.sh runs it"]
fn conformance_realworld_combined_22_4() {
    run_combined("22.4", "bookworm");
}

#[test]
#[ignore = "needs ../shared (the real-world corpus, the extracted cloud-init) and the cloudfold binary: scripts/conformance.sh runs it"]
fn conformance_realworld_combined_25_1() {
    run_combined("25.1", "trixie");
}
