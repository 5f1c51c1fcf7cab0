#!/usr/bin/env python3
"""Differential oracle for cloudfold's YAML emitter (PyYAML 6.0.3 SafeDumper).

Modes:
  gen --seed S --count N   random values, one JSON line each:
      {"value": <typed JSON>, "cloud_init": <safeyaml.dumps output or null>,
       "readable": <PyYAML dump with the readable options or null>,
       "loadable": <whether SafeLoader could have built the value>}
  load                     stdin: JSON lines {"text": ...}; stdout: one line per
      input, {"value": <typed JSON of yaml.safe_load(text)>} or {"error": ...}
  fixtures DIR             (re)write the hand-picked cases of DIR/cases.py as
      DIR/<name>.json: {"value", "cloud_init", "readable"}

Typed JSON is cloudfold's mapping (src/yaml/typed_json.rs), extended for shared
objects: the first occurrence of an object referenced more than once is
{"$def": "sN", "$value": ...}, later ones {"$ref": "sN"} (recursion allowed).

"cloud_init" is null when PyYAML's output depends on Python's set iteration
order (a set of 2+ items it cannot sort). "readable" is null when PyYAML's
output is not what cloudfold's readable preset writes on purpose: sets of 2+
items (hash order), tuples (we write lists of pairs as !!pairs), U+0085 (we
escape it).
"""
import base64
import datetime
import json
import math
import os
import random
import sys

import yaml


def dump_cloud_init(obj):
    return yaml.dump(obj, line_break="\n", indent=4, explicit_start=True,
                     explicit_end=True, default_flow_style=False,
                     Dumper=yaml.SafeDumper)


def dump_readable(obj):
    return yaml.dump(obj, line_break="\n", indent=2, default_flow_style=False,
                     sort_keys=False, allow_unicode=True, Dumper=yaml.SafeDumper)


# ---------------------------------------------------------------- typed JSON

def canon(j):
    return json.dumps(j, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def has_surrogates(s):
    return any(0xD800 <= ord(c) <= 0xDFFF for c in s)


def enc_str(s):
    if not has_surrogates(s):
        return s
    try:
        raw = s.encode("utf-8", "surrogateescape")
        return {"$str_surrogateescape_b64": base64.b64encode(raw).decode()}
    except UnicodeEncodeError:
        return {"$str_codepoints": [ord(c) for c in s]}


def enc_float(f):
    if math.isnan(f):
        return {"$float": "nan"}
    if math.isinf(f):
        return {"$float": "inf" if f > 0 else "-inf"}
    return f


ALIASABLE = (list, dict, set, tuple, datetime.date)


def aliasable(v):
    if isinstance(v, tuple):
        return len(v) > 0
    return isinstance(v, ALIASABLE)


class Encoder:
    def __init__(self, root):
        self.count = {}
        self._count(root)
        self.names = {}

    def _count(self, root):
        stack = [root]
        while stack:
            v = stack.pop()
            if not aliasable(v):
                continue
            n = self.count.get(id(v), 0)
            self.count[id(v)] = n + 1
            if n:
                continue
            if isinstance(v, dict):
                for k, x in v.items():
                    stack.append(k)
                    stack.append(x)
            elif isinstance(v, (list, tuple, set)):
                stack.extend(v)

    def key(self, k):
        if isinstance(k, str):
            if has_surrogates(k):
                return "$json:" + canon(enc_str(k))
            return "$str:" + k if k.startswith("$") else k
        if k is None:
            return "$null"
        if isinstance(k, bool):
            return "$bool:" + ("true" if k else "false")
        if isinstance(k, int):
            return "$int:%d" % k
        if isinstance(k, float):
            return "$float:" + repr(k)
        if isinstance(k, bytes):
            return "$bytes_b64:" + base64.b64encode(k).decode()
        if isinstance(k, datetime.datetime):
            return "$datetime:" + k.isoformat()
        if isinstance(k, datetime.date):
            return "$date:" + k.isoformat()
        return "$json:" + canon(self.enc(k, shared=False))

    def enc(self, v, shared=True):
        if shared and aliasable(v) and self.count.get(id(v), 0) > 1:
            name = self.names.get(id(v))
            if name is not None:
                return {"$ref": name}
            name = self.names[id(v)] = "s%d" % (len(self.names) + 1)
            return {"$def": name, "$value": self.enc(v, shared=False)}
        if v is None or isinstance(v, bool):
            return v
        if isinstance(v, int):
            if -2**63 <= v < 2**64:
                return v
            return {"$bigint": str(v)}
        if isinstance(v, float):
            return enc_float(v)
        if isinstance(v, str):
            return enc_str(v)
        if isinstance(v, bytes):
            return {"$bytes_b64": base64.b64encode(v).decode()}
        if isinstance(v, datetime.datetime):
            return {"$datetime": v.isoformat()}
        if isinstance(v, datetime.date):
            return {"$date": v.isoformat()}
        if isinstance(v, list):
            return [self.enc(x) for x in v]
        if isinstance(v, tuple):
            return {"$tuple": [self.enc(x) for x in v]}
        if isinstance(v, set):
            return {"$set": sorted((self.enc(x) for x in v), key=canon)}
        if isinstance(v, dict):
            return {self.key(k): self.enc(x) for k, x in v.items()}
        raise TypeError(type(v))


def typed(v):
    return Encoder(v).enc(v)


# ---------------------------------------------------------------- checks

def walk(v):
    seen = set()
    stack = [v]
    while stack:
        x = stack.pop()
        if aliasable(x):
            if id(x) in seen:
                continue
            seen.add(id(x))
        yield x
        if isinstance(x, dict):
            for k, y in x.items():
                stack.append(k)
                stack.append(y)
        elif isinstance(x, (list, tuple, set)):
            stack.extend(x)


def unsortable_set(s):
    if len(s) < 2:
        return False
    if any(isinstance(x, float) and math.isnan(x) for x in s):
        return True
    try:
        sorted(s)
        return False
    except TypeError:
        return True


def is_pairs_list(x):
    return isinstance(x, list) and x and all(isinstance(t, tuple) and len(t) == 2 for t in x)


def loadable(v):
    """Whether SafeLoader could have built v: tuples only as the items of
    !!omap/!!pairs lists, each made afresh (never shared)."""
    seen = {}
    if isinstance(v, tuple):
        return False
    for x in walk(v):
        kids = []
        if isinstance(x, dict):
            kids = [y for kv in x.items() for y in kv]
        elif isinstance(x, (list, tuple, set)):
            kids = list(x)
        for k in kids:
            if isinstance(k, tuple):
                if not is_pairs_list(x) or id(k) in seen:
                    return False
                seen[id(k)] = True
    return True


def readable_expressible(v):
    for x in walk(v):
        if isinstance(x, set) and len(x) > 1:
            return False
        if isinstance(x, tuple):
            return False
        if isinstance(x, str) and "\x85" in x:
            return False
    return True


def record(v):
    ci = None
    if not any(isinstance(x, set) and unsortable_set(x) for x in walk(v)):
        ci = dump_cloud_init(v)
    rd = dump_readable(v) if readable_expressible(v) else None
    return {"value": typed(v), "cloud_init": ci, "readable": rd, "loadable": loadable(v)}


# ---------------------------------------------------------------- generator

LOOKALIKES = [
    "yes", "No", "ON", "off", "true", "False", "null", "Null", "~", "", "=", "<<",
    "0644", "0o17", "0x1F", "0b101", "1_000", "1:30", "-1:30:59", "1:60", "12",
    "-7", "+3", "1.5", "1.", ".5", "-.5", "1e3", "1.0e+3", "1.0E-3", ".inf", "-.Inf",
    ".NaN", "nan", "inf", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5", "2001-1-1 1:02:03", "2001-1-1", "0_", "08", "y", "n",
    "---", "...", "--- a", "... b", "-", "- x", "?", "? x", ":", ": x", "a: b", "a:b",
    "#x", "a #b", "a#b", "&a", "*a", "!a", "|", ">", "%x", "@x", "`x", "'q'", '"q"',
    "[a]", "{a}", "a,b", "a, b", ", a",
]

FRAGMENTS = [
    "a", "b", "word", "cloud", " ", " ", "  ", "\n", "\n\n", "\t", "\r", "\r\n", ":",
    ": ", " #", "#", "-", "- ", "'", '"', "\\", ",", "[", "]", "{", "}", "?", "!", "&",
    "*", "|", ">", "%", "@", "`", "é", "ü", "€", "日本", "\U0001F600", "\xa0", "\x85",
    "\u2028", "\u2029", "\ufeff", "\x00", "\x07", "\x1b", "\x7f", "\x9f", "\ud800",
    "\udc80", "\udcff", "\ue000", "\ufffd", "\ufffe", "\U0010ffff", "\U000e0001",
    "x" * 40, "y" * 90, "z" * 130, "01", "1.5", "yes", "null",
]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.pool = []  # aliasable objects made so far
        self.open = []  # mutable containers being filled (for recursion)

    def text(self):
        r = self.r
        k = r.random()
        if k < 0.2:
            return r.choice(LOOKALIKES)
        if k < 0.3:
            # Long lines of words for folding.
            words = [r.choice(["a", "bb", "word", "x" * r.randint(1, 30), "é", "€uro"])
                     for _ in range(r.randint(5, 60))]
            seps = [r.choice([" ", " ", " ", "  ", "\n", " \n"]) if r.random() < 0.2 else " "
                    for _ in words]
            return "".join(w + s for w, s in zip(words, seps)).strip(r.choice(["", " ", "\n"]))
        if k < 0.45:
            return r.choice(["ubuntu", "packages", "runcmd", "ssh_authorized_keys",
                             "ssh-rsa AAAAB3NzaC1yc2E user@host", "/etc/hosts",
                             "echo hello > /tmp/x", "0.0.0.0/0", "http://x.y/z?a=b#c"])
        return "".join(r.choice(FRAGMENTS) for _ in range(r.randint(1, 8)))

    def number(self):
        r = self.r
        k = r.random()
        if k < 0.4:
            return r.choice([0, 1, -1, 7, 42, 493, 10**6, 2**63, -2**63, 2**64, 10**30, -10**25])
        if k < 0.5:
            return r.randint(-10**6, 10**6)
        return r.choice([0.0, -0.0, 1.0, 1.5, -2.25, 0.1, 1e16, 1e17, 1e15, 1e-5, 1.5e-7,
                         1e100, 123456789.125, float("inf"), float("-inf"), float("nan"),
                         r.uniform(-1e6, 1e6), r.random() * 10 ** r.randint(-20, 20)])

    def date(self):
        r = self.r
        d = datetime.date(r.choice([1, 999, 2001, 2024, 9999]), r.randint(1, 12), r.randint(1, 28))
        if r.random() < 0.4:
            return d
        tz = None
        if r.random() < 0.5:
            tz = datetime.timezone(datetime.timedelta(minutes=r.choice([0, 60, -300, 330, -59])))
        return datetime.datetime(d.year, d.month, d.day, r.randint(0, 23), r.randint(0, 59),
                                 r.randint(0, 59), r.choice([0, 0, 100000, 1, 999999]), tz)

    def hashable(self):
        r = self.r
        k = r.random()
        if k < 0.55:
            return self.text()
        if k < 0.75:
            return self.number()
        if k < 0.8:
            return r.choice([None, True, False])
        if k < 0.9:
            return self.date()
        return bytes(r.randint(0, 255) for _ in range(r.randint(0, 70)))

    def scalar(self):
        return self.hashable()

    def value(self, depth):
        r = self.r
        if self.pool and r.random() < 0.05:
            return r.choice(self.pool)
        if self.open and r.random() < 0.01:
            return r.choice(self.open)
        if depth <= 0 or r.random() < 0.45:
            v = self.scalar()
            if isinstance(v, datetime.date):
                self.pool.append(v)
            return v
        k = r.random()
        if k < 0.4:
            v = self.mapping(depth)
        elif k < 0.7:
            v = []
            self.open.append(v)
            for _ in range(r.randint(0, 5)):
                v.append(self.value(depth - 1))
            self.open.pop()
        elif k < 0.8:
            v = [(self.hashable(), self.value(depth - 1)) for _ in range(r.randint(1, 3))]
        elif k < 0.88:
            v = tuple(self.value(depth - 1) for _ in range(r.randint(0, 3)))
        else:
            v = self.set()
        self.pool.append(v)
        return v

    def set(self):
        r = self.r
        kind = r.random()
        if kind < 0.5:
            items = [self.text() for _ in range(r.randint(0, 4))]
        elif kind < 0.8:
            items = [self.number() for _ in range(r.randint(0, 4))]
        else:
            items = [self.hashable() for _ in range(r.randint(0, 3))]
        # Typed JSON cannot tell distinct NaN objects apart: keep one.
        nans = [x for x in items if isinstance(x, float) and math.isnan(x)]
        return {x for x in items if x not in nans} | set(nans[:1])

    def key(self, mode):
        r = self.r
        if mode == "str":
            return self.text()
        if mode == "num":
            return self.number()
        if mode == "date":
            return self.date()
        return self.hashable()

    def mapping(self, depth):
        r = self.r
        d = {}
        self.open.append(d)
        mode = r.choice(["str", "str", "str", "num", "date", "mixed"])
        nan_seen = False
        for _ in range(r.randint(20, 70) if depth <= 2 and r.random() < 0.1 else r.randint(0, 7)):
            key = self.key(mode)
            if isinstance(key, float) and math.isnan(key):
                if nan_seen:
                    continue
                nan_seen = True
            d[key] = self.value(depth - 1)
        self.open.pop()
        return d

    def root(self):
        r = self.r
        self.pool = []
        if r.random() < 0.85:
            return self.mapping(r.randint(1, 5))
        return self.value(r.randint(0, 4))


def gen(seed, count):
    g = Gen(seed)
    out = sys.stdout
    for _ in range(count):
        v = g.root()
        out.write(json.dumps(record(v), ensure_ascii=True) + "\n")


def load():
    for line in sys.stdin:
        text = json.loads(line)["text"]
        try:
            res = {"value": typed(yaml.safe_load(text))}
        except Exception as e:  # noqa: BLE001 - reported to the test
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(res, ensure_ascii=True) + "\n")
        sys.stdout.flush()


def fixtures(folder):
    env = {"datetime": datetime, "math": math}
    with open(os.path.join(folder, "cases.py"), encoding="utf-8") as f:
        exec(f.read(), env)  # defines CASES = {name: value}
    for name, v in env["CASES"].items():
        rec = record(v)
        del rec["loadable"]
        with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(rec, f, ensure_ascii=True, indent=1)
            f.write("\n")


def main():
    args = sys.argv[1:]
    if args[:1] == ["gen"]:
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
        count = int(args[args.index("--count") + 1]) if "--count" in args else 1000
        gen(seed, count)
    elif args[:1] == ["load"]:
        load()
    elif args[:1] == ["fixtures"]:
        fixtures(args[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
