//! Time of `mime::parse` (and of the walk cloud-init's processor does over the
//! result) on a payload file, for a machine whose wall clock is shared:
//! `cargo run --release --example mime_cpu -- FILE [N]` (make FILE with
//! `python3 ../shared/oracle/gen_payload.py 5000 42 /tmp/p5000.txt`).

// Same allocator as the shipped binary (cloudfold-cli/Cargo.toml).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;

/// CPU seconds of this thread (`/proc/thread-self/schedstat` nanoseconds).
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: mime_cpu FILE [N]");
        std::process::exit(2);
    };
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let (mut parse, mut walk) = (Vec::new(), Vec::new());
    let c0 = cpu();
    for _ in 0..n {
        let t0 = std::time::Instant::now();
        let msg = match cloudfold::mime::parse(black_box(&text)) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("parse failed: {e}");
                std::process::exit(1);
            }
        };
        let t1 = std::time::Instant::now();
        // What `mime_leaves` asks of every part.
        let mut bytes = 0usize;
        for part in msg.walk() {
            bytes += part.items().count();
            bytes += part.get_payload_decoded().map_or(0, |b| b.len());
            bytes += part.get_filename().ok().flatten().map_or(0, |f| f.len());
        }
        black_box(bytes);
        let t2 = std::time::Instant::now();
        drop(msg);
        parse.push((t1 - t0).as_secs_f64());
        walk.push((t2 - t1).as_secs_f64());
    }
    let total_cpu = (cpu() - c0) / n as f64;
    let mb = text.len() as f64 / 1e6;
    let (p, w) = (median(parse), median(walk));
    println!(
        "{} bytes, {n} runs: median wall parse {:.2} ms ({:.0} MB/s), walk+decode+filename {:.2} ms; mean CPU per run {:.2} ms",
        text.len(),
        p * 1e3,
        mb / p,
        w * 1e3,
        total_cpu * 1e3
    );
}
