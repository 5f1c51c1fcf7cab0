//! Criterion benchmark of the MIME reader: `mime::parse` of a generated 5000-part
//! multipart/mixed payload shaped like `../shared/oracle/gen_payload.py` output (~4 MB),
//! and the walk `mime_leaves` does over it (headers, decoded payload, filename).
#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented pub fn"
)]

// Same allocator as the shipped binary (cloudfold-cli/Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::fmt::Write as _;
use std::hint::black_box;

use cloudfold::mime::parse;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BOUNDARY: &str = "===============BENCH-PAYLOAD==";

/// A deterministic multipart of `parts` cloud-config parts.
fn payload(parts: usize) -> String {
    let words = [
        "alpha", "bravo", "charlie", "delta", "golf", "kilo", "romeo",
    ];
    let mut s =
        format!("Content-Type: multipart/mixed; boundary=\"{BOUNDARY}\"\nMIME-Version: 1.0\n\n");
    for i in 0..parts {
        let w = |k: usize| words.get((i + k) % words.len()).copied().unwrap_or("x");
        let _ = write!(
            s,
            "--{BOUNDARY}\n\
             Content-Type: text/cloud-config; charset=\"us-ascii\"\n\
             MIME-Version: 1.0\n\
             Content-Transfer-Encoding: 7bit\n\
             Content-Disposition: attachment; filename=\"part-{i:05}.yaml\"\n\
             Merge-Type: list(append)+dict(no_replace,recurse_list)+str()\n\n\
             #cloud-config\n\
             hostname: {}-{i}\n\
             package_update: false\n\
             packages: [jq, sudo, htop]\n\
             runcmd:\n",
            w(0)
        );
        for k in 0..5 {
            let _ = writeln!(s, "  - [sh, -c, \"touch /tmp/{}-{i}-{k}\"]", w(k));
        }
        let _ = write!(
            s,
            "write_files:\n  - path: /etc/bench/part-{i}.conf\n    permissions: '0644'\n    content: |\n"
        );
        for k in 0..12 {
            let _ = writeln!(s, "      {}={}", w(k), i * 7919 + k);
        }
        let _ = write!(s, "final_message: \"part {i} done, {}\"\n\n", w(3));
    }
    let _ = writeln!(s, "--{BOUNDARY}--");
    s
}

fn benches(c: &mut Criterion) {
    let doc = payload(5000);
    eprintln!("payload: {} bytes", doc.len());
    let mut g = c.benchmark_group("mime");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(doc.len() as u64));
    g.bench_function("parse_5000_parts", |b| {
        b.iter_with_large_drop(|| parse(black_box(&doc)))
    });
    if let Ok(msg) = parse(&doc) {
        g.bench_function("walk_5000_parts", |b| {
            b.iter(|| {
                let mut n = 0usize;
                for part in msg.walk() {
                    n += part.items().count();
                    n += part.get_payload_decoded().map_or(0, |p| p.len());
                    n += part.get_filename().ok().flatten().map_or(0, |f| f.len());
                }
                n
            })
        });
    }
    g.finish();
}

criterion_group!(mime_benches, benches);
criterion_main!(mime_benches);
