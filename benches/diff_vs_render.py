#!/usr/bin/env python3
"""`cloudfold diff` of two N-part payloads against one `cloudfold render` of one of them.

    python3 benches/diff_vs_render.py [--parts 1000] [--runs 31] [--bin target/release/cloudfold]

A is `../shared/oracle/gen_payload.py N 42` (N cloud-config parts with a Merge-Type, each
with 10 keys, a 5-item runcmd, a write_files entry). B is A as a reviewer would see it
changed: lines added to 1 % of the parts' runcmd, 0.5 % of the hostnames changed, two parts
removed, two new parts (from seed 43) inserted, two parts swapped, two merge headers
dropped (those parts now replace). Both are written to a temporary directory.

Each round runs, in alternating order, `render A` (the default readable YAML: what a person
reads), `render --format cloud-init A`, and `diff A B` (text), each as a whole process
with its output to /dev/null, timed from this script (wall) and by wait4 (CPU, user +
system). The target (issue 33): diff costs at most 2.5x one render, medians of the same
run. The report gives both ratios, wall and CPU, against each render format.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("CLOUDFOLD_SHARED", os.path.join(ROOT, "..", "shared"))
GEN = os.path.join(SHARED, "oracle", "gen_payload.py")
TARGET = 2.5


def gen(n: int, seed: int) -> bytes:
    return subprocess.run(
        [sys.executable, GEN, str(n), str(seed), "-"], check=True, capture_output=True
    ).stdout


def split(payload: bytes):
    """(head, parts, tail) of a gen_payload.py multipart document."""
    text = payload.decode()
    boundary = re.search(r'boundary="([^"]+)"', text).group(1)
    pieces = text.split("--" + boundary)
    return pieces[0], pieces[1:-1], pieces[-1], boundary


def mutate(a: bytes, n: int) -> bytes:
    head, parts, tail, boundary = split(a)
    _, extra, _, _ = split(gen(4, 43))
    parts = list(parts)
    step = max(1, n // 10)
    for i in range(0, len(parts), step):  # 1 % of parts: a runcmd line added
        parts[i] = parts[i].replace("runcmd:\n", 'runcmd:\n  - "echo review-%d"\n' % i, 1)
    for i in range(3, len(parts), max(1, n // 5)):  # 0.5 %: hostname changed
        parts[i] = re.sub(r"hostname: \S+", "hostname: renamed-%d" % i, parts[i], count=1)
    for i in (len(parts) // 3, 2 * len(parts) // 3):  # two merge headers dropped
        parts[i] = re.sub(r"Merge-Type: [^\n]*\n", "", parts[i], count=1)
    del parts[len(parts) // 2]
    del parts[len(parts) // 4]
    parts.insert(len(parts) // 5, extra[0])
    parts.insert(4 * len(parts) // 5, extra[1])
    j, k = len(parts) // 6, len(parts) // 6 + 7
    parts[j], parts[k] = parts[k], parts[j]
    sep = "--" + boundary
    return (head + "".join(sep + p for p in parts) + sep + tail).encode()


def run(binary: str, argv, devnull: int):
    redirect = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(binary, [binary] + argv, os.environ, file_actions=redirect)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter() - start) * 1e3
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{argv} exited {code}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=31)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "cloudfold"))
    opts = ap.parse_args()
    if not os.path.exists(GEN):
        sys.exit(f"{GEN} is missing (../shared or CLOUDFOLD_SHARED)")
    with tempfile.TemporaryDirectory() as tmp:
        a_path, b_path = os.path.join(tmp, "a.txt"), os.path.join(tmp, "b.txt")
        a = gen(opts.parts, 42)
        with open(a_path, "wb") as f:
            f.write(a)
        with open(b_path, "wb") as f:
            f.write(mutate(a, opts.parts))
        # What the diff finds (once, to show the work is real).
        shown = subprocess.run([opts.bin, "diff", a_path, b_path], capture_output=True, text=True)
        changes = sum(1 for l in shown.stdout.splitlines() if re.match(r"  [-+~] \$", l))
        parts = sum(1 for l in shown.stdout.splitlines() if re.match(r"  [-+~] part ", l))
        print(
            f"A {len(a)} bytes, B {os.path.getsize(b_path)} bytes, {opts.parts} parts; "
            f"diff exit {shown.returncode}: {changes} config changes, {parts} part changes"
        )
        cmds = {
            "render": ["render", a_path],
            "render --format cloud-init": ["render", "--format", "cloud-init", a_path],
            "diff": ["diff", a_path, b_path],
        }
        times = {k: [] for k in cmds}
        devnull = os.open(os.devnull, os.O_WRONLY)
        order = list(cmds)
        for i in range(opts.runs):
            for k in order if i % 2 == 0 else order[::-1]:
                times[k].append(run(opts.bin, cmds[k], devnull))
        med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
        for k, (w, c) in med.items():
            print(f"{k:28} wall median {w:7.2f} ms   CPU median {c:7.2f} ms")
        dw, dc = med["diff"]
        ok = True
        for ref in ("render", "render --format cloud-init"):
            rw, rc = med[ref]
            verdict = "ok" if dw / rw <= TARGET and dc / rc <= TARGET else "OVER"
            ok &= verdict == "ok"
            print(f"diff / {ref:26} wall x{dw / rw:.2f}   CPU x{dc / rc:.2f}   (target <= x{TARGET}: {verdict})")
        sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
