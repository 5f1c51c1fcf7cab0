#!/usr/bin/env python3
"""Print the Rust tables of non-ASCII code points that Python's `re` puts in `\\w` (str.isalnum())
and `\\d` (str.isdecimal()), as inclusive ranges. Output goes to src/python/word_table.rs;
regenerate with the CPython whose regexes we mirror (tests/oracle/python_tables.rs fails when
the two differ)."""
import sys


def ranges(pred):
    out = []
    start = None
    for c in range(0x80, 0x110000):
        hit = pred(chr(c))
        if hit and start is None:
            start = c
        if not hit and start is not None:
            out.append((start, c - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out


print("//! `ALNUM`, `DECIMAL`: non-ASCII code points in Python's `re` classes `\\w` and `\\d` (generated")
print(f"//! by scripts/gen_word_table.py from CPython {sys.version.split()[0]}; do not edit).")
for name, what, pred in (
    ("ALNUM", "`str.isalnum()` (`\\w` without `_`)", str.isalnum),
    ("DECIMAL", "`str.isdecimal()` (`\\d`)", str.isdecimal),
):
    print()
    print(f"/// Sorted inclusive ranges of code points above U+007F where {what} holds.")
    print(f"pub(crate) const {name}: &[(u32, u32)] = &[")
    for a, b in ranges(pred):
        print(f"    (0x{a:X}, 0x{b:X}),")
    print("];")
