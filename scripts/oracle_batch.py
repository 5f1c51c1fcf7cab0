#!/usr/bin/env python3
"""Run many payloads through the cloud-init oracle in one process.

Reads JSON lines {"id": ..., "b64": <payload base64>, "launch_index": int|null,
"emit_file": bool, "instance_data_b64": <instance-data JSON base64>|absent} on stdin and writes one JSON line per input:
{"id": ..., "doc": <the oracle's document, type-faithfully encoded>}.
With "summary": true the doc's cloud_config is replaced by {"$summary": [depth,
nodes]} (nesting depth and node count of the encoded value), for configs nested
deeper than a JSON reader on the other side accepts.

It imports ../shared/oracle/ci_oracle.py (never copied into this repo) and calls its
run_full() per payload, which is what `ci_oracle.py FILE` does once per process.
Usage: scripts/oracle_batch.py [--release bookworm|trixie] [--jinja2 DIR] < cases.jsonl

--jinja2 DIR puts DIR first on sys.path before anything imports jinja2 (bookworm ships
Jinja2 3.1.2; the oracle's own pin is 3.1.6): `pip install --target DIR Jinja2==3.1.2`.
"""
import argparse
import base64
import importlib.util
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("CLOUDFOLD_SHARED") or os.path.join(HERE, "..", "..", "shared")
ORACLE = os.path.normpath(os.path.join(SHARED, "oracle", "ci_oracle.py"))
# The oracle builds and removes a ~30-directory tree per payload; on this machine's
# disk that is ~110 ms of rmdir/mkdir per payload, in tmpfs ~1 ms (50 payloads:
# 7.5 s -> 2.0 s). Only where /dev/shm is a writable directory, and TMPDIR unset.
SCRATCH = "/dev/shm"


def load_oracle():
    path = os.environ.get("CLOUDFOLD_ORACLE", ORACLE)
    spec = importlib.util.spec_from_file_location("ci_oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def summary(v):
    """[depth, nodes] of a JSON value, without recursion."""
    depth, nodes, stack = 0, 0, [(v, 1)]
    while stack:
        x, d = stack.pop()
        nodes += 1
        depth = max(depth, d)
        if isinstance(x, dict):
            stack.extend((c, d + 1) for c in x.values())
        elif isinstance(x, list):
            stack.extend((c, d + 1) for c in x)
    return [depth, nodes]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="bookworm")
    ap.add_argument("--jinja2", help="a directory holding the jinja2 package to use")
    opts = ap.parse_args()
    if opts.jinja2:
        sys.path.insert(0, opts.jinja2)
        import jinja2  # noqa: F401  (pinned for every later import)
        sys.stderr.write("oracle_batch: jinja2 %s from %s\n" % (jinja2.__version__, jinja2.__file__))
    oracle = load_oracle()
    import tempfile
    inst_dir = tempfile.mkdtemp(prefix="cf-inst-")
    inst_path = os.path.join(inst_dir, "instance-data.json")
    if "TMPDIR" not in os.environ and os.path.isdir(SCRATCH) and os.access(SCRATCH, os.W_OK):
        import tempfile
        tempfile.tempdir = SCRATCH
    # Let the oracle's own logging capture run; keep stdout for our JSON lines only.
    out = sys.stdout
    sys.stdout = io.StringIO()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        args = argparse.Namespace(
            release=opts.release, ci_root=None, launch_index=case.get("launch_index"),
            instance_data=None, url_map=[], exec_part_handlers=False,
            emit_file=bool(case.get("emit_file", True)), no_reload_check=bool(case.get("no_reload_check", True)),
            timing=False, repeat=1, base64=False)
        blob = base64.b64decode(case["b64"])
        if case.get("instance_data_b64") is not None:
            with open(inst_path, "wb") as fh:
                fh.write(base64.b64decode(case["instance_data_b64"]))
            args.instance_data = inst_path
        try:
            doc = oracle.run_full(args, blob)
            enc = oracle.encode(doc)
        except BaseException as exc:  # the oracle itself failed: report, keep going
            enc = {"oracle_crash": "%s: %s" % (type(exc).__name__, exc)}
        if case.get("summary") and enc.get("cloud_config") is not None:
            enc["cloud_config"] = {"$summary": summary(enc["cloud_config"])}
        out.write(json.dumps({"id": case.get("id"), "doc": enc}, ensure_ascii=False,
                             sort_keys=True, allow_nan=False) + "\n")
        out.flush()
        sys.stdout = io.StringIO()
    return 0


if __name__ == "__main__":
    sys.exit(main())
