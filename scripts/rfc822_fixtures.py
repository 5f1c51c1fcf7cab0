#!/usr/bin/env python3
"""Record fixtures/userdata-rfc822/*.expected.json from the real cloud-init (the oracle).

Each NAME.eml payload runs through ../shared/oracle/ci_oracle.py for both
releases (bookworm = 22.4, trixie = 25.1), without a launch index and with
launch indexes 0-2 for payloads that carry Launch-Index headers. A NAME.inc
file beside it is served for #include http://example.invalid/NAME.inc.
Kept per run: whether processing failed, the merged cloud-config, the parts
the handlers saw, and cloud-config.txt (as tests/oracle/differential_oracle.rs does).

    python3 scripts/rfc822_fixtures.py   # run from the repository root
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ORACLE = ROOT.parent / "shared" / "oracle" / "ci_oracle.py"
DIR = ROOT / "fixtures" / "userdata-rfc822"
RELEASES = [("22.4", "bookworm"), ("25.1", "trixie")]


def run(path, release, launch_index):
    cmd = [sys.executable, str(ORACLE), "--release", release, "--emit-file", "--compact"]
    inc = path.with_suffix(".inc")
    if inc.exists():
        cmd += ["--url-map", f"http://example.invalid/{inc.name}={inc}"]
    if launch_index is not None:
        cmd += ["--launch-index", str(launch_index)]
    doc = json.loads(subprocess.run(cmd + [str(path)], check=True, capture_output=True).stdout)
    crash = doc.get("oracle_crash") or ""
    if doc.get("error") is not None or (crash and not crash.startswith("UnicodeEncodeError")):
        return {"error": True}
    return {
        "error": False,
        "cloud_config": doc["cloud_config"],
        "parts": doc["parts"],
        "cloud_config_txt": doc["cloud_config_txt"],
    }


def main():
    for path in sorted(DIR.glob("*.eml")):
        indexes = [None]
        if "launch-index" in path.read_text().lower():
            indexes += [0, 1, 2]
        runs = []
        for version, release in RELEASES:
            for li in indexes:
                runs.append({"release": version, "launch_index": li,
                             "result": run(path, release, li)})
        out = path.with_suffix(".expected.json")
        out.write_text(json.dumps(runs, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(out.name, len(runs), "runs")


if __name__ == "__main__":
    main()
