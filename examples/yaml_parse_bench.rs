//! Throughput of the YAML front end (reader check + scanner + parser) on a
//! cloud-config-like document: `cargo run --release --example yaml_parse_bench`.

// Test code: an out-of-range index is a failed test.
#![allow(clippy::indexing_slicing)]

use cloudfold::yaml::{EventKind, Parser};
use std::time::Instant;

const UNIT: &str = r#"  - name: user{N}
    gecos: "User number {N}"
    groups: [adm, sudo, docker]
    shell: /bin/bash
    sudo: ['ALL=(ALL) NOPASSWD:ALL']
    lock_passwd: true
    ssh_authorized_keys:
      - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG{N}xQk3p0gJY8Zp2a9vXo3l0mYqz user{N}@example.com
write_files:{N}:
  - path: /etc/app/config{N}.yaml
    owner: root:root
    permissions: '0644'
    content: |
      # generated
      listen: 0.0.0.0:80{N}
      workers: 4
      log_level: info
runcmd_{N}:
  - [systemctl, enable, --now, nginx]
  - echo "done {N}" > /var/log/done # trailing comment
"#;

fn main() {
    let mut doc = String::from("#cloud-config\nusers:\n");
    let mut n = 0;
    let mib: usize = std::env::var("BENCH_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    while doc.len() < mib << 20 {
        // Keep one top-level mapping: the `users` list first, then more keys.
        doc.push_str(&UNIT.replace("{N}", &n.to_string()));
        doc.push_str("users_");
        doc.push_str(&n.to_string());
        doc.push_str(":\n");
        n += 1;
    }
    doc.push_str("  - last\n");
    let mut best = f64::MAX;
    let mut events = 0usize;
    for _ in 0..runs {
        let t = Instant::now();
        let mut p = Parser::new(&doc);
        events = 0;
        loop {
            match p.next_event() {
                Ok(ev) => {
                    events += 1;
                    if matches!(ev.kind, EventKind::StreamEnd) {
                        break;
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return;
                }
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mb = doc.len() as f64 / (1024.0 * 1024.0);
    // Calibration: a plain byte loop over the same text (machine speed reference).
    let t = Instant::now();
    let mut lines = 0usize;
    for _ in 0..5 {
        lines += std::hint::black_box(doc.as_bytes())
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
    }
    let scan = t.elapsed().as_secs_f64() / 5.0;
    println!(
        "calibration: newline count ({lines}) at {:.0} MiB/s",
        mb / scan
    );
    let t = Instant::now();
    for _ in 0..5 {
        cloudfold::yaml::check_printable(std::hint::black_box(&doc)).ok();
    }
    println!(
        "check_printable: {:.0} MiB/s",
        mb / (t.elapsed().as_secs_f64() / 5.0)
    );
    println!(
        "{:.1} MiB, {events} events, best of {runs}: {:.1} ms = {:.0} MiB/s",
        mb,
        best * 1000.0,
        mb / best
    );
}
