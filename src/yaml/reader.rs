//! Input decoding and the printable check: what PyYAML's `Reader` does before scanning.

use super::error::{PyErrorClass, YamlError};
use super::value::PyStr;
use crate::source::Mark;
use std::borrow::Cow;

/// The mark of byte offset `at` in `text`, counting lines and columns as PyYAML does
/// (`\r\n`, `\r`, `\n`, NEL, LS, PS break lines; U+FEFF takes no column).
pub(crate) fn mark_at(text: &str, at: usize) -> Mark {
    let (mut line, mut column) = (0u32, 0u32);
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if i >= at {
            break;
        }
        match c {
            '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => {
                line = line.saturating_add(1);
                column = 0;
            }
            '\r' if it.peek().map(|&(_, n)| n) != Some('\n') => {
                line = line.saturating_add(1);
                column = 0;
            }
            '\u{FEFF}' => {}
            _ => column = column.saturating_add(1),
        }
    }
    Mark::new(at, line, column)
}

fn reader_error(cp: u32, reason: &str, mark: Mark) -> YamlError {
    YamlError::new(
        PyErrorClass::Reader,
        format!("unacceptable character #x{cp:04x}: {reason}"),
        mark,
    )
}

/// Whether a code point is one PyYAML accepts in a stream.
fn printable(cp: u32) -> bool {
    matches!(cp, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// PyYAML's printable check of a whole `str` stream: the first character outside
/// `[\t\n\r\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]` is a
/// `ReaderError` ("special characters are not allowed") at its position.
pub fn check_printable(text: &str) -> Result<(), YamlError> {
    let b = text.as_bytes();
    let mut i = 0;
    // Fast path: 32-byte chunks of printable ASCII (no early exit, so it vectorises).
    while let Some(chunk) = b.get(i..i + 32) {
        let bad = chunk.iter().fold(0u8, |acc, &c| {
            acc | u8::from(!((0x20..0x7F).contains(&c) || c == b'\n'))
        });
        if bad != 0 {
            break;
        }
        i += 32;
    }
    while let Some(&c) = b.get(i) {
        if c < 0x80 {
            if !(c >= 0x20 && c != 0x7F || c == b'\t' || c == b'\n' || c == b'\r') {
                return Err(reader_error(u32::from(c), SPECIAL, mark_at(text, i)));
            }
            i += 1;
            continue;
        }
        // Only U+0080..U+009F (except NEL) and U+FFFE/U+FFFF are refused above ASCII.
        let bad = match c {
            0xC2 => b.get(i + 1).is_some_and(|&n| n < 0xA0 && n != 0x85),
            0xEF => b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF)),
            _ => false,
        };
        if bad {
            let cp = text
                .get(i..)
                .and_then(|s| s.chars().next())
                .map_or(0, u32::from);
            return Err(reader_error(cp, SPECIAL, mark_at(text, i)));
        }
        i += match c {
            0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
    }
    Ok(())
}

const SPECIAL: &str = "special characters are not allowed";

/// The printable check for a Python string that may hold lone surrogates
/// (text from `surrogateescape` decoding): any surrogate is refused too.
pub fn check_printable_py(text: &PyStr) -> Result<(), YamlError> {
    if let Some(s) = text.as_str() {
        return check_printable(s);
    }
    let (mut line, mut column, mut index) = (0u32, 0u32, 0usize);
    let cps: Vec<u32> = text.chars().collect();
    for (k, &cp) in cps.iter().enumerate() {
        if !printable(cp) {
            return Err(reader_error(cp, SPECIAL, Mark::new(index, line, column)));
        }
        let breaks = matches!(cp, 0x0A | 0x85 | 0x2028 | 0x2029)
            || (cp == 0x0D && cps.get(k + 1) != Some(&0x0A));
        if breaks {
            line = line.saturating_add(1);
            column = 0;
        } else if cp != 0xFEFF {
            column = column.saturating_add(1);
        }
        index += char::from_u32(cp).map_or(3, char::len_utf8);
    }
    Ok(())
}

/// PyYAML's handling of a `bytes` stream: a UTF-16 LE/BE byte order mark selects
/// UTF-16 (the BOM stays in the text as U+FEFF, which the scanner skips), anything
/// else is UTF-8 (strict); then the printable check. Decoding errors are
/// `ReaderError`s whose mark index is the offending byte's offset in `bytes`.
pub fn decode_input(bytes: &[u8]) -> Result<Cow<'_, str>, YamlError> {
    let text: Cow<'_, str> = match bytes {
        [0xFF, 0xFE, ..] => Cow::Owned(decode_utf16(bytes, u16::from_le_bytes)?),
        [0xFE, 0xFF, ..] => Cow::Owned(decode_utf16(bytes, u16::from_be_bytes)?),
        _ => match std::str::from_utf8(bytes) {
            Ok(s) => Cow::Borrowed(s),
            Err(e) => {
                let at = e.valid_up_to();
                let reason = match e.error_len() {
                    None => "unexpected end of data",
                    Some(_) if matches!(bytes.get(at), Some(0x80..=0xC1 | 0xF5..=0xFF)) => {
                        "invalid start byte"
                    }
                    Some(_) => "invalid continuation byte",
                };
                let prefix = std::str::from_utf8(bytes.get(..at).unwrap_or_default()).unwrap_or("");
                let m = mark_at(prefix, at);
                let cp = bytes.get(at).copied().map_or(0, u32::from);
                return Err(reader_error(cp, reason, m));
            }
        },
    };
    check_printable(&text)?;
    Ok(text)
}

/// Strict UTF-16 decoding with Python's error reasons and positions.
fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> Result<String, YamlError> {
    let mut out = String::with_capacity(bytes.len() / 2);
    let mut i = 0;
    let at = |i: usize| -> Option<u16> {
        let a = *bytes.get(i)?;
        let b = *bytes.get(i + 1)?;
        Some(unit([a, b]))
    };
    let fail = |out: &String, i: usize, reason: &str| {
        let m = mark_at(out, out.len());
        let cp = bytes.get(i).copied().map_or(0, u32::from);
        reader_error(cp, reason, Mark::new(i, m.line, m.column))
    };
    while i < bytes.len() {
        let Some(u) = at(i) else {
            return Err(fail(&out, i, "truncated data"));
        };
        match u {
            0xD800..=0xDBFF => {
                let Some(lo) = at(i + 2) else {
                    return Err(fail(&out, i, "unexpected end of data"));
                };
                if !(0xDC00..=0xDFFF).contains(&lo) {
                    return Err(fail(&out, i, "illegal UTF-16 surrogate"));
                }
                let cp = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(lo) - 0xDC00);
                out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                i += 4;
            }
            0xDC00..=0xDFFF => return Err(fail(&out, i, "illegal encoding")),
            _ => {
                out.push(char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}'));
                i += 2;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_check_positions() {
        assert!(check_printable("a: b\n\t\r\n\u{85}\u{a0}\u{feff}😀").is_ok());
        let e = check_printable("ab\ncd\u{1}").unwrap_err();
        assert_eq!(e.class, PyErrorClass::Reader);
        assert_eq!(
            e.problem,
            "unacceptable character #x0001: special characters are not allowed"
        );
        assert_eq!(e.mark, Some(Mark::new(5, 1, 2)));
        let long = format!("{}\u{fffe}", "x".repeat(100));
        assert_eq!(
            check_printable(&long).unwrap_err().mark.map(|m| m.index),
            Some(100)
        );
    }

    #[test]
    fn py_str_with_surrogates_is_refused() {
        let s = PyStr::from_code_points([0x61, 0x0A, 0x62, 0xDC80]);
        let e = check_printable_py(&s).unwrap_err();
        assert_eq!(
            e.problem,
            "unacceptable character #xdc80: special characters are not allowed"
        );
        assert_eq!(e.mark, Some(Mark::new(3, 1, 1)));
        assert!(check_printable_py(&PyStr::from("ok")).is_ok());
    }

    #[test]
    fn decoding() {
        assert_eq!(decode_input(b"a: b").unwrap(), "a: b");
        assert!(matches!(decode_input(b"a: b").unwrap(), Cow::Borrowed(_)));
        assert_eq!(decode_input(b"\xff\xfea\x00").unwrap(), "\u{feff}a");
        assert_eq!(decode_input(b"\xfe\xff\x00a").unwrap(), "\u{feff}a");
        let e = decode_input(b"a\xff").unwrap_err();
        assert_eq!(
            e.problem,
            "unacceptable character #x00ff: invalid start byte"
        );
        assert_eq!(e.mark.map(|m| m.index), Some(1));
        let e = decode_input(b"\xff\xfea\x00b").unwrap_err();
        assert_eq!(e.problem, "unacceptable character #x0062: truncated data");
    }
}
