#!/usr/bin/env python3
"""Record the expected outputs of fixtures/merge-nickel/ with the real `nickel export`.

Each case is a folder of layers 1.yaml, 2.yaml, ... (YAML 1.1 as PyYAML's SafeLoader reads
it; local tags !default, !force, !priority:N on mapping values are Nickel priorities). The
script writes each layer as a Nickel record (`| default`, `| force`, `| priority N`), runs
`nickel export --format json` on `(import "1.ncl") & (import "2.ncl") & ...` and records
`expected.json` (the export, keys sorted) or `expected.error` (nickel's first error line).

Usage: scripts/nickel_fixtures.py [--nickel PATH] [fixtures/merge-nickel]
The nickel binary defaults to ~/.cache/cloudfold-oracle/nickel/bin/nickel
(../shared/oracle/dialects/setup-nickel.sh installs it).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import yaml


class Tagged:
    def __init__(self, tag, value):
        self.tag, self.value = tag, value


class TagLoader(yaml.SafeLoader):
    pass


def construct_local(loader, suffix, node):
    tag = "!" + suffix
    if isinstance(node, yaml.ScalarNode):
        implicit = loader.resolve(yaml.ScalarNode, node.value, (True, False))
        value = loader.construct_object(yaml.ScalarNode(implicit, node.value, node.start_mark, node.end_mark, node.style), deep=True)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return Tagged(tag, value)


TagLoader.add_multi_constructor("!", construct_local)


def nickel_value(v):
    if isinstance(v, Tagged):
        raise ValueError("a priority tag outside a mapping value")
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v).replace("e+", "e")
    if isinstance(v, str):
        return json.dumps(v).replace("%", "\\%")
    if isinstance(v, list):
        return "[" + ", ".join(nickel_value(x) for x in v) + "]"
    if isinstance(v, dict):
        fields = []
        for k, x in v.items():
            meta = ""
            if isinstance(x, Tagged):
                t = x.tag[1:]
                if t in ("default", "force"):
                    meta = " | " + t
                elif t.startswith("priority:"):
                    meta = " | priority " + t[len("priority:"):]
                else:
                    raise ValueError("unknown tag " + x.tag)
                x = x.value
            fields.append("%s%s = %s" % (json.dumps(str(k)), meta, nickel_value(x)))
        return "{ " + ", ".join(fields) + " }"
    raise ValueError("no Nickel literal for %r" % (v,))


def record(case_dir, nickel):
    layers = sorted((f for f in os.listdir(case_dir) if f.endswith(".yaml")), key=lambda f: int(f.split(".")[0]))
    with tempfile.TemporaryDirectory() as tmp:
        imports = []
        for f in layers:
            with open(os.path.join(case_dir, f), encoding="utf-8") as fh:
                value = yaml.load(fh.read(), Loader=TagLoader)
            name = f.replace(".yaml", ".ncl")
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as out:
                out.write(nickel_value(value) + "\n")
            imports.append('(import "%s")' % name)
        with open(os.path.join(tmp, "main.ncl"), "w", encoding="utf-8") as out:
            out.write(" & ".join(imports) + "\n")
        p = subprocess.run([nickel, "export", "--format", "json", "main.ncl"], cwd=tmp, capture_output=True, text=True)
    for stale in ("expected.json", "expected.error"):
        path = os.path.join(case_dir, stale)
        if os.path.exists(path):
            os.remove(path)
    if p.returncode == 0:
        with open(os.path.join(case_dir, "expected.json"), "w", encoding="utf-8") as out:
            out.write(json.dumps(json.loads(p.stdout), sort_keys=True, indent=2) + "\n")
        return "ok"
    first = p.stderr.strip().splitlines()[0] if p.stderr.strip() else "error"
    with open(os.path.join(case_dir, "expected.error"), "w", encoding="utf-8") as out:
        out.write(first + "\n")
    return first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nickel", default=os.path.expanduser("~/.cache/cloudfold-oracle/nickel/bin/nickel"))
    ap.add_argument("dir", nargs="?", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "merge-nickel"))
    a = ap.parse_args()
    for case in sorted(os.listdir(a.dir)):
        d = os.path.join(a.dir, case)
        if os.path.isdir(d):
            print("%-40s %s" % (case, record(d, a.nickel)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
