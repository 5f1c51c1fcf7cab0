#!/usr/bin/env python3
"""Print what `cloud-init devel make-mime` prints for the parts given on stdin, with a fixed boundary.

Input: JSON lines on stdin, each {"boundary": "...", "parts": [{"content": str, "type":
"cloud-config", "filename": "base.yaml"}, ...]}; output: one JSON line each, {"b64": <the
printed bytes, base64>} or {"errors": [...]}. Uses cloud-init's own create_mime_message() from the
oracle's extracted package ($CI_ORACLE_CACHE, default ~/.cache/cloudfold-oracle,
cloud-init-root-trixie), so the layout is the real one; only the random boundary is fixed.
Exit 3 when the package is not there.
"""
import io
import json
import os
import sys

cache = os.environ.get("CI_ORACLE_CACHE", os.path.expanduser("~/.cache/cloudfold-oracle"))
dp = os.path.join(cache, "cloud-init-root-trixie", "usr", "lib", "python3", "dist-packages")
if not os.path.isdir(os.path.join(dp, "cloudinit")):
    sys.stderr.write("make_mime_reference: no cloudinit under %s\n" % dp)
    sys.exit(3)
sys.path.insert(0, os.path.join(cache, "pydeps"))
sys.path.insert(0, dp)
from cloudinit.cmd.devel.make_mime import create_mime_message  # noqa: E402

import base64  # noqa: E402

for line in sys.stdin:
    case = json.loads(line)
    files = [(io.StringIO(p["content"]), p["filename"], p["type"]) for p in case["parts"]]
    msg, errors = create_mime_message(files)
    if errors:
        out = {"errors": errors}
    else:
        msg.set_boundary(case["boundary"])
        out = {"b64": base64.b64encode((str(msg) + "\n").encode("utf-8")).decode("ascii")}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
