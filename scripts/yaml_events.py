#!/usr/bin/env python3
"""PyYAML's parse events, one canonical line per event, for differential tests.

Usage:
  yaml_events.py < cases.jsonl > expected.jsonl
      Each input line is a JSON object: {"doc": "<text>"} (parsed as a Python str)
      or {"b64": "<base64>"} (parsed as bytes, exercising PyYAML's decoding).
      Other keys (e.g. "name") are ignored. Each output line is a JSON list of
      event lines for the matching input line.
  yaml_events.py FILE...
      Print the event lines of each file (read as bytes).

Event line format (all strings JSON-encoded with ensure_ascii; marks are
line:column:index, 0-based, index in code points):
  StreamStart @S-E
  DocumentStart explicit=0|1 version=-|M.m @S-E
  DocumentEnd explicit=0|1 @S-E
  Alias anchor="a" @S-E
  Scalar anchor=-|"a" tag=-|"t" implicit=TF style=plain|single|double|literal|folded value="v" @S-E
  SequenceStart|MappingStart anchor=... tag=... implicit=0|1 flow=0|1 @S-E
  SequenceEnd|MappingEnd @S-E
  ERROR ReaderError problem="unacceptable character #x..: reason" position=N
  ERROR ScannerError|ParserError context=-|"c" @L:C:I|- problem="p" @L:C:I|-
  ERROR OtherClass problem="str(exc)"
"""
import base64
import json
import sys

import yaml

STYLES = {None: "plain", "": "plain", "'": "single", '"': "double", "|": "literal", ">": "folded"}


def s(v):
    return "-" if v is None else json.dumps(v, ensure_ascii=True)


def m(mark):
    return "-" if mark is None else "%d:%d:%d" % (mark.line, mark.column, mark.index)


def span(ev):
    return "@%s-%s" % (m(ev.start_mark), m(ev.end_mark))


def event_line(ev):
    name = type(ev).__name__[: -len("Event")]
    if name in ("StreamStart", "StreamEnd", "SequenceEnd", "MappingEnd"):
        return "%s %s" % (name, span(ev))
    if name == "DocumentStart":
        ver = "-" if ev.version is None else "%d.%d" % ev.version
        return "DocumentStart explicit=%d version=%s %s" % (ev.explicit, ver, span(ev))
    if name == "DocumentEnd":
        return "DocumentEnd explicit=%d %s" % (ev.explicit, span(ev))
    if name == "Alias":
        return "Alias anchor=%s %s" % (s(ev.anchor), span(ev))
    if name == "Scalar":
        imp = "".join("T" if x else "F" for x in ev.implicit)
        return "Scalar anchor=%s tag=%s implicit=%s style=%s value=%s %s" % (
            s(ev.anchor), s(ev.tag), imp, STYLES[ev.style], s(ev.value), span(ev))
    # SequenceStart / MappingStart
    return "%s anchor=%s tag=%s implicit=%d flow=%d %s" % (
        name, s(ev.anchor), s(ev.tag), bool(ev.implicit), bool(ev.flow_style), span(ev))


def error_line(exc):
    cls = type(exc).__name__
    if isinstance(exc, yaml.reader.ReaderError):
        first = str(exc).split("\n")[0]
        return "ERROR ReaderError problem=%s position=%d" % (s(first), exc.position)
    if isinstance(exc, yaml.MarkedYAMLError):
        return "ERROR %s context=%s @%s problem=%s @%s" % (
            cls, s(exc.context), m(exc.context_mark), s(exc.problem), m(exc.problem_mark))
    return "ERROR %s problem=%s" % (cls, s(str(exc)))


def events(stream):
    out = []
    try:
        for ev in yaml.parse(stream, Loader=yaml.SafeLoader):
            out.append(event_line(ev))
    except Exception as exc:  # every rejection is part of the expected output
        out.append(error_line(exc))
    return out


def main():
    if len(sys.argv) > 1:
        for path in sys.argv[1:]:
            with open(path, "rb") as f:
                print("# " + path)
                for line in events(f.read()):
                    print(line)
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        stream = base64.b64decode(case["b64"]) if "b64" in case else case["doc"]
        sys.stdout.write(json.dumps(events(stream), ensure_ascii=True) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
