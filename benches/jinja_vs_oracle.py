#!/usr/bin/env python3
"""Benchmark: jinja parts through `cloudfold render --instance-data` against the cloud-init oracle, in one run.

Makes a payload of N `## template: jinja` cloud-config parts (MIME, each with a
Merge-Type that appends) that read instance data at several depths (aliases,
`v1` promotion, filters, a loop, a conditional), and an instance-data file
shaped like a real one (~200 keys). Times (median of R runs) the whole
`cloudfold render --format cloud-init --instance-data` process and the
oracle's whole process (`ci_oracle.py --instance-data --no-reload-check`),
checks the two merged configs are equal, and prints the ratio.

Usage: benches/jinja_vs_oracle.py [--parts 1000] [--runs 3] [--release bookworm|trixie]
Build first: cargo build --release
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ORACLE = os.path.join(os.environ.get("CLOUDFOLD_SHARED", os.path.normpath(os.path.join(ROOT, "..", "shared"))), "oracle", "ci_oracle.py")
BIN = os.path.join(ROOT, "target", "release", "cloudfold")

PART = """--BB
Content-Type: text/jinja2
Merge-Type: list(append)+dict(recurse_array)+str()

## template: jinja
#cloud-config
runcmd:
- echo {i} {{{{ v1.local_hostname }}}} {{{{ ds.meta_data.placement.availability_zone }}}}
- [sh, -c, "echo {{{{ v1.region|upper }}}} {{{{ cloud_name }}}}"]
{{% if v1.cloud_name == 'aws' %}}
packages: [pkg-{i}, {{{{ ds.meta_data['instance-type'] }}}}]
{{% endif %}}
write_files:
- path: /etc/part-{i}
  content: '{{{{ ds.meta_data.tags|tojson }}}} {{% for k in ds.meta_data.tags %}}{{{{ k }}}},{{% endfor %}}'
"""


def instance_data():
    tags = {"Name": "web", "env": "prod", "team": "platform"}
    meta = {"instance-id": "i-0123456789abcdef0", "instance-type": "m5.large",
            "placement": {"availability-zone": "eu-west-1a", "region": "eu-west-1"},
            "tags": tags, "local-ipv4": "10.0.0.12", "public-ipv4": "203.0.113.9"}
    for i in range(150):
        meta["extra-key-%d" % i] = {"value": i, "label": "item %d" % i, "x.y": [i, i * 1.5]}
    return {"ds": {"meta_data": meta, "_doc": "EXPERIMENTAL"},
            "v1": {"cloud_name": "aws", "local_hostname": "web-01", "region": "eu-west-1",
                   "instance_id": "i-0123456789abcdef0", "availability_zone": "eu-west-1a",
                   "platform": "ec2", "distro": "debian", "python_version": "3.11.2"},
            "merged_cfg": {"datasource_list": ["Ec2", "None"], "users": ["default"]},
            "base64_encoded_keys": [], "sensitive_keys": ["merged_cfg"]}


def measure(cmd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            sys.exit("command failed: %s" % " ".join(cmd))
    return statistics.median(times), r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parts", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--release", default="trixie", choices=["bookworm", "trixie"])
    a = ap.parse_args()
    if not os.path.exists(BIN):
        sys.exit("build first: cargo build --release")
    tmp = tempfile.mkdtemp(prefix="cloudfold-jinja-bench-")
    payload = os.path.join(tmp, "user-data")
    data = os.path.join(tmp, "instance-data.json")
    with open(data, "w") as fh:
        json.dump(instance_data(), fh)
    with open(payload, "w") as fh:
        fh.write('Content-Type: multipart/mixed; boundary="BB"\nMIME-Version: 1.0\n\n')
        for i in range(a.parts):
            fh.write(PART.format(i=i))
        fh.write("--BB--\n")
    release = "22.4" if a.release == "bookworm" else "25.1"
    ours_cmd = [BIN, "render", "--format", "json", "--cloud-init", release,
                "--instance-data", data, payload]
    theirs_cmd = [sys.executable, ORACLE, "--release", a.release, "--instance-data", data,
                  "--no-reload-check", "--compact", payload]
    ours_t, ours_out = measure(ours_cmd, a.runs)
    theirs_t, theirs_out = measure(theirs_cmd, a.runs)
    ours_cfg = json.loads(ours_out)
    theirs_cfg = json.loads(theirs_out)["cloud_config"]
    same = ours_cfg == theirs_cfg
    print("| parts | bytes | cloudfold wall (s) | oracle wall (s) | speed-up | configs equal |")
    print("|---|---|---|---|---|---|")
    print("| %d | %d | %.4f | %.3f | %.0fx | %s |" % (
        a.parts, os.path.getsize(payload), ours_t, theirs_t, theirs_t / ours_t, same))
    if not same:
        sys.exit("the merged configs differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
