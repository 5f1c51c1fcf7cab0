#!/usr/bin/env python3
"""Validate cloud-configs with cloud-init's own schema validator (the oracle's extracted
cloud-init 25.1 tree; nothing is installed or copied into this repo).

Reads JSON lines {"id": ..., "config": {...}} on stdin, writes one JSON line per input:
{"id": ..., "errors": [[path, message], ...], "deprecations": [[path, message], ...]}
with cloud-init's flat paths (`users.0.sudo`). Usage: scripts/schema_oracle.py ROOT
where ROOT is the extracted tree (…/cloud-init-root-trixie).
"""
import json
import os
import sys


def main():
    root = sys.argv[1]
    sys.path.insert(0, os.path.join(root, "usr", "lib", "python3", "dist-packages"))
    cache = os.path.dirname(root)
    pydeps = os.path.join(cache, "pydeps")
    if os.path.isdir(pydeps):
        sys.path.insert(0, pydeps)
    import logging
    logging.disable(logging.CRITICAL)
    from cloudinit.config import schema as S
    full = S.get_schema()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        errors, deps = [], []
        try:
            S.validate_cloudconfig_schema(case["config"], full, strict=True, log_details=False)
        except S.SchemaValidationError as e:
            errors = [list(p) for p in (e.schema_errors or [])]
            deps = [list(p) for p in (e.schema_deprecations or [])]
        except Exception as e:  # report, keep going
            errors = [["<crash>", "%s: %s" % (type(e).__name__, e)]]
        sys.stdout.write(json.dumps({"id": case["id"], "errors": errors, "deprecations": deps}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
