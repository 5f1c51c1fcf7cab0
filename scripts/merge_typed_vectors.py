#!/usr/bin/env python3
"""Record cloud-init's merger results on values JSON cannot hold plainly.

Writes fixtures/merge/typed-vectors.json: random merges over tuples, sets,
bytes, floats, non-string keys and list-form specs, run through the real
cloud-init mergers (the oracle's extracted package) and encoded with the
oracle's type-faithful JSON.

Usage: python3 scripts/merge_typed_vectors.py [--release bookworm|trixie] [N]
Needs ../shared/oracle (setup.sh done; $CLOUDFOLD_SHARED overrides ../shared). Deterministic (fixed seed).
"""
import argparse
import copy
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("CLOUDFOLD_SHARED") or os.path.join(HERE, "..", "..", "shared")
ORACLE = os.path.join(SHARED, "oracle")
sys.path.insert(0, ORACLE)
import ci_oracle  # noqa: E402  (encode, import_cloudinit, resolve_root)

ap = argparse.ArgumentParser()
ap.add_argument("--release", default="bookworm")
ap.add_argument("n", nargs="?", type=int, default=1500)
args = ap.parse_args()


class A:
    release = args.release
    ci_root = None


root, dp = ci_oracle.resolve_root(A)
ci_oracle.import_cloudinit(dp)
from cloudinit import mergers  # noqa: E402

rng = random.Random(20261122)
KEYS = ["a", "b", "c", 0, 1, True, 2.0, None, b"k"]


def scalar():
    return rng.choice([None, True, False, 0, 1, -2, 1.5, 0.0, "", "x", "yz",
                       b"", b"ab", 2 ** 70])


def value(depth):
    r = rng.random()
    if depth <= 0 or r < 0.35:
        return scalar()
    n = rng.randint(0, 3)
    kind = rng.choice(["list", "list", "tuple", "dict", "dict", "dict", "set",
                       "str"])
    if kind == "list":
        return [value(depth - 1) for _ in range(n)]
    if kind == "tuple":
        return tuple(value(depth - 1) for _ in range(n))
    if kind == "set":
        # Small ints only: CPython iterates them in ascending order, as the
        # typed JSON ($set sorted) and our insertion order do.
        return set(rng.sample(range(6), n))
    if kind == "str":
        return rng.choice(["ab", "", "q", "xyz"])
    return {rng.choice(KEYS): value(depth - 1) for _ in range(n)}


def spec_string():
    toks = []
    for _ in range(rng.randint(0, 3)):
        name = rng.choice(["dict", "list", "str", "dict", "list"])
        opts = rng.sample(["replace", "no_replace", "append", "prepend",
                           "allow_delete", "recurse_list", "recurse_array",
                           "recurse_str", "recurse_dict"], rng.randint(0, 3))
        toks.append("%s(%s)" % (name, ",".join(opts)))
    return "+".join(toks)


def list_form():
    out = []
    for _ in range(rng.randint(0, 3)):
        name = rng.choice(["dict", "list", "str", "m_dict", "Dict", "", None, 0])
        opts = rng.sample(["replace", "no_replace", "append", "prepend",
                           "allow_delete", "recurse_list", "recurse_str",
                           "recurse_dict", 5], rng.randint(0, 3))
        shape = rng.random()
        if shape < 0.4:
            out.append({"name": name if isinstance(name, str) else "dict",
                        "settings": rng.choice([opts, ",".join(
                            o for o in opts if isinstance(o, str)), {o: 1 for o in opts}])})
        elif shape < 0.8:
            out.append([name] + opts)
        else:
            out.append(tuple([name] + opts))
    return rng.choice([out, out, tuple(out)])


def outcome(fn):
    try:
        return {"result": ci_oracle.encode(fn())}
    except Exception as exc:  # the class is the datum
        return {"error": type(exc).__name__}


cases = []
for i in range(args.n):
    if i % 3 == 2:
        # Handler path: payload spec (list form or string), header, default.
        part = value(2)
        if not isinstance(part, dict):
            part = {"a": part}
        how = list_form() if rng.random() < 0.7 else spec_string()
        part[rng.choice(["merge_how", "merge_type"])] = how
        header = rng.choice(["", spec_string()])
        acc = value(3)
        if not isinstance(acc, dict):
            acc = {"a": acc}
        case = {"id": "part-%04d" % i, "acc": ci_oracle.encode(acc),
                "part": ci_oracle.encode(part), "header": header}

        def run(part=part, header=header, acc=acc):
            payload = copy.copy(part)
            parsed = mergers.dict_extract_mergers(payload)
            parsed = list(parsed) + list(mergers.string_extract_mergers(header))
            if not parsed:
                parsed = mergers.string_extract_mergers("dict(replace)+list()+str()")
            return mergers.construct(parsed).merge(acc, payload)
    else:
        spec = spec_string()
        base, new = value(3), value(3)
        case = {"id": "stack-%04d" % i, "mergers": spec,
                "base": ci_oracle.encode(base), "new": ci_oracle.encode(new)}

        def run(spec=spec, base=base, new=new):
            return mergers.construct(mergers.string_extract_mergers(spec)).merge(base, new)
    case.update(outcome(run))
    cases.append(case)

out = os.path.join(HERE, "..", "fixtures", "merge", "typed-vectors.json")
with open(out, "w", encoding="utf-8") as fh:
    json.dump({"generated_by": "scripts/merge_typed_vectors.py, cloud-init %s" % "+".join(
        ci_oracle.ci_version(root, dp)), "cases": cases}, fh, ensure_ascii=False, indent=0)
    fh.write("\n")
print("wrote %d cases to %s" % (len(cases), out))
