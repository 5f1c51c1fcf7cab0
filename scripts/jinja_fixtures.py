#!/usr/bin/env python3
"""Record fixtures/jinja/cases.jsonl's expected outcomes with the real Jinja2 as cloud-init calls it.

Each input line is {"name", "template" (the part's text after its `## template: jinja`
line), "data" (instance data, a JSON object)}. For each Jinja2 Debian ships (3.1.2 with
bookworm's cloud-init 22.4, 3.1.6 with trixie's 25.1) the line gets "3.1.2"/"3.1.6":
{"ok": rendered text} or {"error": class, "caught": bool (cloud-init's
`except (TypeError, UndefinedError)`), "message": str(e)} or {"syntax": message, "line": n}.
The render is cloud-init's own: `convert_jinja_instance_data` of the extracted package and
`jinja2.Template(..., undefined=UndefinedJinjaVariable, trim_blocks=True,
extensions=["jinja2.ext.do"])` exactly as `templater.render_string` builds it.

Usage: python3 scripts/jinja_fixtures.py [--release bookworm|trixie] < cases.jsonl
(one release per run, as each imports its own Jinja2; the driver below runs both):
    python3 scripts/jinja_fixtures.py --all fixtures/jinja/cases.jsonl
"""
import json
import os
import subprocess
import sys

from oracle_root import CACHE, use_release


def record(release):
    use_release(release)
    if release == "bookworm":
        sys.path.insert(0, os.path.join(CACHE, "jinja2-3.1.2"))
    import jinja2
    from jinja2.exceptions import TemplateSyntaxError, UndefinedError
    from cloudinit.handlers.jinja_template import convert_jinja_instance_data
    from cloudinit.templater import UndefinedJinjaVariable

    version = jinja2.__version__
    for line in sys.stdin:
        case = json.loads(line)
        data = case["data"]
        env_vars = convert_jinja_instance_data(
            data, decode_paths=data.get("base64-encoded-keys", []), include_key_aliases=True)
        try:
            out = jinja2.Template(case["template"], undefined=UndefinedJinjaVariable,
                                  trim_blocks=True,
                                  extensions=["jinja2.ext.do"]).render(**env_vars)
            res = {"ok": out}
        except TemplateSyntaxError as e:
            res = {"syntax": e.message, "line": e.lineno}
        except Exception as e:  # noqa: BLE001 (the class is the answer)
            res = {"error": type(e).__name__,
                   "caught": isinstance(e, (TypeError, UndefinedError)),
                   "message": str(e)}
        print(json.dumps({"name": case["name"], version: res}, ensure_ascii=False))


def record_all(path):
    here = os.path.abspath(__file__)
    cases = [json.loads(x) for x in open(path, encoding="utf-8") if x.strip()]
    inputs = "".join(json.dumps({k: c[k] for k in ("name", "template", "data")},
                                ensure_ascii=False) + "\n" for c in cases)
    for release in ("bookworm", "trixie"):
        out = subprocess.run([sys.executable, here, "--release", release], input=inputs,
                             capture_output=True, text=True, check=True).stdout
        for case, got in zip(cases, (json.loads(x) for x in out.splitlines())):
            assert case["name"] == got.pop("name")
            case.update(got)
    with open(path, "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--all"]:
        record_all(sys.argv[2])
    else:
        record(sys.argv[2] if sys.argv[1:2] == ["--release"] else "bookworm")
