#!/usr/bin/env python3
"""Hiera oracle for the `hiera` merge dialect: generated cases and recorded fixtures.

Runs Debian's puppet (../shared/oracle/dialects/setup-hiera.sh installs it) through
../shared/oracle/dialects/hiera_oracle.rb, one Ruby process per batch.  Each case is a
hierarchy of data files given lowest priority first (cloudfold's order); the generated
hiera.yaml lists them highest first, one level per file.

  hiera_oracle.py gen --seed S --count N --out cases.json
      generate N random cases (2-4 files of nested data, knockout strings,
      lookup_options, every strategy and deep option) and record puppet's answer
      for every top-level key
  hiera_oracle.py record DIR...
      (re)write DIR/expected.json for fixture directories holding NN-*.yaml data
      files (lowest first) and merge.json (null, a strategy name, or the
      {"strategy": "deep", ...} hash `puppet lookup` builds from its flags)
  hiera_oracle.py promote cases.json OUTDIR NAME...
      copy generated cases (by name) into fixture directories OUTDIR/NAME and record them
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED = os.environ.get("CLOUDFOLD_SHARED") or os.path.join(REPO, "..", "shared")
ORACLE = os.path.join(SHARED, "oracle", "dialects", "hiera_oracle.rb")


def hiera_yaml(file_names):
    lines = ["version: 5", "defaults:", "  datadir: data", "  data_hash: yaml_data", "hierarchy:"]
    for f in reversed(file_names):
        lines += [f'  - name: "{f}"', f'    path: "{f}"']
    return "\n".join(lines) + "\n"


def data_keys(texts):
    """Top-level string keys other than lookup_options, lowest file first."""
    keys = []
    for t in texts:
        try:
            d = yaml.safe_load(t)
        except yaml.YAMLError:
            continue
        if isinstance(d, dict):
            for k in d:
                if isinstance(k, str) and k != "lookup_options" and k not in keys:
                    keys.append(k)
    return keys


def run_oracle(cases):
    """cases: [{"name", "files": [{"name","text"}], "merge", "keys"}] -> {name: {key: result}}."""
    root = tempfile.mkdtemp(prefix="cf-hiera-")
    try:
        for sub in ("confdir", "vardir"):
            os.makedirs(os.path.join(root, sub))
        jobs = []
        for c in cases:
            env = os.path.join(root, "codedir", "environments", c["name"])
            os.makedirs(os.path.join(env, "data"))
            names = [f["name"] for f in c["files"]]
            with open(os.path.join(env, "hiera.yaml"), "w") as fh:
                fh.write(hiera_yaml(names))
            for f in c["files"]:
                with open(os.path.join(env, "data", f["name"]), "w") as fh:
                    fh.write(f["text"])
            if c["keys"]:
                jobs.append({"env": c["name"], "keys": c["keys"], "merge": c["merge"]})
        p = subprocess.run(["ruby", ORACLE, root], input=json.dumps(jobs), capture_output=True,
                           text=True, check=False)
        out = {}
        for line in p.stdout.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            res = {"ok": r["ok"]}
            if r["ok"]:
                res["json"] = r["json"]
            else:
                res["error"] = r["error"].splitlines()[0][:300] if r["error"] else r["class"]
            if r.get("key") is None:
                # the whole environment failed: every key
                for k in next(c["keys"] for c in cases if c["name"] == r["env"]):
                    out.setdefault(r["env"], {})[k] = res
            else:
                out.setdefault(r["env"], {})[r["key"]] = res
        if p.returncode != 0 and not out:
            sys.stderr.write(p.stderr[-3000:])
            raise SystemExit("hiera oracle failed")
        return out
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---- generation

TOP_KEYS = ["k1", "k2", "app_port", "app_x", "other"]
SUB_KEYS = ["p", "q", "r", "s"]
PREFIXES = ["--"] * 8 + ["!", "-", ".", "~~", "x"]
PATTERNS = ["^app_", "^app_p", "^k", "^o", "^app_.*t$", "^[ko]"]


class Gen:
    def __init__(self, rnd, prefix):
        self.r = rnd
        self.prefix = prefix

    def scalar(self):
        r, p = self.r, self.prefix
        return r.choice([
            "a", "b", "c", "x", "a", "b",
            p + "a", p + "b", p + "x", p + "a", p, p + p + "a",
            "--a", "1", "", p + "1", "a\n" + p + "b", p + "a\n" + p + "b",
            1, 2, 3, 1, 0, 1.5, 1.0, 2.0,
            True, False, None,
        ])

    def value(self, depth=0):
        r = self.r
        roll = r.random()
        if depth >= 3 or roll < 0.35:
            return self.scalar()
        if roll < 0.7:
            n = r.randint(0, 4)
            items = []
            for _ in range(n):
                x = r.random()
                if x < 0.75 or depth >= 2:
                    items.append(self.scalar())
                elif x < 0.88:
                    items.append(self.value(depth + 1) if r.random() < 0.5 else [self.scalar(), self.scalar()])
                else:
                    items.append(self.hash(depth + 1))
            if r.random() < 0.15 and depth < 2:
                items = [self.hash(depth + 1) for _ in range(r.randint(1, 3))]
            return items
        return self.hash(depth + 1)

    def hash(self, depth):
        r = self.r
        keys = r.sample(SUB_KEYS, r.randint(0, 3))
        return {k: self.value(depth + 1) for k in keys}

    def merge_value(self):
        r = self.r
        x = r.random()
        if x < 0.15:
            return "first"
        if x < 0.35:
            return "unique"
        if x < 0.5:
            return "hash"
        if x < 0.7:
            return "deep"
        d = {"strategy": "deep"}
        if r.random() < 0.6:
            d["knockout_prefix"] = self.prefix
        if r.random() < 0.25:
            d["sort_merged_arrays"] = True
        if r.random() < 0.3:
            d["merge_hash_arrays"] = True
        if r.random() < 0.03:
            d = r.choice([{"strategy": "bogus"}, {"strategy": "unique", "knockout_prefix": "--"},
                          "bogus", {"knockout_prefix": "--"}, {"strategy": "deep", "knockout_prefix": ""}])
        return d

    def lookup_options(self):
        r = self.r
        lo = {}
        for _ in range(r.randint(1, 3)):
            k = r.choice(TOP_KEYS + PATTERNS + PATTERNS)
            y = r.random()
            if y < 0.05:
                lo[k] = None
            elif y < 0.08:
                lo[k] = "deep"
            elif y < 0.12:
                lo[k] = {"convert": 1}
            else:
                lo[k] = {"merge": self.merge_value()}
        return lo


def gen_case(rnd, i):
    prefix = rnd.choice(PREFIXES)
    g = Gen(rnd, prefix)
    nfiles = rnd.choice([1, 2, 2, 3, 3, 3, 4, 4])
    keys = rnd.sample(TOP_KEYS, rnd.randint(1, 3))
    files = []
    for n in range(nfiles):
        x = rnd.random()
        if x < 0.02:
            doc = rnd.choice([["a", "b"], "text", 3])
        else:
            doc = {}
            for k in keys:
                if rnd.random() < 0.65:
                    doc[k] = g.value()
            if rnd.random() < 0.3:
                doc["lookup_options"] = g.lookup_options()
            if rnd.random() < 0.03:
                doc["lookup_options"] = rnd.choice([["x"], "deep", None, {"^(": {"merge": "deep"}},
                                                   {"k1": {"merge": {"strategy": "deep", "foo": 1}}}])
        text = json.dumps(doc) + "\n" if rnd.random() < 0.5 else yaml.safe_dump(doc, sort_keys=False)
        files.append({"name": f"{n + 1:02d}.yaml", "text": text})
    y = rnd.random()
    if y < 0.3:
        merge = None
    elif y < 0.4:
        merge = "first"
    elif y < 0.55:
        merge = "unique"
    elif y < 0.65:
        merge = "hash"
    else:
        merge = {"strategy": "deep", "sort_merged_arrays": rnd.random() < 0.25,
                 "merge_hash_arrays": rnd.random() < 0.3}
        if rnd.random() < 0.7:
            merge["knockout_prefix"] = prefix
    texts = [f["text"] for f in files]
    return {"name": f"c{i:05d}", "files": files, "merge": merge, "keys": data_keys(texts)}


def cmd_gen(args):
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    count = int(args[args.index("--count") + 1]) if "--count" in args else 300
    out = args[args.index("--out") + 1]
    rnd = random.Random(seed)
    cases = [gen_case(rnd, i) for i in range(count)]
    results = {}
    for start in range(0, len(cases), 400):
        results.update(run_oracle(cases[start:start + 400]))
    for c in cases:
        c["results"] = results.get(c["name"], {})
    with open(out, "w") as fh:
        json.dump({"seed": seed, "cases": cases}, fh)


def fixture_case(d):
    files = sorted(f for f in os.listdir(d) if f.endswith(".yaml"))
    texts = []
    for f in files:
        with open(os.path.join(d, f)) as fh:
            texts.append({"name": f, "text": fh.read()})
    merge = None
    mp = os.path.join(d, "merge.json")
    if os.path.exists(mp):
        with open(mp) as fh:
            merge = json.load(fh)
    name = "f" + "".join(ch if ch.isalnum() else "_" for ch in os.path.basename(d.rstrip("/"))).lower()
    return {"name": name, "files": texts, "merge": merge,
            "keys": data_keys([t["text"] for t in texts])}


def write_expected(d, case, res):
    exp = [dict(key=k, **res.get(k, {"ok": False, "error": "no answer"})) for k in case["keys"]]
    with open(os.path.join(d, "expected.json"), "w") as fh:
        json.dump(exp, fh, indent=1)
        fh.write("\n")


def cmd_record(dirs):
    cases = [fixture_case(d) for d in dirs]
    res = run_oracle(cases)
    for d, c in zip(dirs, cases):
        write_expected(d, c, res.get(c["name"], {}))


def cmd_promote(args):
    src, outdir, names = args[0], args[1], args[2:]
    with open(src) as fh:
        cases = {c["name"]: c for c in json.load(fh)["cases"]}
    dirs = []
    for n in names:
        c = cases[n]
        d = os.path.join(outdir, n)
        os.makedirs(d, exist_ok=True)
        for f in c["files"]:
            with open(os.path.join(d, f["name"]), "w") as fh:
                fh.write(f["text"])
        with open(os.path.join(d, "merge.json"), "w") as fh:
            json.dump(c["merge"], fh)
            fh.write("\n")
        dirs.append(d)
    cmd_record(dirs)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cmd, rest = sys.argv[1], sys.argv[2:]
    if cmd == "gen":
        cmd_gen(rest)
    elif cmd == "record":
        cmd_record(rest)
    elif cmd == "promote":
        cmd_promote(rest)
    else:
        sys.exit(__doc__)
