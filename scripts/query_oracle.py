#!/usr/bin/env python3
"""Run the real `cloud-init query` / `cloud-init devel render` from the extracted
package (never installed) with argv as given, for comparing with cloudfold's.

Usage: scripts/query_oracle.py [--release bookworm|trixie] query|render ARGS...
stdout/stderr/exit code are cloud-init's own (its CLI log handler included).
"""
import os
import sys

from oracle_root import CACHE, use_release


def main():
    argv = sys.argv[1:]
    release = "bookworm"
    if argv[:1] == ["--release"]:
        release, argv = argv[1], argv[2:]
    use_release(release)
    if release == "bookworm" and os.path.isdir(os.path.join(CACHE, "jinja2-3.1.2")):
        sys.path.insert(0, os.path.join(CACHE, "jinja2-3.1.2"))
    import logging
    cmd, rest = argv[0], argv[1:]
    if cmd == "query":
        from cloudinit.cmd import query as mod
    else:
        from cloudinit.cmd.devel import render as mod
    parser = mod.get_parser()
    args = parser.parse_args(rest)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s",
                        stream=sys.stderr)
    try:
        rc = mod.handle_args("cmd", args)
    except Exception as exc:  # cloud-init prints a traceback
        sys.stderr.write("Traceback: %s: %s\n" % (type(exc).__name__, exc))
        rc = 1
    sys.stdout.flush()
    return rc


if __name__ == "__main__":
    sys.exit(main())
