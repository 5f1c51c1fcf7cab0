//! Hostile inputs: every case ends cleanly (an error naming the limit or the part, or cloud-init's own warning), fast, and small.
//!
//! Each input is generated here (nothing huge is committed) and fed to the
//! `cloudfold` binary as a subprocess, so the peak memory of the run can be
//! read (`VmHWM` from `/proc/<pid>/status`, polled while it runs) and a panic
//! would show as it would to a user. Bounds: 10 s and 1 GiB per case.
//!
//! `cargo test` uses the debug binary; `scripts/conformance.sh` runs the same
//! suite against the release binary (`CLOUDFOLD_BIN`). The few cases that
//! are slow only because a debug build inflates or scans hundreds of MiB get
//! the 10 s bound in release builds and a 60 s bound in debug ones.

use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIME_LIMIT: Duration = Duration::from_secs(10);
const MEM_LIMIT_KB: u64 = 1 << 20;

fn binary() -> (PathBuf, bool) {
    match std::env::var_os("CLOUDFOLD_BIN") {
        Some(p) => (PathBuf::from(p), true),
        None => (
            PathBuf::from(env!("CARGO_BIN_EXE_cloudfold")),
            !cfg!(debug_assertions),
        ),
    }
}

fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cloudfold-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[derive(Debug)]
struct Outcome {
    code: i32,
    stderr: String,
    stdout_len: usize,
    time: Duration,
    peak_kb: u64,
}

/// Read `VmHWM` (peak resident set, kB) of a running process.
fn vm_hwm(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Run the binary on `input` (a file) with `args`, measuring time and peak memory.
fn run(args: &[&str], input: &Path) -> Outcome {
    let (bin, _) = binary();
    let start = Instant::now();
    let mut child = Command::new(&bin)
        .args(args)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out_pipe = child.stdout.take().unwrap();
    let err_pipe = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut { out_pipe }, &mut v).ok();
        v.len()
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut { err_pipe }, &mut v).ok();
        String::from_utf8_lossy(&v).into_owned()
    });
    let mut peak = 0;
    let status = loop {
        if let Some(kb) = vm_hwm(pid) {
            peak = peak.max(kb);
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().ok();
            panic!("{args:?} {}: still running after 120 s", input.display());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let time = start.elapsed();
    Outcome {
        code: status.code().unwrap_or(-1),
        stderr: err_t.join().unwrap(),
        stdout_len: out_t.join().unwrap(),
        time,
        peak_kb: peak,
    }
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A gzip stream that inflates to `mib` MiB of zeros: one compressed member
/// of 1 MiB, repeated (gzip readers, Python's included, read concatenated
/// members as one stream). Cheap to make, about 1 KiB per MiB.
fn gzip_bomb(mib: usize) -> Vec<u8> {
    let member = gz(&vec![0u8; 1 << 20]);
    member.repeat(mib)
}

fn b64(data: &[u8]) -> String {
    use base64::Engine;
    let s = base64::engine::general_purpose::STANDARD.encode(data);
    let mut out = String::with_capacity(s.len() + s.len() / 76 + 1);
    for chunk in s.as_bytes().chunks(76) {
        out.push_str(std::str::from_utf8(chunk).unwrap());
        out.push('\n');
    }
    out
}

/// A multipart with the given (headers, body) parts.
fn multipart(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut m =
        b"Content-Type: multipart/mixed; boundary=\"BOUND\"\nMIME-Version: 1.0\n\n".to_vec();
    for (h, body) in parts {
        m.extend_from_slice(b"--BOUND\n");
        m.extend_from_slice(h.as_bytes());
        m.extend_from_slice(b"\n\n");
        m.extend_from_slice(body);
        m.extend_from_slice(b"\n");
    }
    m.extend_from_slice(b"--BOUND--\n");
    m
}

fn cloud_config(body: &str) -> Vec<u8> {
    format!("#cloud-config\n{body}").into_bytes()
}

/// What a case must end with.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// Exit 4 (a cloudfold limit), stderr naming the flag.
    Limit(&'static str),
    /// Exit 1 (cloud-init would abort), stderr containing the text.
    Abort(&'static str),
    /// Exit 0; stderr containing the text (a warning) if not empty.
    Done(&'static str),
    /// Exit 0 or 1 (whatever cloud-init does), just cleanly.
    Clean,
    /// Exit 2 (`diff`'s trouble), stderr naming the flag.
    Trouble(&'static str),
}

struct Case {
    name: &'static str,
    input: Vec<u8>,
    args: &'static [&'static str],
    expect: Expect,
    /// Slow only in a debug build (inflates or scans hundreds of MiB).
    heavy: bool,
}

fn case(name: &'static str, input: Vec<u8>, expect: Expect) -> Case {
    Case {
        name,
        input,
        args: &["render"],
        expect,
        heavy: false,
    }
}

fn merge_case(name: &'static str, merge_how: &str) -> Case {
    let doc = format!(
        "Content-Type: multipart/mixed; boundary=\"B\"\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: [a]\nk: {{x: 1}}\n--B\nContent-Type: text/cloud-config\nMerge-Type: {merge_how}\n\n#cloud-config\nruncmd: [b]\nk: {{y: 2}}\nmerge_how: {merge_how:?}\n--B--\n"
    );
    case(name, doc.into_bytes(), Expect::Clean)
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    // gzip bombs: ≥ 1 GiB inflated, at every layer cloud-init gunzips.
    let bomb = gzip_bomb(1024);
    v.push(Case {
        heavy: true,
        ..case(
            "gzip-bomb-top-level",
            bomb.clone(),
            Expect::Limit("--max-decompressed-size"),
        )
    });
    let bomb_part = multipart(&[(
        "Content-Type: application/x-gzip\nContent-Transfer-Encoding: base64",
        b64(&bomb).as_bytes(),
    )]);
    v.push(Case {
        heavy: true,
        ..case(
            "gzip-bomb-part",
            bomb_part.clone(),
            Expect::Limit("--max-decompressed-size"),
        )
    });
    // The part bomb inside a gzipped payload: the layers share one budget.
    v.push(Case {
        heavy: true,
        ..case(
            "gzip-bomb-nested",
            gz(&bomb_part),
            Expect::Limit("--max-decompressed-size"),
        )
    });
    // Many small gzip parts, each under the limit, together over it.
    let small = b64(&gzip_bomb(100));
    let many: Vec<(&str, &[u8])> = (0..4)
        .map(|_| {
            (
                "Content-Type: application/gzip\nContent-Transfer-Encoding: base64",
                small.as_bytes(),
            )
        })
        .collect();
    v.push(Case {
        heavy: true,
        ..case(
            "gzip-many-parts-over-budget",
            multipart(&many),
            Expect::Limit("--max-decompressed-size"),
        )
    });
    // gzip inside gzip at the top level: cloud-init gunzips one layer only.
    v.push(case(
        "gzip-in-gzip",
        gz(&gz(b"#cloud-config\na: 1\n")),
        Expect::Clean,
    ));
    // A gzip part declared text/plain: not gunzipped, re-detected as nothing.
    v.push(case(
        "gzip-part-declared-text-plain",
        multipart(&[(
            "Content-Type: text/plain\nContent-Transfer-Encoding: base64",
            b64(&gz(b"#cloud-config\na: 1\n")).as_bytes(),
        )]),
        Expect::Done("part 1"),
    ));
    // Alias bomb: 10^9 leaves if expanded.
    let mut laughs = String::from("#cloud-config\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        laughs.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    v.push(case(
        "alias-bomb",
        laughs.clone().into_bytes(),
        Expect::Clean,
    ));
    v.push(Case {
        args: &["render", "--format", "json"],
        heavy: true,
        ..case(
            "alias-bomb-json",
            laughs.clone().into_bytes(),
            Expect::Limit("--max-alias-expansion"),
        )
    });
    v.push(Case {
        args: &["render", "--format", "cloud-init"],
        ..case("alias-bomb-cloud-init", laughs.into_bytes(), Expect::Clean)
    });
    // 200,000-deep nesting: PyYAML's RecursionError, reported as cloud-init does.
    let depth = 200_000;
    v.push(case(
        "deep-flow",
        cloud_config(&format!("{}{}\n", "[".repeat(depth), "]".repeat(depth))),
        Expect::Done("part 1"),
    ));
    v.push(case(
        "deep-flow-map",
        cloud_config(&format!("{}{}\n", "{a: ".repeat(depth), "}".repeat(depth))),
        Expect::Done("part 1"),
    ));
    v.push(case(
        "deep-block",
        cloud_config(&format!("k:\n{}x\n", "- ".repeat(depth))),
        Expect::Done("part 1"),
    ));
    v.push(case(
        "deep-mime",
        {
            let mut m = Vec::new();
            for i in 0..2000 {
                m.extend_from_slice(
                    format!("Content-Type: multipart/mixed; boundary=b{i}\nMIME-Version: 1.0\n\n--b{i}\n")
                        .as_bytes(),
                );
            }
            m
        },
        Expect::Clean,
    ));
    // A 50 MiB scalar.
    v.push(Case {
        heavy: true,
        ..case(
            "scalar-50mib",
            cloud_config(&format!("k: {}\n", "a".repeat(50 << 20))),
            Expect::Limit("--max-scalar-size"),
        )
    });
    // Invalid UTF-8 in the MIME envelope and inside a part.
    let mut bad_env = b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=B\nX-Bad: \xff\xfe\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n--B--\n".to_vec();
    v.push(case(
        "invalid-utf8-envelope",
        bad_env.clone(),
        Expect::Abort("not valid UTF-8"),
    ));
    bad_env.truncate(0);
    v.push(case(
        "invalid-utf8-in-part-base64",
        multipart(&[(
            "Content-Type: text/cloud-config\nContent-Transfer-Encoding: base64",
            b64(b"#cloud-config\na: \xff\xfe\xc3\n").as_bytes(),
        )]),
        Expect::Clean,
    ));
    v.push(case(
        "invalid-utf8-not-mime",
        b"#cloud-config\na: \xff\xfe\n".to_vec(),
        Expect::Clean,
    ));
    // Broken multiparts.
    let mut truncated = multipart(&[
        ("Content-Type: text/cloud-config", b"#cloud-config\na: 1"),
        ("Content-Type: text/x-shellscript", b"#!/bin/sh\necho hi"),
    ]);
    truncated.truncate(truncated.len() - 30);
    v.push(case("truncated-multipart", truncated, Expect::Clean));
    v.push(case(
        "missing-boundary",
        b"Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n--B--\n".to_vec(),
        Expect::Clean,
    ));
    let empty: Vec<(&str, &[u8])> = (0..10_000).map(|_| ("", &b""[..])).collect();
    v.push(case("10000-empty-parts", multipart(&empty), Expect::Clean));
    v.push(Case {
        args: &["render", "--max-parts", "100"],
        ..case(
            "parts-over-limit",
            multipart(&empty),
            Expect::Limit("--max-parts"),
        )
    });
    v.push(case(
        "1mb-header-line",
        format!(
            "MIME-Version: 1.0\nX-Long: {}\nContent-Type: text/cloud-config\n\n#cloud-config\na: 1\n",
            "a".repeat(1 << 20)
        )
        .into_bytes(),
        Expect::Clean,
    ));
    v.push(case(
        "nul-bytes-yaml",
        b"#cloud-config\na: b\0c\n\0\0".to_vec(),
        Expect::Done("part 1"),
    ));
    v.push(case(
        "nul-bytes-mime",
        multipart(&[(
            "Content-Type: text/cloud-config\0X: \0",
            b"#cloud-config\na: \0\n",
        )]),
        Expect::Clean,
    ));
    // Random binary (a fixed xorshift stream).
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let random: Vec<u8> = (0..1 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    v.push(case("random-binary", random.clone(), Expect::Clean));
    let mut gz_random = vec![0x1f, 0x8b];
    gz_random.extend_from_slice(&random[..4096]);
    v.push(case("gzip-magic-then-garbage", gz_random, Expect::Clean));
    v.push(case(
        "garbage-base64",
        multipart(&[(
            "Content-Type: text/cloud-config\nContent-Transfer-Encoding: base64",
            b"!!!@@@###$$$ not base64 at all ===\n\xc3\xa9==",
        )]),
        Expect::Clean,
    ));
    // Malformed merge specs.
    v.push(merge_case("merge-spec-unclosed", "dict("));
    v.push(merge_case("merge-spec-typo", "list(apend)"));
    v.push(merge_case("merge-spec-reversed-parens", ")("));
    v.push(merge_case("merge-spec-10000-plus", &"+".repeat(10_000)));
    v.push(case(
        "merge-how-list-of-strings",
        cloud_config("a: [1]\nmerge_how: [\"dict(replace)\", \"list(append)\"]\n"),
        Expect::Clean,
    ));
    v.push(case(
        "json-patch-removes-root",
        multipart(&[
            ("Content-Type: text/cloud-config", b"#cloud-config\na: 1"),
            (
                "Content-Type: text/cloud-config-jsonp",
                b"#cloud-config-jsonp\n[{\"op\": \"remove\", \"path\": \"\"}]",
            ),
        ]),
        Expect::Clean,
    ));
    // Templates (rendered with instance data): loops, recursion, sizes.
    let data = std::env::temp_dir().join("cloudfold-hostile-instance-data.json");
    std::fs::write(&data, br#"{"v1": {"n": 3}}"#).unwrap();
    let args: &'static [&'static str] = Box::leak(
        vec![
            "render",
            "--instance-data",
            Box::leak(data.display().to_string().into_boxed_str()),
        ]
        .into_boxed_slice(),
    );
    let jinja = |name: &'static str, body: &str, expect: Expect| Case {
        args,
        ..case(
            name,
            format!("## template: jinja\n#cloud-config\na: {body}\n").into_bytes(),
            expect,
        )
    };
    v.push(Case {
        heavy: true,
        ..jinja(
            "jinja-loop-1e9",
            "{% for i in range(10**9) %}x{% endfor %}",
            Expect::Limit("--max-template-steps"),
        )
    });
    v.push(jinja(
        "jinja-recursive-macro",
        "{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}",
        Expect::Limit("--max-template-depth"),
    ));
    v.push(jinja(
        "jinja-string-times-1e9",
        "{{ 'x' * 10**9 }}",
        Expect::Limit("--max-template-"),
    ));
    v.push(jinja(
        "jinja-string-growth",
        "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}",
        Expect::Limit("--max-template"),
    ));
    v.push(jinja(
        "jinja-deep-parens",
        &format!("{{{{ {}1{} }}}}", "(".repeat(5000), ")".repeat(5000)),
        Expect::Limit("nests expressions deeper"),
    ));
    v.push(jinja(
        "jinja-deep-blocks",
        &format!(
            "{}x{}",
            "{% if true %}".repeat(3000),
            "{% endif %}".repeat(3000)
        ),
        Expect::Limit("nests expressions deeper"),
    ));
    // Print tags holding tuples (`{{ a, b }}`, MiniJinja's parser stops at the `,`):
    // one linear rewrite, whatever the number of tags (one a line: MiniJinja's column
    // counter is 16 bits); a tag of more than 100 items keeps MiniJinja's error (its
    // joined form would nest as deep).
    v.push(jinja(
        "jinja-print-tuple-many-commas",
        &format!(
            "{{{{ 1{} }}}} {}",
            ", 1".repeat(100_000),
            "{{ a, b }}\n".repeat(50_000)
        ),
        Expect::Clean,
    ));
    v.push(jinja(
        "jinja-print-tuple-then-open-string",
        &format!(
            "{} {{{{ 1{}, 'x }}}}",
            "{{ a, b }}\n".repeat(50_000),
            ", 1".repeat(90)
        ),
        Expect::Clean,
    ));
    // Text filters on large inputs: each linear (Python's own copies are quadratic).
    v.push(jinja(
        "jinja-wordwrap-long-hyphenated-word",
        "{{ ('ab-' * 100000)|wordwrap(1)|length }} {{ ('x' * 300000)|wordwrap(1)|length }}",
        Expect::Clean,
    ));
    v.push(jinja(
        "jinja-striptags-many-comments",
        "{{ ('<!--x-->' * 200000 ~ '<!' * 100000 ~ '<a' * 100000)|striptags|length }}",
        Expect::Clean,
    ));
    v.push(jinja(
        "jinja-urlize-unbalanced-brackets",
        "{{ ('(' * 300000 ~ 'http://x.io' ~ ')' * 300000)|urlize|length }}",
        Expect::Clean,
    ));
    v.push(jinja(
        "jinja-pprint-deep-and-wide",
        "{% set ns = namespace(x=[]) %}{% for i in range(800) %}{% set ns.x = [ns.x, 'w ' * 50] %}{% endfor %}{{ ns.x|pprint|length }}",
        Expect::Clean,
    ));
    v.push(jinja(
        "jinja-range-list",
        "{{ range(10**9)|list|length }}",
        Expect::Clean,
    ));
    v.push(case(
        "mixed-crlf-lf",
        b"Content-Type: multipart/mixed; boundary=\"B\"\r\nMIME-Version: 1.0\n\r\n--B\r\nContent-Type: text/cloud-config\n\r\n#cloud-config\r\na: 1\nb:\r\n  - x\n  - y\r\n--B\n--B--\r\n".to_vec(),
        Expect::Clean,
    ));
    v
}

/// Include loop: a file that includes itself (needs --include-dir).
fn include_loop(dir: &Path) -> Case {
    let p = dir.join("loop.txt");
    std::fs::write(&p, format!("#include\nfile://{}\n", p.display())).unwrap();
    let input = std::fs::read(&p).unwrap();
    let args: &'static [&'static str] = Box::leak(
        vec![
            "render",
            "--include-dir",
            Box::leak(dir.display().to_string().into_boxed_str()) as &str,
        ]
        .into_boxed_slice(),
    );
    Case {
        args,
        ..case("include-loop", input, Expect::Limit("--max-include-depth"))
    }
}

/// `diff` against hostile payloads: each case's input is NEW, OLD a file written here.
fn diff_cases(dir: &Path) -> Vec<Case> {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let old = |name: &str, bytes: &[u8]| {
        let p = dir.join(format!("old-{name}"));
        std::fs::write(&p, bytes).unwrap();
        leak(p.display().to_string())
    };
    let args =
        |v: Vec<&'static str>| -> &'static [&'static str] { Box::leak(v.into_boxed_slice()) };
    // Alias bombs (10^9 leaves expanded) on both sides, one leaf apart: the comparison stops
    // at its node budget. Against an empty config: added whole, shown cut on one line.
    let bomb = |leaf: &str| {
        let mut s = format!("#cloud-config\na0: &a0 [{leaf}, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            s.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        s.into_bytes()
    };
    let empty = old("empty", b"#cloud-config\n{}\n");
    // A 100,000-item list with one line inserted (one change); 30,000 items reversed (Myers'
    // worst case: the alignment budget, lowered to keep a debug build quick, runs out and
    // the rest is compared in place).
    let long = |items: &mut dyn Iterator<Item = usize>| {
        let mut s = String::from("#cloud-config\nruncmd:\n");
        for i in items {
            s.push_str(&format!("- echo {i}\n"));
        }
        s.into_bytes()
    };
    let long_old = old("long", &long(&mut (0..100_000)));
    let mut inserted = (0..50_000).chain([7_777_777]).chain(50_000..100_000);
    vec![
        Case {
            // The limit's own flag, lowered: the comparison's budget is twice it.
            args: args(vec![
                "diff",
                "--max-alias-expansion",
                "200000",
                old("bomb", &bomb("y")),
            ]),
            ..case(
                "diff-alias-bombs",
                bomb("x"),
                Expect::Trouble("--max-alias-expansion"),
            )
        },
        Case {
            args: args(vec!["diff", empty]),
            ..case("diff-alias-bomb-added", bomb("x"), Expect::Clean)
        },
        Case {
            args: args(vec![
                "diff",
                "--format",
                "json",
                "--max-alias-expansion",
                "200000",
                empty,
            ]),
            ..case(
                "diff-alias-bomb-added-json",
                bomb("x"),
                Expect::Trouble("--max-alias-expansion"),
            )
        },
        Case {
            args: args(vec!["diff", long_old]),
            ..case("diff-100k-one-inserted", long(&mut inserted), Expect::Clean)
        },
        Case {
            args: args(vec![
                "diff",
                "--max-align-work",
                "1000000",
                old("long30k", &long(&mut (0..30_000))),
            ]),
            heavy: true,
            ..case(
                "diff-30k-reversed",
                long(&mut (0..30_000).rev()),
                Expect::Clean,
            )
        },
    ]
}

fn check(c: &Case, o: &Outcome) -> Result<(), String> {
    if o.code == 101 || o.stderr.contains("panicked at") {
        return Err(format!("panicked (exit {}): {}", o.code, o.stderr));
    }
    if o.code == 70 {
        return Err(format!("internal error: {}", o.stderr));
    }
    let ok = match c.expect {
        Expect::Limit(flag) => o.code == 4 && o.stderr.contains(flag),
        Expect::Abort(text) => o.code == 1 && o.stderr.contains(text),
        Expect::Done(text) => o.code == 0 && o.stderr.contains(text),
        Expect::Clean => matches!(o.code, 0 | 1),
        Expect::Trouble(flag) => o.code == 2 && o.stderr.contains(flag),
    };
    if !ok {
        return Err(format!(
            "expected {:?}, got exit {} with stderr {:?}",
            c.expect,
            o.code,
            o.stderr.chars().take(600).collect::<String>()
        ));
    }
    Ok(())
}

#[test]
fn hostile_inputs_end_cleanly_fast_and_small() {
    let (bin, release) = binary();
    let dir = scratch();
    let mut all = cases();
    all.push(include_loop(&dir));
    all.extend(diff_cases(&dir));
    let mut failures = Vec::new();
    let (mut worst_t, mut worst_t_name) = (Duration::ZERO, "");
    let (mut worst_m, mut worst_m_name) = (0, "");
    for c in &all {
        let path = dir.join(c.name);
        std::fs::write(&path, &c.input).unwrap();
        let o = run(c.args, &path);
        std::fs::remove_file(&path).ok();
        let time_limit = if release || !c.heavy {
            TIME_LIMIT
        } else {
            TIME_LIMIT * 6
        };
        eprintln!(
            "{:<32} exit {:>3}  {:>7.2} s  {:>8} KiB  out {:>9} B  {}",
            c.name,
            o.code,
            o.time.as_secs_f64(),
            o.peak_kb,
            o.stdout_len,
            o.stderr
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(150)
                .collect::<String>()
        );
        if let Err(e) = check(c, &o) {
            failures.push(format!("{}: {e}", c.name));
        }
        if o.time > time_limit {
            failures.push(format!(
                "{}: took {:?} (limit {time_limit:?})",
                c.name, o.time
            ));
        }
        if o.peak_kb > MEM_LIMIT_KB {
            failures.push(format!("{}: peak {} KiB (limit 1 GiB)", c.name, o.peak_kb));
        }
        if o.time > worst_t {
            (worst_t, worst_t_name) = (o.time, c.name);
        }
        if o.peak_kb > worst_m {
            (worst_m, worst_m_name) = (o.peak_kb, c.name);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    eprintln!(
        "hostile suite ({} cases, {}, {}): worst time {:.2} s ({worst_t_name}), worst peak memory {} MiB ({worst_m_name})",
        all.len(),
        bin.display(),
        if release { "release" } else { "debug" },
        worst_t.as_secs_f64(),
        worst_m / 1024,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// No panic message reaches a user: the binary over every fixture input, the
/// fuzz regression fixtures and (when present locally) the fuzz corpora.
#[test]
fn no_panic_over_fixtures_and_fuzz_corpora() {
    // The repository root: the fixtures are shared with the library's tests.
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files = Vec::new();
    let mut dirs = vec![
        root.join("fixtures/fuzz-regressions"),
        root.join("fixtures/mime"),
        root.join("fixtures/cli"),
    ];
    // Local fuzz corpora (generated, not committed): a bounded sample.
    let corpus_cap = std::env::var("CLOUDFOLD_CORPUS_CAP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200usize);
    for t in ["render", "mime_parse", "yaml_load"] {
        let d = root.join("fuzz/corpus").join(t);
        if let Ok(rd) = std::fs::read_dir(&d) {
            let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            entries.sort();
            files.extend(entries.into_iter().take(corpus_cap));
        }
    }
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if !matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("json" | "toml" | "stdout" | "stderr" | "md")
            ) {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(!files.is_empty());
    let mut bad = Vec::new();
    for (i, f) in files.iter().enumerate() {
        // `diff` of each input against the one before it (and the first against itself).
        let before = files[i.saturating_sub(1)].to_string_lossy().into_owned();
        for args in [
            &["render"][..],
            &["render", "--format", "json"][..],
            &["parts", "--format", "json"][..],
            &["diff", before.as_str()][..],
            &["diff", "--format", "json", before.as_str()][..],
        ] {
            let o = run(args, f);
            if o.code == 101 || o.code == 70 || o.stderr.contains("panicked at") {
                bad.push(format!(
                    "{} {args:?}: exit {} {}",
                    f.display(),
                    o.code,
                    o.stderr
                ));
            }
        }
    }
    eprintln!("{} inputs × 5 commands: no panic", files.len());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A ~2 MB payload whose top-level headers hold one 1 MiB line, and 1000
/// parts whose `Merge-Type` header misspells an option (a diagnostic on a
/// line of the document's headers each; `diff` against the same payload with
/// one part changed). Every command answers it in under a
/// second with the release binary: `validate` took 39 s on 5000 such parts
/// while each diagnostic's snippet was cut from the whole document. The
/// fastest of three runs counts (a busy machine pauses a run; a quadratic
/// step is slow every time); a debug build (100 parts) only has to finish
/// cleanly.
#[test]
fn long_header_line_every_command_within_a_second() {
    let (bin, release) = binary();
    let dir = std::env::temp_dir().join(format!("cloudfold-hostile-header-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let filler = "a".repeat(1 << 20);
    let mut payload = format!(
        "Content-Type: multipart/mixed; boundary=\"B\"\nMIME-Version: 1.0\nX-Filler: {filler}\n\n"
    );
    let padding = format!("# {}\n", "-".repeat(900));
    // A debug binary is ten times slower: fewer parts there, the same line.
    for i in 0..if release { 1000 } else { 100 } {
        payload.push_str(&format!(
            "--B\nContent-Type: text/cloud-config\nMerge-Type: list(apend)+dict(no_replace,recurse_list)\n\n#cloud-config\n{padding}runcmd: [echo {i}]\n"
        ));
    }
    payload.push_str("--B--\n");
    let input = dir.join("long-header.txt");
    std::fs::write(&input, &payload).unwrap();
    // `diff` compares it with the same payload where one part's command differs.
    let old = dir.join("long-header-old.txt");
    std::fs::write(&old, payload.replacen("[echo 0]", "[echo zero]", 1)).unwrap();
    let old = old.to_string_lossy().into_owned();
    // `build` gets the same line as a part's header, from a manifest.
    let manifest = dir.join("manifest.yaml");
    std::fs::write(
        &manifest,
        format!(
            "parts:\n  - content: \"#cloud-config\\nruncmd: [ls]\\n\"\n    type: cloud-config\n    headers: {{X-Filler: {filler}}}\n"
        ),
    )
    .unwrap();
    let commands: &[&[&str]] = &[
        &["render"],
        &["render", "--format", "cloud-init"],
        &["render", "--format", "json"],
        &["parts"],
        &["parts", "--format", "json"],
        &["validate"],
        &["validate", "--format", "json"],
        &["explain"],
        &["explain", "--format", "json"],
        &["build", "--manifest"],
        &["diff", old.as_str()],
        &["diff", "--format", "json", old.as_str()],
    ];
    let limit = Duration::from_secs(1);
    let mut failures = Vec::new();
    for args in commands {
        let file = if args[0] == "build" {
            &manifest
        } else {
            &input
        };
        let mut best = Duration::MAX;
        for _ in 0..if release { 3 } else { 1 } {
            let o = run(args, file);
            if o.code == 101 || o.code == 70 || o.stderr.contains("panicked at") {
                failures.push(format!("{args:?}: exit {} {}", o.code, o.stderr));
            } else if !matches!(o.code, 0 | 1) {
                failures.push(format!("{args:?}: exit {}", o.code));
            }
            best = best.min(o.time);
        }
        eprintln!(
            "long header line: {:<40} {:>6.3} s",
            args.join(" "),
            best.as_secs_f64()
        );
        if release && best > limit {
            failures.push(format!("{args:?}: {best:?} (limit {limit:?})"));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    eprintln!(
        "long header line ({} bytes, {}): {} commands",
        payload.len(),
        bin.display(),
        commands.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
