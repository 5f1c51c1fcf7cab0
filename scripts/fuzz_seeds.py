#!/usr/bin/env python3
"""Assemble fuzz seed corpora from fixtures/ (generated, never committed).

usage: scripts/fuzz_seeds.py [OUT_DIR]   (default: fuzz/corpus, which .gitignore excludes)

One file per seed, named by a content hash so re-running is idempotent.
Targets: yaml_load, mime_parse, merge_spec, render, build_roundtrip, jinja_render, seed_image.
Regression fixtures (fixtures/fuzz-regressions/<target>/) are added to their target too.
"""
import hashlib
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "fuzz", "corpus")
MAX_SEED = 64 * 1024  # libFuzzer's default -max_len is 4096 anyway; keep seeds small

seeds = {t: set() for t in ("yaml_load", "mime_parse", "merge_spec", "render", "build_roundtrip",
                            "jinja_render", "seed_image")}


def add(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) <= MAX_SEED:
        seeds[target].add(data)


def fixture(*parts):
    return os.path.join(ROOT, "fixtures", *parts)


def jsonl_docs(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


# YAML documents: both loader corpora; a YAML document is also a render input.
for corpus in ("yaml", "yaml-events"):
    path = fixture(corpus, "corpus.jsonl")
    if os.path.exists(path):
        for case in jsonl_docs(path):
            doc = case.get("doc")
            if isinstance(doc, str):
                add("yaml_load", doc)
                add("render", doc)

# MIME messages and CLI inputs: the MIME reader and the whole fold.
for dirpath, _dirs, files in os.walk(fixture("mime")):
    for name in files:
        if name.endswith(".eml"):
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            add("mime_parse", data)
            add("render", data)
for dirpath, _dirs, files in os.walk(fixture("cli")):
    for name in files:
        if name.endswith((".in", ".yaml", ".yml", ".txt", ".eml", ".mime", ".gz")) or "." not in name:
            with open(os.path.join(dirpath, name), "rb") as f:
                data = f.read()
            add("render", data)
            add("mime_parse", data)
            add("yaml_load", data)

# Merge specs: the string form of every typed merge vector.
path = fixture("merge", "typed-vectors.json")
if os.path.exists(path):
    with open(path, encoding="utf-8") as f:
        for case in json.load(f).get("cases", []):
            spec = case.get("mergers")
            if isinstance(spec, str):
                add("merge_spec", spec)
for spec in ("dict(replace)+list(append)", "list(append)+dict(recurse_array)+str()",
             "dict(no_replace,recurse_list)", "dict(", "list(apend)", ")(", "+" * 64):
    add("merge_spec", spec)

# Templates: instance data, NUL, template text (the jinja_render target's input).
inst = b'{"v1": {"region": "eu-1", "a-b": [1, 2]}, "ds": {"meta_data": {"x.y": 1.5}}}'
for t in (b"{{ v1.region }} {{ missing }}", b"{% for k in v1 %}{{ k|upper }}{% endfor %}",
          b"{{ v1.a_b|tojson }} {{ ds.meta_data.x_y * 2 }}", b"{{ foo-bar }}", b"{{ a b }}",
          b"{% macro m(n) %}{{ m(n) }}{% endmacro %}{{ m(1) }}", b"{{ range(10**9)|list }}",
          b"{%- if v1 is defined -%}\n#cloud-config\n{%- endif %}", b"{{ '1e500'|int }}"):
    add("jinja_render", inst + b"\0" + t)
for dirpath, _dirs, files in os.walk(os.path.join(ROOT, "examples", "jinja")):
    for name in files:
        with open(os.path.join(dirpath, name), "rb") as f:
            add("jinja_render", inst + b"\0" + f.read())
# Seed images (ours and other tools'), in the seed_image target's layout: b"\0" + the ISO from
# sector 16 on, b"\1" + a FAT image; trailing zeros dropped (reads past the end are errors too).
for dirpath, _dirs, files in os.walk(fixture("cli")):
    for name in sorted(files):
        if name.endswith((".iso", ".img")):
            with open(os.path.join(dirpath, name), "rb") as f:
                img = f.read()
            if name.endswith(".iso"):
                add("seed_image", b"\0" + img[32768:].rstrip(b"\0"))
            else:
                add("seed_image", b"\1" + img.rstrip(b"\0"))

# Regression fixtures found by earlier campaigns.
reg = fixture("fuzz-regressions")
if os.path.isdir(reg):
    for target in os.listdir(reg):
        if target in seeds:
            for dirpath, _dirs, files in os.walk(os.path.join(reg, target)):
                for name in files:
                    if name.endswith(".md"):
                        continue
                    with open(os.path.join(dirpath, name), "rb") as f:
                        add(target, f.read())

for target, datas in seeds.items():
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    for data in datas:
        name = hashlib.sha1(data).hexdigest()
        p = os.path.join(d, name)
        if not os.path.exists(p):
            with open(p, "wb") as f:
                f.write(data)
    print(f"{target}: {len(datas)} seeds -> {d}")
