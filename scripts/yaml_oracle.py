#!/usr/bin/env python3
"""PyYAML 6.0.3 `safe_load` oracle for cloudfold's YAML loader tests.

Reads JSON lines on stdin, one case each: {"doc": "<text>"} (loaded as str) or
{"b64": "<base64>"} (loaded as bytes); extra keys are ignored. Writes one JSON
line per case, flushed, in order:

  {"ok": <value>}          the loaded value in cloudfold's type-faithful JSON
                           (src/yaml/typed_json.rs; maps keep their order,
                           sets are sorted), null for an empty stream
  {"ok_text": "<json>"}    as "ok", as compact JSON text, for values nested
                           deeper than 100 levels (serde_json's parse limit)
  {"recursive": true}      loaded, but the value contains itself
  {"err": {"class": "ScannerError", "problem": "...", "line": 0, "column": 3,
           "context": "..." | null, "context_line": ..., "context_column": ...}}
                           line/column are PyYAML's 0-based problem mark
                           (null when the exception has none, e.g. ValueError,
                           whose "problem" is str(exc); for ReaderError the
                           first line of str(exc), without the position)

The pure-Python SafeLoader is used (yaml.safe_load). The recursion limit is
adjusted so that safe_load sees the same stack headroom as a plain top-level
`yaml.safe_load(...)` call under `python3 -c`.
"""
import base64
import datetime
import json
import math
import sys

import yaml

I64_MIN = -(2**63)
U64_MAX = 2**64 - 1
BASE_LIMIT = sys.getrecursionlimit()


class Recursive(Exception):
    pass


def canon(obj):
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def encode(value, path):
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if I64_MIN <= value <= U64_MAX:
            return int(value)
        return {"$bigint": str(int(value))}
    if isinstance(value, float):
        if math.isnan(value):
            return {"$float": "nan"}
        if math.isinf(value):
            return {"$float": "inf" if value > 0 else "-inf"}
        return value
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            try:
                raw = value.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                return {"$str_codepoints": [ord(c) for c in value]}
            return {"$str_surrogateescape_b64": base64.b64encode(raw).decode("ascii")}
        return value
    if isinstance(value, bytes):
        return {"$bytes_b64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, datetime.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"$date": value.isoformat()}
    if id(value) in path:
        raise Recursive()
    path.add(id(value))
    try:
        if isinstance(value, list):
            return [encode(v, path) for v in value]
        if isinstance(value, tuple):
            return {"$tuple": [encode(v, path) for v in value]}
        if isinstance(value, set):
            items = [encode(v, path) for v in value]
            items.sort(key=canon)
            return {"$set": items}
        if isinstance(value, dict):
            return {encode_key(k, path): encode(v, path) for k, v in value.items()}
    finally:
        path.discard(id(value))
    return {"$repr": repr(value), "$type": type(value).__name__}


def encode_key(key, path):
    if isinstance(key, str):
        try:
            key.encode("utf-8")
        except UnicodeEncodeError:
            return "$json:" + canon(encode(key, path))
        return "$str:" + key if key.startswith("$") else key
    if key is None:
        return "$null"
    if isinstance(key, bool):
        return "$bool:true" if key else "$bool:false"
    if isinstance(key, int):
        return "$int:%d" % key
    if isinstance(key, float):
        if math.isnan(key):
            return "$float:nan"
        if math.isinf(key):
            return "$float:inf" if key > 0 else "$float:-inf"
        return "$float:" + repr(key)
    if isinstance(key, bytes):
        return "$bytes_b64:" + base64.b64encode(key).decode("ascii")
    if isinstance(key, datetime.datetime):
        return "$datetime:" + key.isoformat()
    if isinstance(key, datetime.date):
        return "$date:" + key.isoformat()
    return "$json:" + canon(encode(key, path))


DEEP = 100


def depth(j):
    if isinstance(j, list):
        return 1 + max((depth(x) for x in j), default=0)
    if isinstance(j, dict):
        return 1 + max((depth(x) for x in j.values()), default=0)
    return 0


def stack_depth():
    f, n = sys._getframe(1), 0
    while f is not None:
        n, f = n + 1, f.f_back
    return n


def error_of(exc):
    err = {"class": type(exc).__name__, "problem": str(exc), "line": None,
           "column": None, "context": None, "context_line": None,
           "context_column": None}
    if isinstance(exc, yaml.reader.ReaderError):
        # Not a MarkedYAMLError: str() ends with the position, which counts
        # bytes or characters depending on the input; keep the first line.
        err["problem"] = str(exc).split("\n")[0]
    if isinstance(exc, yaml.MarkedYAMLError):
        err["problem"] = exc.problem
        if exc.problem_mark is not None:
            err["line"] = exc.problem_mark.line
            err["column"] = exc.problem_mark.column
        err["context"] = exc.context
        if exc.context_mark is not None:
            err["context_line"] = exc.context_mark.line
            err["context_column"] = exc.context_mark.column
    return err


def run_case(case):
    data = case["doc"] if "doc" in case else base64.b64decode(case["b64"])
    # Same headroom as `python3 -c 'yaml.safe_load(...)'` (one frame deep).
    sys.setrecursionlimit(BASE_LIMIT + stack_depth() - 1)
    try:
        value = yaml.safe_load(data)
    except Exception as exc:  # noqa: BLE001 - every class is an outcome
        sys.setrecursionlimit(BASE_LIMIT)
        return {"err": error_of(exc)}
    sys.setrecursionlimit(100000)
    try:
        enc = encode(value, set())
        if depth(enc) > DEEP:
            # serde_json refuses to parse deeper than 128 levels: send text.
            return {"ok_text": json.dumps(enc, ensure_ascii=False, separators=(",", ":"))}
        return {"ok": enc}
    except Recursive:
        return {"recursive": True}
    finally:
        sys.setrecursionlimit(BASE_LIMIT)


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            res = run_case(json.loads(line))
        except Exception as exc:  # noqa: BLE001 - oracle must answer every line
            res = {"oracle_error": repr(exc)}
        out.write(json.dumps(res, ensure_ascii=True) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
