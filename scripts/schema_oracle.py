#!/usr/bin/env python3
"""Validate cloud-configs with cloud-init's own schema validator: the real
`cloudinit.config.schema.validate_cloudconfig_schema` of the oracle's extracted
cloud-init (nothing is installed or copied into this repo), one process for many.

Reads JSON lines {"id": ..., "config": {...}} on stdin, writes one JSON line per input:
{"id": ..., "errors": [[path, message], ...], "deprecations": [[path, message], ...]}
with cloud-init's flat paths (`users.0.sudo`). Usage: scripts/schema_oracle.py ROOT
where ROOT is the extracted tree (…/cloud-init-root for 22.4, …/cloud-init-root-trixie
for 25.1).

cloud-init's messages are jsonschema's, and they change between jsonschema versions
(4.21 says "[] should be non-empty" where older ones say "[] is too short"), so the
validator runs with the jsonschema its Debian package depends on: bookworm's
python3-jsonschema 4.10.3 for 22.4, trixie's 4.19.2 for 25.1. scripts/ci_tools.sh
installs each into ${XDG_CACHE_HOME:-~/.cache}/cloudfold-ci/jsonschema-VERSION
($CLOUDFOLD_JSONSCHEMA_DIR/jsonschema-VERSION); without it (or without jsonschema at
all, where cloud-init skips validation silently) this driver refuses to run.
"""
import json
import os
import sys

# The python3-jsonschema each release's Debian package runs with (bookworm, trixie).
DEBIAN_JSONSCHEMA = {"22.4": "4.10.3", "25.1": "4.19.2"}


def jsonschema_dir(version):
    base = os.environ.get("CLOUDFOLD_JSONSCHEMA_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "cloudfold-ci")
    return os.path.join(base, "jsonschema-" + version)


def main():
    root = sys.argv[1]
    sys.path.insert(0, os.path.join(root, "usr", "lib", "python3", "dist-packages"))
    cache = os.path.dirname(root)
    pydeps = os.path.join(cache, "pydeps")
    if os.path.isdir(pydeps):
        sys.path.insert(0, pydeps)
    with open(os.path.join(root, ".deb-version"), encoding="utf-8") as fh:
        release = ".".join(fh.read().split(".")[:2])
    want = DEBIAN_JSONSCHEMA[release]
    sys.path.insert(0, jsonschema_dir(want))
    import logging
    logging.disable(logging.CRITICAL)
    import warnings
    warnings.simplefilter("ignore")
    try:
        import jsonschema  # (cloud-init would skip validation without it)
        import importlib.metadata
        have = importlib.metadata.version("jsonschema")
    except ImportError:
        have = None
    if have != want:
        sys.stderr.write("schema_oracle.py: cloud-init %s runs with jsonschema %s, found %s in %s "
                         "(scripts/ci_tools.sh installs it)\n" % (release, want, have, jsonschema_dir(want)))
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
