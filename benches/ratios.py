#!/usr/bin/env python3
"""Benchmark: the performance targets as ratios to references timed in the same run.

    python3 benches/ratios.py [--runs 21] [--oracle-runs 3] [--no-oracle] [--realtime]

References, each timed as a whole process, alternating run by run with the
commands they are compared with (medians of the runs; the machine is shared
and its speed drifts within a minute, so only ratios taken together count):

* libyaml: `benches/libyaml_parse.c` (built here with gcc against Debian's
  libyaml-dev) parses the YAML of the payload to its last event: the 5000
  cloud-config parts' bodies, extracted with `cloudfold parts --extract` and
  joined into one stream of 5000 documents (one file, so that the C side
  pays no per-file cost the payload does not have).
* the oracle: `../shared/oracle/ci_oracle.py --no-reload-check` (the real
  cloud-init, whole process) on the 1000-part payload.

Payloads: `../shared/oracle/gen_payload.py N 42` (5000 and 1000 parts), and a
single `#cloud-config` part holding one 20 MB list (the memory target).
Peak RSS comes from GNU time (`%M`): `wait4` here would report this
interpreter's own size, inherited through fork.

`--realtime` also times the 5000-part table with every command (libyaml
too) run under `chrt -f 1` (SCHED_FIFO; needs root or CAP_SYS_NICE): the
other agents' work on the shared machine then waits, so the wall times are
those of a machine whose two cores are free. Under the normal scheduler a
busy machine often runs `render`'s two threads on one core (its helper
thread is woken onto the core of the thread that wakes it), and the wall
time then measures the machine's load rather than the program.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.environ.get("CLOUDFOLD_BIN", os.path.join(ROOT, "target", "release", "cloudfold"))
# `../shared` next to the repository, or $CLOUDFOLD_SHARED (as the tests find it).
ORACLE = os.path.join(os.environ.get("CLOUDFOLD_SHARED", os.path.join(ROOT, "..", "shared")),
                      "oracle")
TIME = "/usr/bin/time"


def run(argv, stdin=None, realtime=False):
    """Wall seconds, CPU seconds, peak RSS in bytes (None without GNU time)."""
    if realtime:
        argv = ["chrt", "-f", "1"] + argv
    with tempfile.NamedTemporaryFile("r") as out:
        wrapped = [TIME, "-q", "-o", out.name, "-f", "%M"] + argv if os.path.exists(TIME) else argv
        fh = open(stdin, "rb") if stdin else subprocess.DEVNULL
        start = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdin=fh, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if stdin:
            fh.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"failed: {' '.join(argv)}")
        rss = None
        if wrapped is not argv:
            text = out.read().strip().splitlines()
            rss = int(text[-1]) * 1024 if text else None
    return wall, usage.ru_utime + usage.ru_stime, rss


def interleaved(named, runs, realtime=False):
    """{name: (median wall, median CPU, max RSS)} of argvs run in turn, `runs` rounds."""
    res = {n: ([], [], 0) for n, _ in named}
    for _ in range(runs):
        for name, argv in named:
            w, c, r = run(argv, realtime=realtime)
            walls, cpus, peak = res[name]
            walls.append(w)
            cpus.append(c)
            res[name] = (walls, cpus, max(peak, r or 0))
    return {n: (statistics.median(w), statistics.median(c), p) for n, (w, c, p) in res.items()}


def gen(n, path):
    subprocess.run([sys.executable, os.path.join(ORACLE, "gen_payload.py"), str(n), "42", path],
                   check=True, stdout=subprocess.DEVNULL)


def yaml_stream(payload, tmp):
    """The payload's cloud-config bodies as one YAML stream file."""
    parts = os.path.join(tmp, "parts")
    subprocess.run([BIN, "parts", payload, "--extract", parts], check=True,
                   stdout=subprocess.DEVNULL)
    stream = os.path.join(tmp, "stream.yaml")
    with open(stream, "w") as out:
        for name in sorted(os.listdir(parts)):
            with open(os.path.join(parts, name)) as f:
                text = f.read()
            if out.tell():
                out.write("---\n")
            out.write(text if text.endswith("\n") else text + "\n")
    return stream


def huge_list(path, size):
    with open(path, "w") as f:
        f.write("#cloud-config\npackages:\n")
        i, n = 0, 0
        while n < size:
            line = f"  - package-name-{i}\n"
            f.write(line)
            n += len(line)
            i += 1


def yaml_cpu_median(exe, what, n):
    """The median CPU milliseconds `yaml_cpu WHAT N` prints (and the bytes it read or wrote)."""
    out = subprocess.run([exe, what, str(n)], check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith(what))
    fields = line.split()
    size = int(fields[fields.index("B") - 1])
    return float(fields[fields.index("median") + 1]) / 1e3, size


def yaml_vs_libyaml(exe, driver, tmp, runs):
    """yaml::load and the dumps of the benches' document (benches/support), timed inside
    the example by CPU time, against libyaml's parse of the same document (whole process)."""
    doc = os.path.join(tmp, "cloud_config_doc.yaml")
    subprocess.run([exe, "write", doc], check=True)
    res = {k: [] for k in ("libyaml", "load", "load_only", "dump_ci", "dump_readable")}
    sizes = {}
    for _ in range(max(3, runs // 3)):
        res["libyaml"].append(run([driver, doc])[1])
        for what in ("load", "load_only", "dump_ci", "dump_readable"):
            t, size = yaml_cpu_median(exe, what, 5)
            res[what].append(t)
            sizes[what] = size
    med = {k: statistics.median(v) for k, v in res.items()}
    base = med["libyaml"]
    print(f"\n| the benches' YAML document ({os.path.getsize(doc):,} bytes), CPU "
          f"| median | / libyaml parse | MB/s |")
    print("|---|---:|---:|---:|")
    print(f"| libyaml parse (whole process) | {base * 1e3:.1f} ms | 1.00 "
          f"| {os.path.getsize(doc) / base / 1e6:.0f} |")
    for what in ("load", "load_only", "dump_ci", "dump_readable"):
        print(f"| {what} | {med[what] * 1e3:.1f} ms | {med[what] / base:.2f} "
              f"| {sizes[what] / med[what] / 1e6:.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--oracle-runs", type=int, default=3)
    ap.add_argument("--no-oracle", action="store_true")
    ap.add_argument("--realtime", action="store_true",
                    help="also time the 5000-part table under chrt -f 1 (two free cores)")
    a = ap.parse_args()
    for need, why in ((BIN, "cargo build --release"), (os.path.join(ORACLE, "gen_payload.py"),
                      "the oracle's payload generator (../shared)")):
        if not os.path.exists(need):
            sys.exit(f"missing {need}: {why}")
    if not shutil.which("gcc") or not os.path.exists("/usr/include/yaml.h"):
        sys.exit("needs gcc and libyaml (apt-get install -y gcc libyaml-dev)")
    with tempfile.TemporaryDirectory(prefix="cloudfold-ratios-") as tmp:
        driver = os.path.join(tmp, "libyaml_parse")
        subprocess.run(["gcc", "-O2", "-o", driver, os.path.join(HERE, "libyaml_parse.c"),
                        "-lyaml"], check=True)
        p5000 = os.path.join(tmp, "p5000.txt")
        gen(5000, p5000)
        stream = yaml_stream(p5000, tmp)
        events = subprocess.run([driver, stream], check=True, capture_output=True,
                                text=True).stdout.strip()
        size, ysize = os.path.getsize(p5000), os.path.getsize(stream)
        print(f"5000-part payload: {size:,} bytes; its YAML: {ysize:,} bytes, "
              f"{events} libyaml events\n")
        named = [
            ("libyaml", [driver, stream]),
            ("render --format cloud-init", [BIN, "render", "--format", "cloud-init", p5000]),
            ("render", [BIN, "render", p5000]),
        ]
        if a.realtime and subprocess.run(["chrt", "-f", "1", "true"],
                                         stderr=subprocess.DEVNULL).returncode != 0:
            sys.exit("--realtime: chrt -f 1 failed (needs root or CAP_SYS_NICE)")
        for realtime in (False, True) if a.realtime else (False,):
            r = interleaved(named, a.runs, realtime)
            base = r["libyaml"]
            how = ", each under chrt -f 1" if realtime else ""
            print(f"| 5000 parts ({a.runs} interleaved runs{how}) | wall | CPU | / libyaml wall "
                  f"| / libyaml CPU | peak RSS / (6 x payload + 50 MB) |")
            print("|---|---:|---:|---:|---:|---:|")
            for name, (w, c, p) in r.items():
                bound = 6 * (ysize if name == "libyaml" else size) + 50e6
                print(f"| {name} | {w * 1e3:.1f} ms | {c * 1e3:.1f} ms | {w / base[0]:.2f} "
                      f"| {c / base[1]:.2f} | {p / 1e6:.1f} MB / {bound / 1e6:.1f} = "
                      f"{p / bound:.2f} |")
            print()

        big = os.path.join(tmp, "list20m.yaml")
        huge_list(big, 20_000_000)
        r = interleaved([(f"render{s}", [BIN, "render", *s.split(), big])
                         for s in ("", " --format cloud-init", " --format json")], 5)
        bsize = os.path.getsize(big)
        bound = 6 * bsize + 50e6
        print(f"| one 20 MB list ({bsize:,} bytes, 5 runs) | wall | peak RSS | / bound "
              f"({bound / 1e6:.1f} MB) |")
        print("|---|---:|---:|---:|")
        for name, (w, _, p) in r.items():
            print(f"| {name} | {w * 1e3:.0f} ms | {p / 1e6:.1f} MB | {p / bound:.2f} |")

        yaml_cpu = os.path.join(ROOT, "target", "release", "examples", "yaml_cpu")
        if os.path.exists(yaml_cpu):
            yaml_vs_libyaml(yaml_cpu, driver, tmp, a.runs)
        else:
            print("\n(yaml::load and dump against libyaml: build the example first, "
                  "cargo build --release --example yaml_cpu)")

        if not a.no_oracle:
            p1000 = os.path.join(tmp, "p1000.txt")
            gen(1000, p1000)
            oracle = [sys.executable, os.path.join(ORACLE, "ci_oracle.py"), "--no-reload-check",
                      p1000]
            r = interleaved([
                ("oracle", oracle),
                ("render --format cloud-init", [BIN, "render", "--format", "cloud-init", p1000]),
            ], a.oracle_runs)
            o = r["oracle"]
            c = r["render --format cloud-init"]
            print(f"\n1000 parts ({a.oracle_runs} interleaved runs): oracle {o[0]:.2f} s wall "
                  f"/ render --format cloud-init {c[0] * 1e3:.1f} ms = {o[0] / c[0]:.0f}x "
                  f"(CPU {o[1] / c[1]:.0f}x)")


if __name__ == "__main__":
    main()
