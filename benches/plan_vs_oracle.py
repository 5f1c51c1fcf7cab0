#!/usr/bin/env python3
"""Benchmark: `cloudfold plan` against the plan oracle driver's whole process, in one run.

Makes a MIME payload of N parts of every kind `plan` follows (cloud-config parts with an
appending Merge-Type carrying bootcmd, runcmd, write_files and packages; shell scripts with
names that sort surprisingly; per-boot / per-instance / per-once scripts; boothooks), an
/etc/cloud of the debian-13 (or, with --release bookworm, debian-12) image profile, and times
(median of R runs):

  * `cloudfold plan --format json --etc-cloud DIR --boot first` and `--boot next` (a next
    boot plans the first boot too), and
  * `scripts/plan_oracle.py`'s whole process on the same case (the extracted cloud-init's
    consume_data and Modules runner over a throw-away root, first boot then next boot),

checks that both sides name the same run-parts scripts in the same order, and prints the
ratios. The driver needs the extracted cloud-init (../shared/oracle/setup.sh) and a private
mount namespace (it re-executes itself under `unshare`).

Usage: benches/plan_vs_oracle.py [--parts 1000] [--runs 3] [--release bookworm|trixie]
Build first: cargo build --release
"""
import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.path.join(ROOT, "target", "release", "cloudfold")
DRIVER = os.path.join(ROOT, "scripts", "plan_oracle.py")
DATA = os.path.join(ROOT, "src", "layers", "data")
IID = "i-0bench"

# Names that sort surprisingly (Python code-point order: 'Z' < '_' < 'a', 'part-010' <
# 'part-2'), cycled over the script parts.
NAMES = ["part-010", "part-2", "Zeta", "_z", "a b", "runcmd-x", "10", "9", "alpha", "~t"]


def part(i):
    kind = i % 6
    name = "%s-%d" % (NAMES[i % len(NAMES)], i)
    if kind in (0, 1):
        body = (
            "#cloud-config\n"
            "bootcmd:\n- [echo, boot, %d, 1.5, true]\n"
            "runcmd:\n- echo run %d 'quoted'\n- [sh, -c, \"echo %d\"]\n"
            "packages: [pkg-%d]\n"
            "write_files:\n- path: /etc/cloudfold-plan/f%d\n  content: \"file %d\\n\"\n"
            "  permissions: '0640'\n- path: /etc/cloudfold-plan/d%d\n  defer: true\n"
            "  content: deferred\n" % (i, i, i, i, i, i, i)
        )
        return ("text/cloud-config", "cfg-%d.yaml" % i,
                "list(append)+dict(no_replace,recurse_list)+str()", body)
    if kind == 2:
        return ("text/x-shellscript", name, None, "#!/bin/sh\necho script %d\n" % i)
    if kind == 3:
        freq = ["per-boot", "per-instance", "per-once"][(i // 6) % 3]
        return ("text/x-shellscript-" + freq, name, None, "#!/bin/sh\necho %s %d\n" % (freq, i))
    if kind == 4:
        return ("text/cloud-boothook", name, None, "#cloud-boothook\n#!/bin/sh\necho hook %d\n" % i)
    # A script part without a filename: cloud-init names it part-NNN.
    return ("text/x-shellscript", None, None, "#!/bin/sh\necho unnamed %d\n" % i)


def payload(n):
    out = ['Content-Type: multipart/mixed; boundary="BB"\nMIME-Version: 1.0\n\n']
    for i in range(n):
        ctype, name, merge, body = part(i)
        out.append("--BB\nContent-Type: %s\n" % ctype)
        if name:
            out.append('Content-Disposition: attachment; filename="%s"\n' % name)
        if merge:
            out.append("Merge-Type: %s\n" % merge)
        out.append("\n" + body)
    out.append("--BB--\n")
    return "".join(out).encode()


def measure(cmd, runs, stdin_bytes=None):
    times, out = [], b""
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, input=stdin_bytes, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit("command failed (%d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                      r.stderr.decode(errors="replace")[-2000:]))
        out = r.stdout
    return statistics.median(times), out


def ours_scripts(plan_json):
    """run-parts scripts of the final stage, in order, as paths."""
    got = []
    for st in plan_json.get("stages", []):
        for m in st.get("modules") or []:
            for a in m.get("actions") or []:
                if a.get("action") == "run-parts":
                    got.extend(e["path"] for e in a.get("entries") or [] if e.get("runs"))
    return got


def theirs_scripts(boot):
    return [e[3][-1] for e in boot
            if e[0] == "exec" and e[2].startswith("scripts") and e[3]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--release", default="trixie", choices=["bookworm", "trixie"])
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release")
    release, profile = ("22.4", "debian-12") if a.release == "bookworm" else ("25.1", "debian-13")
    tmp = tempfile.mkdtemp(prefix="cloudfold-plan-bench-")
    etc = os.path.join(tmp, "etc-cloud")
    os.makedirs(os.path.join(etc, "cloud.cfg.d"))
    files = {
        "cloud.cfg": open(os.path.join(DATA, "%s.cloud.cfg.yaml" % profile), "rb").read(),
        "cloud.cfg.d/05_logging.cfg": open(os.path.join(DATA, "logging.cfg.yaml"), "rb").read(),
    }
    for rel, data in files.items():
        with open(os.path.join(etc, rel), "wb") as fh:
            fh.write(data)
    user = payload(a.parts)
    path = os.path.join(tmp, "user-data")
    with open(path, "wb") as fh:
        fh.write(user)
    base = [BIN, "plan", "--format", "json", "--cloud-init", release, "--etc-cloud", etc,
            "--instance-id", IID]
    first_t, first_out = measure(base + ["--boot", "first", path], a.runs)
    next_t, next_out = measure(base + ["--boot", "next", path], a.runs)
    case = {"id": 0, "etc": [[k, base64.b64encode(v).decode()] for k, v in files.items()],
            "user": base64.b64encode(user).decode(), "vendor": None, "vendor2": None,
            "instance_data": None, "iid": IID}
    theirs_t, theirs_out = measure([sys.executable, DRIVER, "--release", a.release],
                                   a.runs, (json.dumps(case) + "\n").encode())
    res = json.loads(theirs_out.decode().splitlines()[0])
    if res.get("error"):
        sys.exit("the driver failed: %s" % res["error"])
    same = (ours_scripts(json.loads(first_out)) == theirs_scripts(res["boots"][0])
            and ours_scripts(json.loads(next_out)) == theirs_scripts(res["boots"][1]))
    print("| parts | bytes | plan --boot first (s) | plan --boot next (s) | driver, 2 boots (s) "
          "| driver / first | driver / next | run-parts order equal |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    print("| %d | %d | %.4f | %.4f | %.2f | %.0fx | %.0fx | %s |" % (
        a.parts, len(user), first_t, next_t, theirs_t, theirs_t / first_t, theirs_t / next_t,
        same))
    if not same:
        sys.exit("the run-parts scripts differ")
    return 0


def run():
    tmp_before = set(os.listdir(tempfile.gettempdir()))
    try:
        return main()
    finally:
        # Only the directory this run made (tempfile.mkdtemp in main).
        for d in set(os.listdir(tempfile.gettempdir())) - tmp_before:
            if d.startswith("cloudfold-plan-bench-"):
                shutil.rmtree(os.path.join(tempfile.gettempdir(), d), ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run())
