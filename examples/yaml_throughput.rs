//! Quick throughput check of `yaml::load` (parse + construct) on a ~5 MB
//! cloud-config-like document: `cargo run --release --example yaml_throughput`.

// Test code: an out-of-range index is a failed test.
#![allow(clippy::indexing_slicing)]

use cloudfold::yaml::{LoadOptions, load};
use std::fmt::Write;

/// CPU time of this thread in seconds (Linux `schedstat`), so that a busy
/// machine does not distort the figure; wall time elsewhere.
struct Instant(f64);

impl Instant {
    fn now() -> Instant {
        let ns = std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok());
        Instant(ns.map_or_else(wall, |n| n / 1e9))
    }

    fn elapsed(&self) -> std::time::Duration {
        std::time::Duration::from_secs_f64((Instant::now().0 - self.0).max(1e-9))
    }
}

fn wall() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// A deterministic cloud-config-shaped document of about `target` bytes.
fn document(target: usize) -> String {
    let words = [
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    ];
    let mut s = String::from("#cloud-config\n");
    let mut i = 0usize;
    while s.len() < target {
        let w = |k: usize| words[(i * 7 + k * 3) % words.len()];
        let _ = write!(
            s,
            "host_{i}:\n  hostname: {a}-{i}\n  manage_etc_hosts: true\n  package_update: yes\n  \
             timezone: \"Etc/UTC\"\n  port: {port}\n  mode: 0644\n  ratio: 0.{i}5\n  \
             packages: [curl, git, '{b}', nginx]\n  users:\n    - name: {a}\n      \
             groups: [adm, sudo]\n      shell: /bin/bash\n      sudo: \"ALL=(ALL) NOPASSWD:ALL\"\n      \
             ssh_authorized_keys:\n        - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{i:08} {a}@{b}\n  \
             write_files:\n    - path: /etc/{b}/{i}.conf\n      permissions: '0600'\n      \
             content: |\n        # generated\n        key = {a}\n        value = {i}\n  \
             runcmd:\n    - [sh, -c, \"echo {a} {b}\"]\n    - systemctl restart {b}\n    \
             - 'touch /var/lib/{a}'\n",
            a = w(1),
            b = w(2),
            port = 1000 + i % 5000,
        );
        i += 1;
    }
    s
}

fn unreachable_end() -> cloudfold::yaml::YamlError {
    cloudfold::yaml::YamlError {
        class: cloudfold::yaml::PyErrorClass::Parser,
        context: None,
        problem: "no more events".into(),
        mark: None,
    }
}

fn main() {
    let doc = document(5 << 20);
    let opts = LoadOptions::default();
    let only_construct = std::env::args().any(|a| a == "construct");
    let mut best = f64::INFINITY;
    for _ in 0..if only_construct { 0 } else { 7 } {
        let t = Instant::now();
        let v = load(&doc, &opts);
        let dt = t.elapsed().as_secs_f64();
        assert!(matches!(v, Ok(Some(_))));
        drop(v);
        best = best.min(dt);
    }
    let mut parse_best = f64::INFINITY;
    for _ in 0..if only_construct { 0 } else { 5 } {
        let t = Instant::now();
        let mut p = cloudfold::yaml::Parser::new(&doc);
        let mut n = 0usize;
        while let Ok(e) = p.next_event() {
            n += 1;
            if matches!(e.kind, cloudfold::yaml::EventKind::StreamEnd) {
                break;
            }
        }
        assert!(n > 2);
        parse_best = parse_best.min(t.elapsed().as_secs_f64());
    }
    let mut events = Vec::new();
    let mut p = cloudfold::yaml::Parser::new(&doc);
    while let Ok(e) = p.next_event() {
        let end = matches!(e.kind, cloudfold::yaml::EventKind::StreamEnd);
        events.push(e);
        if end {
            break;
        }
    }
    let mut construct_best = f64::INFINITY;
    for _ in 0..if only_construct { 30 } else { 5 } {
        let evs = events.clone();
        let mut it = evs.into_iter();
        let t = Instant::now();
        let v = cloudfold::yaml::load_events(|| it.next().ok_or_else(unreachable_end), &opts);
        construct_best = construct_best.min(t.elapsed().as_secs_f64());
        assert!(matches!(v, Ok(Some(_))));
    }
    let mb = doc.len() as f64 / 1e6;
    println!(
        "parser alone: {:.0} MB/s; compose + construct alone: {:.0} MB/s ({} events)",
        mb / parse_best,
        mb / construct_best,
        events.len()
    );
    if only_construct {
        return;
    }
    println!(
        "{:.2} MB in {:.1} ms: {:.0} MB/s (best of 7, thread CPU time)",
        mb,
        best * 1e3,
        mb / best
    );
}
