#!/usr/bin/env python3
"""Benchmark: every command on every input shape, at one size and ten times it.

    python3 benches/shapes.py [--runs 11] [--shapes a,b] [--commands x,y] [--scale 1.0]
                              [--detail] [--realtime]

Each shape is a family of inputs that grows along one axis (one header line
longer, more headers, a longer YAML line, a longer scalar, more parts, a
longer list, more deep nestings, a longer merge spec). For each shape and
command the script runs the command on the shape at size n and at 10 n,
alternating the two run by run (the machine's speed drifts by tens of
percent within a minute; one pair of interleaved medians compares the
inputs, not two minutes), and reports

    ratio = median time at 10 n / median time at n

(the target: at most 11, i.e. linear growth plus 10 %), the exponent of the
fit t ~ size^k through the two points (k = log10(ratio)), and the peak RSS of
the larger run against the memory bound of `render` (6 x payload + 50 MB).
`diff` compares the input with a copy that has one key more in its first
cloud-config. `build` gets the shape as part files (and a manifest for header shapes);
`merge` gets it as YAML fragments, in each dialect, where the shape is YAML.
Whole processes, wall time (CPU time from wait4 alongside, and split into user
and system). Not a test: the numbers belong to the machine and the minute; only
the ratios compare.

The user-CPU ratio is the program's own work. System CPU at 10 n is mostly the
kernel providing fresh pages, and on this VM (virtio-balloon free-page
reporting) that cost depends on what ran in the seconds before: the same 10 n
run spends 0.02 s or 0.9 s there (benches/README.md, 2026-11-28 (evening)).
Eleven runs by default: with five, two runs stalled on such a fault move a
cell's median past 11 (benches/README.md, 2026-11-29 (11:13)).

`--realtime` runs every timed command under SCHED_FIFO (as `chrt -f 1`; needs
root or CAP_SYS_NICE): the other sessions' work then waits, so the wall is that
of two free cores. On this shared machine autogroup scheduling gives each
session an equal share whatever its nice, so without it a ratio also measures
how the load changed between the n and the 10 n runs (benches/README.md,
2026-11-28).
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("CLOUDFOLD_BIN", os.path.join(ROOT, "target", "release", "cloudfold"))
TARGET = 11.0


# ---------------------------------------------------------------- inputs

def multipart(parts, top_headers=""):
    """A multipart/mixed payload of (headers, body) parts."""
    out = ["Content-Type: multipart/mixed; boundary=\"BOUND\"\nMIME-Version: 1.0\n",
           top_headers, "\n"]
    for headers, body in parts:
        out.append("--BOUND\n")
        out.append(headers)
        out.append("\n")
        out.append(body)
        if not body.endswith("\n"):
            out.append("\n")
    out.append("--BOUND--\n")
    return "".join(out)


CC = "Content-Type: text/cloud-config\n"
SPEC = "list(append)+dict(no_replace,recurse_list)+str()"


def small_part(i):
    return (f"#cloud-config\nhostname: host-{i}\nruncmd:\n  - echo {i}\n"
            f"packages: [p{i}, q{i}]\nwrite_files:\n  - path: /etc/x{i}\n    content: |\n"
            f"      a={i}\n")


class Shape:
    """One input family: `make(n, dir)` writes the inputs for size n."""

    def __init__(self, name, base, doc, payload, parts=None, manifest=None, fragments=None):
        self.name, self.base, self.doc = name, base, doc
        self._payload, self._parts, self._manifest = payload, parts, manifest
        self._fragments = fragments

    def make(self, n, d):
        """{'payload': path, 'parts': [paths] or None, 'manifest': path or None,
        'fragments': [paths] or None, 'bytes': payload size}."""
        os.makedirs(d, exist_ok=True)
        p = os.path.join(d, "payload.txt")
        text = self._payload(n)
        with open(p, "w") as f:
            f.write(text)
        # `diff`'s other side: the same input with one key added to its first
        # cloud-config (one change to find, the rest to compare).
        old = os.path.join(d, "old.txt")
        with open(old, "w") as f:
            f.write(text.replace("#cloud-config\n", "#cloud-config\ndiff_marker: 1\n", 1))
        out = {"payload": p, "old": old, "parts": None, "manifest": None, "fragments": None,
               "bytes": len(text.encode())}
        if self._parts:
            out["parts"] = write_all(d, "part", self._parts(n), ".yaml")
        if self._manifest:
            m = os.path.join(d, "manifest.yaml")
            with open(m, "w") as f:
                f.write(self._manifest(n, d))
            out["manifest"] = m
        if self._fragments:
            out["fragments"] = write_all(d, "frag", self._fragments(n), ".yaml")
        return out


def write_all(d, stem, texts, ext):
    paths = []
    sub = os.path.join(d, stem)
    os.makedirs(sub, exist_ok=True)
    for i, t in enumerate(texts):
        path = os.path.join(sub, f"{stem}{i:06}{ext}")
        with open(path, "w") as f:
            f.write(t)
        paths.append(path)
    return paths


def three_parts():
    return [(CC + f"Merge-Type: {SPEC}\n", small_part(i)) for i in range(3)]


def yaml_str(s):
    """A double-quoted YAML string (the texts here need no escapes but quotes)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# one long header line: the top-level header block has `X-Filler: aaaa...` of n bytes
def long_header(n):
    return multipart(three_parts(), top_headers="X-Filler: " + "a" * n + "\n")


def long_header_manifest(n, d):
    return ("parts:\n" + "".join(
        f"  - content: {yaml_str(small_part(i))}\n    type: cloud-config\n"
        f"    headers: {{X-Filler: {'a' * n if i == 0 else 'b'}}}\n" for i in range(3)))


# many headers: one part with n headers
def many_headers(n):
    hs = "".join(f"X-Header-{i}: value-{i}\n" for i in range(n))
    return multipart([(CC + hs, small_part(0))] + three_parts())


def many_headers_manifest(n, d):
    hs = ", ".join(f"X-Header-{i}: value-{i}" for i in range(n))
    return (f"parts:\n  - content: {yaml_str(small_part(0))}\n    type: cloud-config\n"
            f"    headers: {{{hs}}}\n")


# one long YAML line: a flow sequence of n bytes on one line
def long_line_doc(n, key="packages"):
    items, size, i = [], 0, 0
    while size < n:
        s = f"pkg-{i}"
        items.append(s)
        size += len(s) + 2
        i += 1
    return f"#cloud-config\n{key}: [" + ", ".join(items) + "]\n"


# one long scalar: a plain scalar of n bytes
def long_scalar_doc(n, key="text"):
    return f"#cloud-config\n{key}: " + "x" * n + "\n"


# one huge list: a block sequence of n bytes
def huge_list_doc(n, key="packages"):
    out, size, i = [f"#cloud-config\n{key}:\n"], 0, 0
    while size < n:
        s = f"  - package-name-{i}\n"
        out.append(s)
        size += len(s)
        i += 1
    return "".join(out)


# one huge list of keyed maps: block sequences of n bytes in all, half of them
# `write_files` items (identity: `path`), half `fs_setup` items (identity:
# `device` + `partition`, a tuple), as the keyed dialect merges by identity
def keyed_list_doc(n):
    files, disks, size, i = ["write_files:\n"], ["fs_setup:\n"], 0, 0
    while size < n:
        f = f"  - {{path: /etc/app/file-{i}.conf, content: c{i}}}\n"
        d = f"  - {{device: /dev/disk-{i}, partition: {i % 4}, label: l{i}}}\n"
        files.append(f)
        disks.append(d)
        size += len(f) + len(d)
        i += 1
    return "#cloud-config\n" + "".join(files) + "".join(disks)


# deep-but-legal nesting: n/DEPTH chains of mappings DEPTH deep (cloud-init
# loads, merges and dumps them: within PyYAML's and the representer's
# recursion limits), one sibling scalar per level
DEPTH = 200


def deep_doc(n, tag="c"):
    out = ["#cloud-config\n"]
    chains = max(1, n // (DEPTH * (DEPTH + 13)))
    for c in range(chains):
        out.append(f"{tag}{c}:\n")
        for d in range(1, DEPTH + 1):
            ind = " " * d
            out.append(f"{ind}v{d}: {d}\n{ind}n:\n")
        out.append(" " * (DEPTH + 1) + "leaf: end\n")
    return "".join(out)


# a long merge spec: merge_how (payload) and Merge-Type (header) of n bytes,
# mergers with options, repeated
def long_spec(n):
    unit = "list(append,recurse_dict)+dict(no_replace,recurse_list)+str(append)+"
    return (unit * max(1, n // len(unit)))[:-1]


def long_spec_payload(n):
    spec = long_spec(n // 2)
    return multipart([
        (CC + f"Merge-Type: {spec}\n", small_part(0)),
        (CC, small_part(1) + f"merge_how: {yaml_str(spec)}\n"),
    ])


def long_spec_parts(n):
    spec = long_spec(n // 2)
    return [small_part(0), small_part(1) + f"merge_how: {yaml_str(spec)}\n"]


def long_spec_manifest(n, d):
    spec = long_spec(n // 2)
    return (f"parts:\n  - content: {yaml_str(small_part(0))}\n    type: cloud-config\n"
            f"    merge_type: {yaml_str(spec)}\n")


# many small parts
def many_parts(n):
    return multipart([(CC + f"Merge-Type: {SPEC}\n", small_part(i)) for i in range(n)])


def fragment(i):
    return f"settings:\n  key{i}: value{i}\n  nested:\n    n{i}: {i}\ntop{i}: true\n"


def one_doc(doc):
    """The same document as the payload, as one part file and two fragments that
    merge it with itself (the second adds its own keys beside the first's)."""
    return {
        "payload": lambda n: doc(n),
        "parts": lambda n: [doc(n)],
        "fragments": lambda n: [doc(n).replace("#cloud-config\n", "", 1),
                                doc(n).replace("#cloud-config\n", "", 1)],
    }


SHAPES = [
    Shape("long header line", 1 << 20, "`X-Filler: aaaa...` of n bytes in the top-level headers",
          long_header, manifest=long_header_manifest),
    Shape("many headers", 20_000, "one part with n headers", many_headers,
          manifest=many_headers_manifest),
    Shape("long YAML line", 1 << 20, "a flow sequence of n bytes on one line",
          **one_doc(long_line_doc)),
    Shape("long scalar", 1 << 20, "a plain scalar of n bytes", **one_doc(long_scalar_doc)),
    Shape("many small parts", 1000, "n cloud-config parts, each with a Merge-Type header",
          many_parts, parts=lambda n: [small_part(i) for i in range(n)],
          fragments=lambda n: [fragment(i) for i in range(n)]),
    Shape("huge list", 2_000_000, "a block sequence of n bytes", **one_doc(huge_list_doc)),
    Shape("huge keyed list", 2_000_000, "write_files and fs_setup items of n bytes in all",
          **one_doc(keyed_list_doc)),
    Shape("deep nesting", 1 << 20, f"n bytes of mappings nested {DEPTH} deep",
          **one_doc(deep_doc)),
    Shape("long merge spec", 200_000, "merge_how and Merge-Type of n/2 bytes each",
          long_spec_payload, parts=long_spec_parts, manifest=long_spec_manifest),
]


def payload_commands():
    return [
        ("render", lambda i: ["render", i["payload"]]),
        ("render ci", lambda i: ["render", "--format", "cloud-init", i["payload"]]),
        ("render json", lambda i: ["render", "--format", "json", i["payload"]]),
        ("parts", lambda i: ["parts", i["payload"]]),
        ("parts json", lambda i: ["parts", "--format", "json", i["payload"]]),
        ("validate", lambda i: ["validate", i["payload"]]),
        ("validate json", lambda i: ["validate", "--format", "json", i["payload"]]),
        # Past the default --max-nodes (200,000) explain stops with exit 4: the
        # limit is raised so that both sizes do the whole work.
        ("explain", lambda i: ["explain", "--max-nodes", "100000000", i["payload"]]),
        ("explain json", lambda i: ["explain", "--format", "json", "--max-nodes", "100000000",
                                    i["payload"]]),
        # Past the default --max-alias-expansion (4,000,000 nodes) diff stops with
        # exit 2 (the huge keyed list at 10 n): raised, as explain's limit is.
        ("diff", lambda i: ["diff", "--max-alias-expansion", "100000000", i["old"],
                            i["payload"]]),
        ("diff json", lambda i: ["diff", "--format", "json", "--max-alias-expansion",
                                 "100000000", i["old"], i["payload"]]),
    ]


def build_argv(i):
    argv = ["build"]
    if i["manifest"]:
        argv += ["--manifest", i["manifest"]]
    return argv + (i["parts"] or [])


COMMANDS = payload_commands() + [
    ("build", lambda i: build_argv(i) if (i["parts"] or i["manifest"]) else None),
    *((f"merge {d}", (lambda d: lambda i: ["merge", "--dialect", d, *i["fragments"]]
                      if i["fragments"] else None)(d))
      for d in ("compose", "hiera", "nickel", "cloud-config")),
]


# ---------------------------------------------------------------- timing

TIME = "/usr/bin/time"


def run_once(argv, realtime=False):
    """Wall, user CPU and system CPU seconds and peak RSS (bytes) of one run, and its
    exit code.

    The peak comes from GNU time's `%M` when it is there: a child's `ru_maxrss`
    from `wait4` here would be this interpreter's own size (a forked process
    keeps the parent's high-water mark through exec)."""
    if realtime:
        argv = ["chrt", "-f", "1"] + argv
    with tempfile.NamedTemporaryFile("r") as out:
        timed = os.path.exists(TIME)
        wrapped = [TIME, "-q", "-o", out.name, "-f", "%M %x"] + argv if timed else argv
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        rss = usage.ru_maxrss * 1024
        if timed:
            last = (out.read().strip().splitlines() or ["0 0"])[-1].split()
            rss, code = int(last[0]) * 1024, int(last[-1])
    return wall, usage.ru_utime, usage.ru_stime, rss, code


def measure_pair(small, large, runs, realtime=False):
    """Interleaved runs of two argvs: medians (wall, CPU, user CPU, system CPU), max
    RSS, exit codes."""
    res = {0: ([], [], [], [], 0, set()), 1: ([], [], [], [], 0, set())}
    for _ in range(runs):
        for k, argv in ((0, small), (1, large)):
            wall, user, system, rss, code = run_once(argv, realtime)
            walls, cpus, users, systems, peak, codes = res[k]
            walls.append(wall)
            cpus.append(user + system)
            users.append(user)
            systems.append(system)
            codes.add(code)
            res[k] = (walls, cpus, users, systems, max(peak, rss), codes)
    return [(statistics.median(w), statistics.median(c), statistics.median(u),
             statistics.median(s), p, codes)
            for w, c, u, s, p, codes in (res[0], res[1])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--shapes", help="comma-separated shape names (default: all)")
    ap.add_argument("--commands", help="comma-separated command names (default: all)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every base size")
    ap.add_argument("--detail", action="store_true", help="print every cell's times too")
    ap.add_argument("--realtime", action="store_true",
                    help="run every timed command under chrt -f 1 (SCHED_FIFO)")
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit(f"build it first: cargo build --release ({BIN})")
    if a.realtime and subprocess.run(["chrt", "-f", "1", "true"],
                                     capture_output=True).returncode != 0:
        sys.exit("--realtime: chrt -f 1 failed (needs root or CAP_SYS_NICE)")
    shapes = [s for s in SHAPES if not a.shapes or s.name in a.shapes.split(",")]
    commands = [c for c in COMMANDS if not a.commands or c[0] in a.commands.split(",")]
    table, cpu_table, detail, worst = {}, {}, [], (0.0, "")
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="cloudfold-shapes-") as tmp:
        for si, shape in enumerate(shapes):
            n = max(1, int(shape.base * a.scale))
            small = shape.make(n, os.path.join(tmp, f"s{si}-small"))
            large = shape.make(10 * n, os.path.join(tmp, f"s{si}-large"))
            for name, argv_of in commands:
                sa, la = argv_of(small), argv_of(large)
                if sa is None or la is None:
                    continue
                (ts, cs, us, _, _, codes_s), (tl, cl, ul, sl, rss, codes_l) = measure_pair(
                    [BIN, *sa], [BIN, *la], a.runs, a.realtime)
                ratio = tl / max(ts, 1e-9)
                table[(shape.name, name)] = ratio
                cpu_table[(shape.name, name)] = cl / max(cs, 1e-9)
                if ratio > worst[0]:
                    worst = (ratio, f"{name} on {shape.name}")
                bound = 6 * large["bytes"] + 50e6
                detail.append((shape.name, name, small["bytes"], large["bytes"], ts, tl, cs, cl,
                               ratio, rss, bound, sorted(codes_s | codes_l), us, ul, sl))
                print(f"{shape.name:<18} {name:<13} {ts * 1e3:8.1f} ms -> {tl * 1e3:8.1f} ms "
                      f"x{ratio:5.2f} (CPU x{cl / max(cs, 1e-9):5.2f}, user x{ul / max(us, 1e-9):5.2f}, "
                      f"system {sl * 1e3:5.0f} ms)  peak {rss / 1e6:6.1f} MB "
                      f"exit {sorted(codes_s | codes_l)}", file=sys.stderr, flush=True)
    names = [c[0] for c in commands]
    print(f"Time at 10 n / time at n: wall (CPU), medians of {a.runs} interleaved runs each; "
          f"target <= {TARGET:g} on the wall clock; '-' where the command takes no such "
          f"input" + ("; every run under chrt -f 1" if a.realtime else "")
          + ":\n")
    print("| shape (n) | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for shape in shapes:
        cells = []
        for name in names:
            r = table.get((shape.name, name))
            c = cpu_table.get((shape.name, name), 0.0)
            cell = f"{r:.1f} ({c:.1f})" if r is not None else "-"
            cells.append(f"**{cell}**" if r is not None and r > TARGET else cell)
        n = max(1, int(shape.base * a.scale))
        print(f"| {shape.name} ({n:,}) | " + " | ".join(cells) + " |")
    over = [k for k, r in table.items() if r > TARGET]
    print(f"\nworst ratio x{worst[0]:.2f} ({worst[1]}); over {TARGET:g}: "
          + (", ".join(f"{c} on {s}" for s, c in over) if over else "none")
          + f"; {len(table)} cells in {time.time() - t0:.0f} s")
    over_mem = [(s, c, rss, b) for s, c, _, _, _, _, _, _, _, rss, b, *_ in detail
                if c.startswith("render") and rss > b]
    print("render peak RSS over 6 x payload + 50 MB at 10 n: "
          + (", ".join(f"{c} on {s} {rss / 1e6:.0f} MB > {b / 1e6:.0f}"
                       for s, c, rss, b in over_mem) if over_mem else "none"))
    if a.detail:
        print("\n| shape | command | bytes n | bytes 10 n | wall n | wall 10 n | CPU n | CPU 10 n "
              "| ratio | k | user ratio | system CPU 10 n | peak RSS 10 n | exit |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for (s, c, bs, bl, ts, tl, cs, cl, r, rss, _, codes, us, ul, sl) in detail:
            k = math.log10(max(r, 1e-9))
            print(f"| {s} | {c} | {bs:,} | {bl:,} | {ts * 1e3:.1f} ms | {tl * 1e3:.1f} ms | "
                  f"{cs * 1e3:.1f} ms | {cl * 1e3:.1f} ms | {r:.2f} | {k:.2f} | "
                  f"{ul / max(us, 1e-9):.2f} | {sl * 1e3:.1f} ms | {rss / 1e6:.1f} MB | {codes} |")


if __name__ == "__main__":
    main()
