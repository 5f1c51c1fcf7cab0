#!/usr/bin/env python3
"""Validate cloud-configs with cloud-init's own schema validator: the real
`cloudinit.config.schema.validate_cloudconfig_schema` of the oracle's extracted
cloud-init (nothing is installed or copied into this repo), one process for many.

Reads JSON lines {"id": ..., "config": {...}} on stdin, writes one JSON line per input:
{"id": ..., "errors": [[path, message], ...], "deprecations": [[path, message], ...]}
with cloud-init's flat paths (`users.0.sudo`). Usage: scripts/schema_oracle.py ROOT
where ROOT is the extracted tree (…/cloud-init-root for 22.4, …/cloud-init-root-trixie
for 25.1). cloud-init skips validation silently without the jsonschema module: this
driver refuses to run without it instead.
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
    import warnings
    warnings.simplefilter("ignore")
    try:
        import jsonschema  # noqa: F401  (cloud-init would skip validation without it)
    except ImportError:
        sys.stderr.write("schema_oracle.py: python3 has no jsonschema module (pip install jsonschema)\n")
        return 2
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
