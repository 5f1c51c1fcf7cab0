#!/usr/bin/env python3
"""MIME oracle: how CPython's `email` package (as cloud-init uses it) reads documents.

Reads JSON lines, each a JSON string (one MIME document), from stdin or the files
given; prints one canonical JSON description per document (one line each):

  {"error": "<ExceptionClass>"}                    if message_from_string raised
  {"parts": [<part>, ...]}                         the walk() list, where part =
    {"depth", "headers": [[name, value], ...] (items()), "unixfrom",
     "content_type", "default_type", "is_multipart", "filename", "boundary_param",
     "boundary", "cte", "payload" (get_payload() for leaves, else null),
     "decoded" (base64 of get_payload(decode=True) for leaves, else null),
     "preamble", "epilogue", "defects" (class names after parsing),
     "decode_defects" (class names get_payload(decode=True) added)}
  A value whose computation raised is {"error": "<ExceptionClass>"}.

Used by tests/oracle/mime_differential.rs and to record fixtures/mime/*.json.
"""
import base64
import email
import json
import sys


def guarded(fn):
    try:
        v = fn()
    except Exception as e:  # noqa: BLE001 - the exception class is the answer
        return {"error": type(e).__name__}
    if isinstance(v, tuple):
        return list(v)
    return v


def describe_part(part, depth):
    defects = [type(d).__name__ for d in part.defects]
    d = {
        "depth": depth,
        "headers": [[k, v] for k, v in part.items()],
        "unixfrom": part.get_unixfrom(),
        "content_type": part.get_content_type(),
        "default_type": part.get_default_type(),
        "is_multipart": part.is_multipart(),
        "filename": guarded(part.get_filename),
        "boundary_param": guarded(lambda: part.get_param("boundary")),
        "boundary": guarded(part.get_boundary),
        "cte": part.get("Content-Transfer-Encoding"),
        "payload": None,
        "decoded": None,
        "preamble": part.preamble,
        "epilogue": part.epilogue,
        "defects": defects,
        "decode_defects": [],
    }
    if not part.is_multipart():
        d["payload"] = part.get_payload()
        n = len(part.defects)
        d["decoded"] = base64.b64encode(part.get_payload(decode=True)).decode("ascii")
        d["decode_defects"] = [type(x).__name__ for x in part.defects[n:]]
    return d


def walk_depth(msg, depth, out):
    # Same order as Message.walk(), with depths; iterative (no recursion limit).
    stack = [(msg, 0)]
    while stack:
        m, dep = stack.pop()
        out.append(describe_part(m, dep))
        if m.is_multipart():
            for sub in reversed(m.get_payload()):
                stack.append((sub, dep + 1))


def describe(text):
    try:
        msg = email.message_from_string(text)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    parts = []
    walk_depth(msg, 0, parts)
    return {"parts": parts}


def main():
    sys.setrecursionlimit(10000)
    files = sys.argv[1:] or ["-"]
    for f in files:
        fh = sys.stdin if f == "-" else open(f, encoding="utf-8")
        for line in fh:
            if not line.strip():
                continue
            doc = json.loads(line)
            print(json.dumps(describe(doc), ensure_ascii=False, sort_keys=True))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
