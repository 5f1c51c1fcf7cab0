//! Python `str` helpers the `email` package relies on: `isspace`, `strip`, `lower`.

use std::borrow::Cow;

/// Python's `str.isspace()` for one character.
///
/// Rust's `char::is_whitespace` is the Unicode White_Space property; Python also
/// counts the ASCII separators U+001C..U+001F (bidi class B/S) as whitespace.
pub(crate) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `s.strip()` (no argument).
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Python's `s.rstrip()` (no argument).
pub(crate) fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

/// Python's `s.lower()`; ASCII fast path, Unicode lowering (with final sigma) otherwise.
pub(crate) fn py_lower(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// Python's `a.lower() == b.lower()`.
pub(crate) fn py_eq_lower(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        py_lower(a) == py_lower(b)
    }
}

/// The length of the line terminator (`\r\n`, `\r` or `\n`) ending `s`, if any
/// (Python's `(\r\n|\r|\n)\Z`).
pub(crate) fn eol_len_at_end(s: &str) -> usize {
    if s.ends_with("\r\n") {
        2
    } else if s.ends_with('\r') || s.ends_with('\n') {
        1
    } else {
        0
    }
}

/// The length of the line terminator starting `s`, if any (Python's `^(\r\n|\r|\n)`).
pub(crate) fn eol_len_at_start(s: &str) -> usize {
    if s.starts_with("\r\n") {
        2
    } else if s.starts_with('\r') || s.starts_with('\n') {
        1
    } else {
        0
    }
}

/// `s.encode('raw-unicode-escape')`: U+0000..U+00FF become one byte each, higher
/// code points the ASCII text `\uXXXX` / `\UXXXXXXXX` (lower-case hex).
pub(crate) fn raw_unicode_escape(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let cp = c as u32;
        if cp < 0x100 {
            out.push(cp as u8);
        } else if cp < 0x1_0000 {
            out.extend_from_slice(format!("\\u{cp:04x}").as_bytes());
        } else {
            out.extend_from_slice(format!("\\U{cp:08x}").as_bytes());
        }
    }
    out
}

/// Python's `s.encode('ascii')` if it succeeds, else `s.encode('raw-unicode-escape')`:
/// how `Message.get_payload(decode=True)` turns a text body into bytes. ASCII
/// text is its own bytes, borrowed.
pub(crate) fn payload_bytes(s: &str) -> Cow<'_, [u8]> {
    if s.is_ascii() {
        Cow::Borrowed(s.as_bytes())
    } else {
        Cow::Owned(raw_unicode_escape(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_unicode_escape_matches_python() {
        assert_eq!(
            raw_unicode_escape("a\u{e9}\u{20ac}\u{1f600}"),
            b"a\xe9\\u20ac\\U0001f600"
        );
    }

    #[test]
    fn python_whitespace() {
        assert_eq!(py_strip("\u{1c}\u{a0} x \u{3000}"), "x");
        assert_eq!(py_rstrip(" x \t\n"), " x");
    }
}
