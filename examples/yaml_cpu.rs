//! CPU time (user + sys, `getrusage`-like via `/proc/self/stat`) of `yaml::load` and
//! `yaml::dump` on the benches' ~5 MB document, for a machine whose wall clock is shared:
//! `cargo run --release --example yaml_cpu -- [load|load_only|load_keep|parse|dump_ci|dump_readable|all] [N]`
//! (`write PATH` writes the document instead).

#[path = "../benches/support/cloud_config_doc.rs"]
mod cloud_config_doc;

// Same allocator as the shipped binary (cloudfold-cli/Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use cloudfold::yaml::{DumpOptions, LoadOptions, dump, load};
use std::hint::black_box;

/// User + system CPU seconds of this process (clock ticks of 1/100 s are too
/// coarse, so `/proc/thread-self/schedstat` nanoseconds are used when present).
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn wall() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Runs `f` `n` times; prints the best and median CPU time and the throughput.
/// What `f` returns is dropped after the clock stops.
fn measure<T>(name: &str, bytes: usize, n: usize, mut f: impl FnMut() -> T) {
    let mut cpus = Vec::with_capacity(n);
    let mut walls = Vec::with_capacity(n);
    for _ in 0..n {
        let (c0, w0) = (cpu(), wall());
        let out = f();
        cpus.push(cpu() - c0);
        walls.push(wall() - w0);
        drop(out);
    }
    cpus.sort_by(f64::total_cmp);
    walls.sort_by(f64::total_cmp);
    let best = cpus.first().copied().unwrap_or(0.0);
    let med = cpus.get(n / 2).copied().unwrap_or(0.0);
    let wmed = walls.get(n / 2).copied().unwrap_or(0.0);
    let mb = bytes as f64 / 1e6;
    println!(
        "{name:14} {bytes:>9} B  cpu best {:7.1} ms ({:6.1} MB/s)  median {:7.1} ms ({:6.1} MB/s)  wall median {:7.1} ms",
        best * 1e3,
        mb / best,
        med * 1e3,
        mb / med,
        wmed * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("all", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let doc = cloud_config_doc::document();
    // `write PATH`: the document itself, for another parser to read
    // (benches/ratios.py times libyaml on it).
    if what == "write" {
        let path = args.get(2).map_or("cloud_config_doc.yaml", String::as_str);
        if let Err(e) = std::fs::write(path, &doc) {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        return;
    }
    let opts = LoadOptions::default();
    let Ok(Some(node)) = load(&doc, &opts) else {
        eprintln!("the document did not load");
        std::process::exit(1);
    };
    let ci = DumpOptions::cloud_init();
    let rd = DumpOptions::readable();
    if what == "load" || what == "all" {
        // Includes dropping the tree, as the criterion bench does.
        measure("load", doc.len(), n, || {
            drop(black_box(load(black_box(&doc), &opts)));
        });
    }
    if what == "load_only" || what == "all" {
        // The tree is dropped after the clock stops (criterion's `iter_with_large_drop`).
        measure("load_only", doc.len(), n, || {
            black_box(load(black_box(&doc), &opts))
        });
    }
    if what == "parse" || what == "all" {
        // Scanner + parser alone: the events, dropped one by one.
        measure("parse (events)", doc.len(), n, || {
            let mut p = cloudfold::yaml::Parser::new(&doc);
            while let Ok(e) = p.next_event() {
                if matches!(e.kind, cloudfold::yaml::EventKind::StreamEnd) {
                    break;
                }
            }
        });
    }
    if what == "load_keep" {
        let mut keep = Vec::new();
        measure("load (no drop)", doc.len(), n, || {
            keep.push(black_box(load(black_box(&doc), &opts)));
        });
    }
    for (name, o) in [("dump_ci", &ci), ("dump_readable", &rd)] {
        if what == name || what == "all" {
            let len = dump(&node, o).map_or(0, |t| t.len());
            measure(name, len, n, || {
                drop(black_box(dump(black_box(&node), o)));
            });
        }
    }
}
