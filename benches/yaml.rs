//! Criterion benchmarks of the YAML loader and emitter on a generated ~5 MB cloud-config
//! (see `support/cloud_config_doc.rs`).
#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented pub fn"
)]
// Test code: an out-of-range index is a failed test.
#![allow(clippy::indexing_slicing)]

#[path = "support/cloud_config_doc.rs"]
mod cloud_config_doc;

// Same allocator as the shipped binary (cloudfold-cli/Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cloud_config_doc::document;
use std::hint::black_box;

use cloudfold::yaml::{DumpOptions, LoadOptions, dump, load};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    let doc = document();
    let opts = LoadOptions::default();
    let node = match load(&doc, &opts) {
        Ok(Some(n)) => n,
        other => {
            eprintln!("generated document did not load: {other:?}");
            std::process::exit(1);
        }
    };
    let ci = DumpOptions::cloud_init();
    let readable = DumpOptions::readable();
    let dumped_ci = dump(&node, &ci).map(|t| t.len()).unwrap_or(0);
    let dumped_rd = dump(&node, &readable).map(|t| t.len()).unwrap_or(0);
    eprintln!(
        "document: {} bytes in; dump cloud-init {} bytes, readable {} bytes",
        doc.len(),
        dumped_ci,
        dumped_rd
    );

    let mut g = c.benchmark_group("yaml");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(doc.len() as u64));
    // `load` includes freeing the tree; `load_only` frees it outside the timing.
    g.bench_function("load", |b| b.iter(|| load(black_box(&doc), &opts)));
    g.bench_function("load_only", |b| {
        b.iter_with_large_drop(|| load(black_box(&doc), &opts))
    });
    // Throughput of the dumps is measured against the bytes they write.
    g.throughput(Throughput::Bytes(dumped_ci as u64));
    g.bench_function("dump_cloud_init", |b| {
        b.iter(|| dump(black_box(&node), &ci))
    });
    g.throughput(Throughput::Bytes(dumped_rd as u64));
    g.bench_function("dump_readable", |b| {
        b.iter(|| dump(black_box(&node), &readable))
    });
    g.finish();
}

criterion_group!(yaml_benches, benches);
criterion_main!(yaml_benches);
