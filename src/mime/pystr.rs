//! Line-terminator and payload-bytes helpers of Python's `email` package (its `str` helpers are `crate::python`'s).

use crate::python::raw_unicode_escape;
use std::borrow::Cow;

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
    fn payload_bytes_escape_non_ascii() {
        assert_eq!(&*payload_bytes("a\u{e9}\u{20ac}"), b"a\xe9\\u20ac");
        assert_eq!(eol_len_at_end("x\r\n"), 2);
        assert_eq!(eol_len_at_start("\ry"), 1);
    }
}
