#!/usr/bin/env python3
"""Benchmark: every cloudfold command on a small and a large payload, and how its time grows.

    python3 benches/commands.py [--parts 1000,5000] [--runs 5]

Times the whole process (wall, and CPU from wait4) of each command on
payloads made by the oracle's `gen_payload.py` (cloud-config parts, every
one with a Merge-Type header) and reports the median of --runs runs, with
the growth from the first size to the last against the growth in parts.
`build` rebuilds the payload from its extracted parts; `merge` folds the
parts' YAML with the Compose and Hiera rules (the keyed and Nickel dialects
reject these parts: their hostnames conflict), and every dialect folds as
many small fragments that each add their own keys to one shared mapping. A command whose time grows
much faster than its input is flagged: that is how validate's quadratic
marks (14 s for 5000 parts) and explain's run search were found. Not a
test: the numbers depend on the machine.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "cloudfold")
GEN = os.path.join(ROOT, "..", "shared", "oracle", "gen_payload.py")

# Growth over the parts' growth above which a command is flagged.
SUPERLINEAR = 1.5


def measure(argv, runs):
    """Median wall and CPU seconds of `argv` (stdout and stderr discarded)."""
    walls, cpus = [], []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) not in (0, 3):
            sys.exit(f"failed ({status}): {' '.join(argv)}")
    return statistics.median(walls), statistics.median(cpus)


def write_fragments(n, directory):
    """`n` YAML fragments, each adding its own keys to one shared mapping."""
    os.makedirs(directory)
    files = []
    for i in range(n):
        path = os.path.join(directory, f"{i:05}.yaml")
        with open(path, "w") as f:
            f.write(f"settings:\n  key{i}: value{i}\n  nested:\n    n{i}: {i}\ntop{i}: true\n")
        files.append(path)
    return files


def commands(payload, part_files, fragments):
    """(name, argv) of each command on one payload (its parts' files, and fragments)."""
    merge = [BIN, "merge", "--dialect"]
    return [
        ("render --format cloud-init", [BIN, "render", "--format", "cloud-init", payload]),
        ("render", [BIN, "render", payload]),
        ("render --format json", [BIN, "render", "--format", "json", payload]),
        ("parts", [BIN, "parts", payload]),
        ("parts --format json", [BIN, "parts", "--format", "json", payload]),
        ("validate", [BIN, "validate", payload]),
        ("validate --format github", [BIN, "validate", "--format", "github", payload]),
        ("validate --format sarif", [BIN, "validate", "--format", "sarif", payload]),
        ("explain", [BIN, "explain", payload]),
        ("explain --format json", [BIN, "explain", "--format", "json", payload]),
        ("build", [BIN, "build", *part_files]),
        ("merge --dialect compose (parts)", [*merge, "compose", *part_files]),
        ("merge --dialect hiera (parts)", [*merge, "hiera", *part_files]),
        *((f"merge --dialect {d} (fragments)", [*merge, d, *fragments])
          for d in ("compose", "hiera", "nickel", "cloud-config")),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="1000,5000")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit(f"build it first: cargo build --release ({BIN})")
    if not os.path.exists(GEN):
        sys.exit(f"needs the oracle's payload generator: {GEN}")
    sizes = [int(n) for n in a.parts.split(",")]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            payload = os.path.join(tmp, f"p{n}.txt")
            subprocess.run([sys.executable, GEN, str(n), "42", payload], check=True,
                           stdout=subprocess.DEVNULL)
            parts_dir = os.path.join(tmp, f"parts{n}")
            subprocess.run([BIN, "parts", payload, "--extract", parts_dir], check=True,
                           stdout=subprocess.DEVNULL)
            part_files = sorted(os.path.join(parts_dir, f) for f in os.listdir(parts_dir))
            fragments = write_fragments(n, os.path.join(tmp, f"fragments{n}"))
            for name, argv in commands(payload, part_files, fragments):
                results[(name, n)] = measure(argv, a.runs)
    names = [name for name, _ in commands("", [], [])]
    print("| command | " + " | ".join(f"{n} parts wall (CPU)" for n in sizes)
          + " | growth (wall) |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    flagged = []
    for name in names:
        cells = [f"{results[(name, n)][0] * 1e3:.1f} ms ({results[(name, n)][1] * 1e3:.1f})"
                 for n in sizes]
        growth = results[(name, sizes[-1])][0] / max(results[(name, sizes[0])][0], 1e-9)
        parts_growth = sizes[-1] / sizes[0]
        mark = ""
        if growth > SUPERLINEAR * parts_growth:
            mark = " **superlinear**"
            flagged.append(name)
        print(f"| {name} | " + " | ".join(cells) + f" | x{growth:.2f}{mark} |")
    print(f"\nparts x{sizes[-1] / sizes[0]:.2f}; flagged above x{SUPERLINEAR} that: "
          + (", ".join(flagged) if flagged else "none"))


if __name__ == "__main__":
    main()
