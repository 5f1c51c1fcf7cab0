#!/usr/bin/env python3
"""Check: two cloudfold binaries write the same bytes (stdout, stderr, exit status).

    python3 benches/identical.py OLD NEW [--no-shapes] [--jobs 2] [--limit N]

A change made only for speed or memory must not change one byte of output.
This runs both binaries on the same commands and compares what they print:

* every file of `../shared/conformance`, `../shared/corpora/realworld`
  (read in place, never copied; `$CLOUDFOLD_SHARED` as the tests find it)
  and `fixtures/`, through `render` (yaml, cloud-init, json), `parts`,
  `validate`, `explain`, `build` and `merge` (hiera, cloud-config);
* every command of `benches/shapes.py` on every shape at n and 10 n
  (`--no-shapes` leaves them out: ~3 GB of output);
* six commands on the 5000-part payload (`gen_payload.py 5000 42`).

Prints each command whose results differ, then the count. Exit status 1 if
any differ (or time out), 0 otherwise. Each command has 120 s; the binary's
own path in its messages is masked, so two copies of one build agree.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

import shapes

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("CLOUDFOLD_SHARED", os.path.join(ROOT, "..", "shared"))
TIMEOUT = 120

FILE_COMMANDS = [
    lambda f: ["render", f],
    lambda f: ["render", "--format", "cloud-init", f],
    lambda f: ["render", "--format", "json", f],
    lambda f: ["parts", f],
    lambda f: ["validate", f],
    lambda f: ["explain", f],
    lambda f: ["build", f],
    lambda f: ["merge", "--dialect", "hiera", f, f],
    lambda f: ["merge", "--dialect", "cloud-config", f, f],
]

# The first five file commands, and explain with --max-nodes raised: past
# the default the large payload stops with exit 4.
PAYLOAD_COMMANDS = FILE_COMMANDS[:5] + [lambda p: ["explain", "--max-nodes", "100000000", p]]


def corpus_files():
    roots = [os.path.join(SHARED, "conformance"), os.path.join(SHARED, "corpora", "realworld"),
             os.path.join(ROOT, "fixtures")]
    missing = [r for r in roots if not os.path.isdir(r)]
    if missing:
        sys.exit(f"missing: {', '.join(missing)} (set CLOUDFOLD_SHARED)")
    files = []
    for root in roots:
        for d, _, names in os.walk(root):
            files.extend(os.path.join(d, n) for n in names)
    return sorted(files)


def argvs(tmp, with_shapes):
    for f in corpus_files():
        for command in FILE_COMMANDS:
            yield command(f)
    if with_shapes:
        for shape in shapes.SHAPES:
            for mult in (1, 10):
                made = shape.make(shape.base * mult,
                                  os.path.join(tmp, f"{shape.name.replace(' ', '_')}_{mult}"))
                for _, argv_of in shapes.COMMANDS:
                    argv = argv_of(made)
                    if argv:
                        yield argv
    payload = os.path.join(tmp, "p5000.txt")
    subprocess.run([sys.executable, os.path.join(SHARED, "oracle", "gen_payload.py"), "5000",
                    "42", payload], check=True)
    for command in PAYLOAD_COMMANDS:
        yield command(payload)


def result(binary, argv, cwd):
    try:
        p = subprocess.run([binary, *argv], capture_output=True, timeout=TIMEOUT, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None
    return p.returncode, p.stdout, p.stderr.replace(os.fsencode(binary), b"BIN")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--no-shapes", action="store_true", help="leave the bench shapes out")
    ap.add_argument("--jobs", type=int, default=2, help="commands run at once (default 2)")
    ap.add_argument("--limit", type=int, help="only the first N commands (a quick look)")
    a = ap.parse_args()
    binaries = [os.path.abspath(b) for b in (a.old, a.new)]
    for b in binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"not an executable: {b}")

    with tempfile.TemporaryDirectory(prefix="cloudfold-identical-") as tmp:
        jobs = list(argvs(tmp, not a.no_shapes))[:a.limit]

        def one(argv):
            old, new = (result(b, argv, tmp) for b in binaries)
            return argv, old is not None and old == new

        differ = 0
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            for argv, same in pool.map(one, jobs):
                if not same:
                    differ += 1
                    print("differ (or timed out):", " ".join(argv)[:300], flush=True)
    print(f"{len(jobs)} commands x 2 binaries: {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
