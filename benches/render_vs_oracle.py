#!/usr/bin/env python3
"""Benchmark: `cloudfold render` against the cloud-init oracle, in one go.

Makes N-part payloads with ../shared/oracle/gen_payload.py, then times (median of R runs)
the whole `cloudfold render --format cloud-init` process and the oracle's whole process
(`ci_oracle.py --no-reload-check`), and reports throughput, the speed-up, growth with the
part count, and peak memory (max RSS of the child).

Usage: benches/render_vs_oracle.py [--parts 10,100,1000,5000] [--runs 3] [--no-oracle]
Build first: cargo build --release
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "oracle"))
BIN = os.path.join(ROOT, "target", "release", "cloudfold")


def measure(cmd, path, runs):
    times = []
    cpus = []
    rss = 0
    for _ in range(runs):
        # Timed from this process, which stays up between runs (as hyperfine does):
        # a wrapper interpreter started per run left the machine busy with its own
        # start-up and made the 1000-part render look 5-7 ms slower. `wait4` gives
        # the child's own CPU time (user+sys) and max RSS.
        with open(path, "rb") as fh:
            t = time.perf_counter()
            child = subprocess.Popen(cmd, stdin=fh, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("command failed: %s" % " ".join(cmd))
        times.append(wall)
        cpus.append(usage.ru_utime + usage.ru_stime)
        rss = max(rss, usage.ru_maxrss)
    return statistics.median(times), statistics.median(cpus), rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default="10,100,1000,5000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-oracle", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release")
    tmp = tempfile.mkdtemp(prefix="cloudfold-bench-")
    print("| parts | bytes | cloudfold wall (s) | cloudfold CPU (s) | MB/s (wall) | MB/s (CPU) "
          "| peak RSS (MB) | RSS limit (MB) | oracle wall (s) | oracle CPU (s) | speed-up (wall) "
          "| speed-up (CPU) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for n in [int(x) for x in a.parts.split(",")]:
        path = os.path.join(tmp, "p%d.txt" % n)
        subprocess.run([sys.executable, os.path.join(SHARED, "gen_payload.py"), str(n), "42", path], check=True)
        size = os.path.getsize(path)
        ours, cpu, rss = measure([BIN, "render", "--format", "cloud-init"], path, a.runs)
        if a.no_oracle:
            theirs = theirs_cpu = float("nan")
        else:
            theirs, theirs_cpu, _ = measure([sys.executable, os.path.join(SHARED, "ci_oracle.py"),
                                    "--no-reload-check", "-"], path, 1)
        rows.append((n, size, cpu))
        print("| %d | %d | %.4f | %.4f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.0fx | %.0fx |" % (
            n, size, ours, cpu, size / ours / 1e6, size / max(cpu, 1e-3) / 1e6, rss / 1024.0,
            (6 * size + 50e6) / 1e6, theirs, theirs_cpu, theirs / ours,
            theirs_cpu / max(cpu, 1e-3)))
        sys.stdout.flush()
    if len(rows) >= 2:
        (n0, _, t0), (n1, _, t1) = rows[-2], rows[-1]
        print("\ngrowth %d -> %d parts: CPU time x%.2f for parts x%.2f" % (n0, n1, t1 / t0, n1 / n0))


if __name__ == "__main__":
    main()
