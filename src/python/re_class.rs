//! `py_re_class`: Python `re`'s character classes for `str` patterns (`\w`, `\d`, `\S`, an ASCII letter under `IGNORECASE`) as Rust `regex` classes.
//!
//! Python's `\w` is `str.isalnum()` or `_` and `\d` is `str.isdecimal()`, by
//! CPython 3.11's Unicode tables (`word_table.rs`); the `regex` crate's
//! Unicode classes follow a newer Unicode and other properties (marks are
//! `\w` there), so they are spelled out as ranges. `IGNORECASE` is not the
//! crate's `(?i)` either: Python's `[a-z]` also takes U+0130 and U+0131
//! (`i`), U+017F (`s`) and U+212A (`k`).

use super::space::py_is_space;
use super::word_table::{ALNUM, DECIMAL};
use std::fmt::Write as _;

/// A class of Python's `re`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PyReClass {
    /// `\w`.
    Word,
    /// `\d`.
    Digit,
    /// `\S`.
    NonSpace,
}

/// The class's members, for use inside a `regex` bracket class (`[...]`):
/// ranges written `\x{..}-\x{..}`, so they can be combined with others.
pub(crate) fn py_re_class(class: PyReClass) -> String {
    let mut out = String::new();
    let mut push = |lo: u32, hi: u32| {
        if lo == hi {
            let _ = write!(out, "\\x{{{lo:X}}}");
        } else {
            let _ = write!(out, "\\x{{{lo:X}}}-\\x{{{hi:X}}}");
        }
    };
    match class {
        PyReClass::Word => {
            for (lo, hi) in [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)] {
                push(lo, hi);
            }
            for &(lo, hi) in ALNUM {
                push(lo, hi);
            }
        }
        PyReClass::Digit => {
            push(0x30, 0x39);
            for &(lo, hi) in DECIMAL {
                push(lo, hi);
            }
        }
        PyReClass::NonSpace => {
            // The complement of `str.isspace()`: few code points, all below U+3001.
            let mut lo = 0u32;
            for cp in 0..=0x3000u32 {
                if char::from_u32(cp).is_some_and(py_is_space) {
                    if lo < cp {
                        push(lo, cp - 1);
                    }
                    lo = cp + 1;
                }
            }
            // Surrogates are no `char`: the range stops before them and resumes after.
            push(lo, 0xD7FF);
            push(0xE000, 0x10_FFFF);
        }
    }
    out
}

/// The code points Python's `IGNORECASE` matches for the ASCII letter `c`
/// (its two cases and the non-ASCII ones that fold to it), for a bracket class.
pub(crate) fn py_re_ignorecase(c: char) -> String {
    let extra: &[u32] = match c.to_ascii_lowercase() {
        'i' => &[0x130, 0x131],
        'k' => &[0x212A],
        's' => &[0x17F],
        _ => &[],
    };
    let mut out = format!("{}{}", c.to_ascii_lowercase(), c.to_ascii_uppercase());
    for cp in extra {
        let _ = write!(out, "\\x{{{cp:X}}}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(body: &str) -> regex::Regex {
        regex::Regex::new(&format!("^[{body}]$")).unwrap()
    }

    #[test]
    fn classes_follow_cpython_3_11() {
        let w = class(&py_re_class(PyReClass::Word));
        for s in ["a", "Z", "_", "7", "é", "ß", "²", "½", "日", "٣"] {
            assert!(w.is_match(s), "{s:?} is \\w");
        }
        // A combining mark is \w in the regex crate, not in Python.
        for s in ["-", "%", " ", "\u{301}", "😀"] {
            assert!(!w.is_match(s), "{s:?} is not \\w");
        }
        let d = class(&py_re_class(PyReClass::Digit));
        assert!(d.is_match("٣") && d.is_match("0") && !d.is_match("²") && !d.is_match("½"));
        let s = class(&py_re_class(PyReClass::NonSpace));
        assert!(s.is_match("x") && s.is_match("\u{3001}") && s.is_match("😀"));
        for sp in [" ", "\u{1C}", "\u{85}", "\u{3000}", "\u{2029}"] {
            assert!(!s.is_match(sp), "{sp:?} is a space");
        }
        let i = class(&py_re_ignorecase('i'));
        assert!(
            i.is_match("I") && i.is_match("\u{130}") && i.is_match("\u{131}") && !i.is_match("j")
        );
    }
}
