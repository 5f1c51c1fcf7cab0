#!/usr/bin/env python3
"""Dump every config module's `meta` from the extracted cloud-init, as JSON.

For each `cloudinit/config/cc_*.py` of the release: its frequency, distros and
activate_by_schema_keys (null when the key is absent), imported by cloud-init's
own code path (importlib on the extracted tree). Also modules.py's
REMOVED_MODULES / RENAMED_MODULES (25.1) and the distro modules that exist.
The Rust table in src/plan/data/ is compared with this output by
tests/oracle/plan_oracle.rs.

Usage: scripts/cc_meta.py --release bookworm|trixie
"""
import argparse
import importlib
import json
import os
import pkgutil
import sys

from oracle_root import CACHE, DP, ROOTS



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", default="bookworm", choices=sorted(ROOTS))
    ap.add_argument("--tsv", action="store_true",
                    help="print src/plan/data's format instead (to refresh it)")
    opts = ap.parse_args()
    root = os.path.join(CACHE, ROOTS[opts.release], DP)
    if not os.path.isdir(root):
        sys.stderr.write("cc_meta.py: no extracted cloud-init at %s\n" % root)
        return 2
    sys.path.insert(0, os.path.join(CACHE, "pydeps"))
    sys.path.insert(0, root)
    import cloudinit.config as config
    import cloudinit.config.modules as modules
    import cloudinit.distros as distros

    out = {"modules": {}}
    for m in sorted(pkgutil.iter_modules(config.__path__), key=lambda m: m.name):
        if not m.name.startswith("cc_"):
            continue
        mod = importlib.import_module("cloudinit.config." + m.name)
        meta = getattr(mod, "meta", None) or {}
        out["modules"][m.name] = {
            "frequency": meta.get("frequency"),
            "distros": meta.get("distros"),
            "activate_by_schema_keys": meta.get("activate_by_schema_keys"),
            "handle": hasattr(mod, "handle"),
        }
    out["removed"] = list(getattr(modules, "REMOVED_MODULES", []))
    out["renamed"] = dict(getattr(modules, "RENAMED_MODULES", {}))
    out["distros"] = sorted(
        m.name for m in pkgutil.iter_modules(distros.__path__)
        if hasattr(importlib.import_module("cloudinit.distros." + m.name), "Distro"))
    if opts.tsv:
        print_tsv(out, opts.release)
        return 0
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def print_tsv(out, release):
    ver = {"bookworm": "22.4.2", "trixie": "25.1.4"}[release]
    w = sys.stdout.write
    w("# cloud-init %s config modules: name (without cc_), frequency, distros,\n" % ver)
    w("# activate_by_schema_keys (\"-\": none). Compared with the real cc_*.py meta by\n")
    w("# tests/oracle/plan_oracle.rs (scripts/cc_meta.py --tsv prints this).\n")
    for name, m in out["modules"].items():
        keys = m["activate_by_schema_keys"] or []
        w("%s\t%s\t%s\t%s\n" % (name[3:], m["frequency"], ",".join(m["distros"]) or "-",
                                ",".join(keys) or "-"))
    w("@removed\t%s\n" % (" ".join(out["removed"]) or "-"))
    w("@renamed\t%s\n" % (" ".join("%s=%s" % kv for kv in out["renamed"].items()) or "-"))
    w("@distros\t%s\n" % " ".join(out["distros"]))


if __name__ == "__main__":
    sys.exit(main())
