#!/usr/bin/env python3
"""Record PyYAML 6.0.3's outcome for every case of the YAML loader corpus.

    python3 scripts/yaml_expect.py [fixtures/yaml]

Reads <dir>/corpus.jsonl ({"name", "doc"|"b64"} per line) and writes
<dir>/expected.jsonl, line n answering case n in the format documented in
scripts/yaml_oracle.py (which does the loading and encoding).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import yaml_oracle  # noqa: E402


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "yaml")
    with open(os.path.join(d, "corpus.jsonl"), encoding="utf-8") as f:
        cases = [json.loads(l) for l in f if l.strip()]
    with open(os.path.join(d, "expected.jsonl"), "w", encoding="utf-8") as out:
        for case in cases:
            out.write(json.dumps(yaml_oracle.run_case(case), ensure_ascii=True) + "\n")
    print("recorded %d cases" % len(cases))


if __name__ == "__main__":
    main()
