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
    rss = 0
    for _ in range(runs):
        # A wrapper process so each measurement gets its own max RSS.
        wrapper = [sys.executable, "-c",
                   "import resource,subprocess,sys;"
                   "r=subprocess.run(sys.argv[1:],stdin=sys.stdin,stdout=subprocess.DEVNULL);"
                   "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
                   "sys.exit(r.returncode)"] + cmd
        with open(path, "rb") as fh:
            t0 = time.perf_counter()
            out = subprocess.run(wrapper, stdin=fh, capture_output=True)
            times.append(time.perf_counter() - t0)
        if out.returncode != 0:
            sys.exit("command failed: %s" % " ".join(cmd))
        rss = max(rss, int(out.stdout.decode().strip().splitlines()[-1]))
    return statistics.median(times), rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", default="10,100,1000,5000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-oracle", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release")
    tmp = tempfile.mkdtemp(prefix="cloudfold-bench-")
    print("| parts | bytes | cloudfold (s) | MB/s | peak RSS (MB) | oracle wall (s) | speed-up |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for n in [int(x) for x in a.parts.split(",")]:
        path = os.path.join(tmp, "p%d.txt" % n)
        subprocess.run([sys.executable, os.path.join(SHARED, "gen_payload.py"), str(n), "42", path], check=True)
        size = os.path.getsize(path)
        ours, rss = measure([BIN, "render", "--format", "cloud-init"], path, a.runs)
        if a.no_oracle:
            theirs = float("nan")
        else:
            theirs, _ = measure([sys.executable, os.path.join(SHARED, "ci_oracle.py"), "--no-reload-check", "-"], path, 1)
        rows.append((n, size, ours))
        print("| %d | %d | %.4f | %.1f | %.1f | %.2f | %.0fx |" % (
            n, size, ours, size / ours / 1e6, rss / 1024.0, theirs, theirs / ours))
    if len(rows) >= 2:
        (n0, _, t0), (n1, _, t1) = rows[-2], rows[-1]
        print("\ngrowth %d -> %d parts: time x%.2f for parts x%.2f" % (n0, n1, t1 / t0, n1 / n0))


if __name__ == "__main__":
    main()
