#!/usr/bin/env python3
"""The jinja differential's oracle: scripts/oracle_batch.py with its per-process set-up hoisted.

Same input and output as oracle_batch.py (JSON lines; `--release`, `--jinja2 DIR`), and the
same code path per payload: ../shared/oracle/ci_oracle.py's run_full, i.e. the real
UserDataProcessor, Init._do_handlers, JinjaTemplatePartHandler, render_jinja_payload and
Jinja2. What differs is only work that gives the same answer for every payload:

- cloud-init's util.SeLinuxGuard (every ensure_dir, chmod and write_file; ~30 per payload)
  retries `import selinux`, a failed search of the whole sys.path each time: ~45% of
  the process's time. When the release's sys.path has no selinux module, it is recorded as
  absent once (sys.modules["selinux"] = None makes the import fail at once, as it would).
- the instance-data file the batch copies into each payload's tree is written in tmpfs
  (/dev/shm, where oracle_batch.py puts the trees), not on the disk (~2 ms per payload).

Usage: scripts/jinja_oracle.py [--release bookworm|trixie] [--jinja2 DIR] < cases.jsonl
"""
import argparse
import importlib
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import oracle_batch  # noqa: E402
import oracle_root  # noqa: E402


def selinux_absent_once(release):
    """Record `selinux` as not importable if cloud-init's sys.path (the release's
    dist-packages, the oracle's pinned deps, then ours) has no such module."""
    saved = list(sys.path)
    try:
        oracle_root.use_release(release)
        importlib.import_module("selinux")
    except ImportError:
        sys.modules["selinux"] = None
    finally:
        sys.path[:] = saved


def codepoint_strings(load):
    """oracle_batch.load_oracle, its `encode` writing a str that even surrogateescape
    cannot encode (a lone surrogate outside U+DC80..U+DCFF: a YAML "\\ud83d" escape
    in a rendered cloud-config) as {"$str_codepoints": [...]}, as cloudfold's typed
    JSON does, where ci_oracle.encode raises UnicodeEncodeError (the payload became
    an oracle crash)."""
    def loaded():
        mod = load()
        plain = mod.encode

        def encode(value, *args, **kwargs):
            if isinstance(value, str):
                try:
                    value.encode("utf-8", "surrogateescape")
                except UnicodeEncodeError:
                    return {"$str_codepoints": [ord(c) for c in value]}
            return plain(value, *args, **kwargs)

        mod.encode = encode  # its recursion looks the global name up
        return mod
    return loaded


def main():
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--release", default="bookworm")
    opts, _ = ap.parse_known_args()
    selinux_absent_once(opts.release)
    oracle_batch.load_oracle = codepoint_strings(oracle_batch.load_oracle)
    if ("TMPDIR" not in os.environ and os.path.isdir(oracle_batch.SCRATCH)
            and os.access(oracle_batch.SCRATCH, os.W_OK)):
        tempfile.tempdir = oracle_batch.SCRATCH
    # One private directory for everything the batch puts in tempfile's directory (the
    # instance-data file it never removes, each payload's tree), removed at the end.
    scratch = tempfile.mkdtemp(prefix="cf-jinja-oracle-")
    tempfile.tempdir = scratch
    try:
        return oracle_batch.main()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
