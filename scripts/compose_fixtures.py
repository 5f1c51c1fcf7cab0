#!/usr/bin/env python3
"""Record the expected results of fixtures/merge-compose/*/ from the real docker-compose.

Each fixture directory holds f1.yml, f2.yml, ... (lowest priority first).
This runs Debian trixie's docker-compose (compose-go 2.4.8), installed by
../shared/oracle/dialects/setup-compose.sh, as

    docker-compose -f f1.yml -f f2.yml ... config --format json --no-normalize \
        --no-interpolate --no-path-resolution --no-consistency

and writes expected.json: {"model": <the printed model without "name">} or
{"error": <compose's message, with the temporary directory removed>}.

    python3 scripts/compose_fixtures.py [FIXTURE_DIR ...]
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SETUP = ROOT.parent / "shared" / "oracle" / "dialects" / "setup-compose.sh"


def oracle_bin():
    out = subprocess.run(["bash", str(SETUP), "--print"], check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


def record(binary, case):
    files = sorted(case.glob("f*.yml"), key=lambda p: int(p.stem[1:]))
    with tempfile.TemporaryDirectory() as d:
        args = [binary]
        for f in files:
            shutil.copy(f, os.path.join(d, f.name))
            args += ["-f", f.name]
        args += ["config", "--format", "json", "--no-normalize", "--no-interpolate",
                 "--no-path-resolution", "--no-consistency"]
        env = dict(os.environ, DOCKER_HOST="unix:///nonexistent/docker.sock",
                   COMPOSE_PROJECT_NAME="p")
        r = subprocess.run(args, cwd=d, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            msg = r.stderr.strip().replace(d + "/", "")
            return {"error": msg}
        model = json.loads(r.stdout)
        model.pop("name", None)
        return {"model": model}


def main():
    binary = oracle_bin()
    cases = [pathlib.Path(a) for a in sys.argv[1:]] or sorted(
        p for p in (ROOT / "fixtures" / "merge-compose").iterdir() if p.is_dir())
    for case in cases:
        result = record(binary, case)
        (case / "expected.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
        print(f"{case.name}: {'error' if 'error' in result else 'model'}")


if __name__ == "__main__":
    main()
