//! `string_literal`: the value Jinja2's lexer gives a string literal (Python's `unicode-escape` after `backslashreplace`).
//!
//! Jinja2 (`lexer.py`, `TOKEN_STRING`) decodes a literal's text with
//! `.encode("ascii", "backslashreplace").decode("unicode-escape")`: a
//! non-ASCII character survives as itself (and `\` before it stays a
//! backslash), `\a \v \ooo \xhh \uXXXX \UXXXXXXXX` and backslash-newline are
//! Python's escapes, an unknown escape keeps its backslash, and `\uD83D\uDE00`
//! stays two lone surrogates. MiniJinja decodes with JSON-like rules instead
//! (`\U0001F600` kept as text, surrogate pairs joined, no `\a`, `\v`).

use super::jinja_part::{ESCAPE_BASE, is_escape};

/// Why a literal's Python value is not given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LiteralError {
    /// Python raises (Jinja2 reports this message as a `TemplateSyntaxError`).
    Python(&'static str),
    /// Python's value holds what cloudfold cannot represent or decide.
    Unsupported(&'static str),
}

/// The Python value of the text between a literal's quotes.
pub(crate) fn decode(inner: &str) -> Result<String, LiteralError> {
    // `backslashreplace`: what the decoder reads, as ASCII escapes.
    let mut ascii = String::with_capacity(inner.len());
    for c in inner.chars() {
        let cp = u32::from(c);
        if is_escape(c) {
            // A stray byte is Python's lone surrogate U+DC80..U+DCFF.
            ascii.push_str(&format!("\\u{:04x}", cp - ESCAPE_BASE + 0xDC00));
        } else if c.is_ascii() {
            ascii.push(c);
        } else if cp <= 0xFF {
            ascii.push_str(&format!("\\x{cp:02x}"));
        } else if cp <= 0xFFFF {
            ascii.push_str(&format!("\\u{cp:04x}"));
        } else {
            ascii.push_str(&format!("\\U{cp:08x}"));
        }
    }
    let b = ascii.as_bytes();
    let mut out = String::with_capacity(inner.len());
    let mut i = 0;
    let hex = |from: usize, n: usize| -> Option<u32> {
        let d = b.get(from..from + n)?;
        if !d.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(d).ok()?, 16).ok()
    };
    let push_cp = |out: &mut String, cp: u32| -> Result<(), LiteralError> {
        match cp {
            0xDC80..=0xDCFF => {
                out.push(char::from_u32(cp - 0xDC00 + ESCAPE_BASE).unwrap_or('\u{fffd}'));
                Ok(())
            }
            0xD800..=0xDFFF => Err(LiteralError::Unsupported(
                "a string literal holding a lone surrogate",
            )),
            _ => {
                out.push(
                    char::from_u32(cp).ok_or(LiteralError::Python("illegal Unicode character"))?,
                );
                Ok(())
            }
        }
    };
    while let Some(&c) = b.get(i) {
        if c != b'\\' {
            out.push(char::from(c));
            i += 1;
            continue;
        }
        let Some(&e) = b.get(i + 1) else {
            return Err(LiteralError::Python("\\ at end of string"));
        };
        i += 2;
        match e {
            b'\n' => {}
            b'\\' => out.push('\\'),
            b'\'' => out.push('\''),
            b'"' => out.push('"'),
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b't' => out.push('\t'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b'v' => out.push('\u{b}'),
            b'a' => out.push('\u{7}'),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                for _ in 0..2 {
                    match b.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                push_cp(&mut out, v)?;
            }
            b'x' | b'u' | b'U' => {
                let (n, msg) = match e {
                    b'x' => (2, "truncated \\xXX escape"),
                    b'u' => (4, "truncated \\uXXXX escape"),
                    _ => (8, "truncated \\UXXXXXXXX escape"),
                };
                let cp = hex(i, n).ok_or(LiteralError::Python(msg))?;
                i += n;
                if cp > 0x10_FFFF {
                    return Err(LiteralError::Python("illegal Unicode character"));
                }
                push_cp(&mut out, cp)?;
            }
            b'N' => {
                return Err(LiteralError::Unsupported(
                    "a \\N{...} escape in a string literal (Unicode character names)",
                ));
            }
            other => {
                out.push('\\');
                out.push(char::from(other));
            }
        }
    }
    Ok(out)
}

/// The Python values of a run of adjacent literals (`'a' "b"`: Jinja2 joins
/// them), from their source text; `None` when `src` is not such a run.
pub(crate) fn decode_run(src: &str) -> Option<Result<String, LiteralError>> {
    let mut out = String::new();
    let mut rest = src.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let q = rest.chars().next()?;
        if q != '\'' && q != '"' {
            return None;
        }
        // The closing quote: the first unescaped `q`.
        let body = rest.get(1..)?;
        let mut end = None;
        let mut esc = false;
        for (k, c) in body.char_indices() {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == q {
                end = Some(k);
                break;
            }
        }
        let end = end?;
        match decode(body.get(..end)?) {
            Ok(s) => out.push_str(&s),
            Err(e) => return Some(Err(e)),
        }
        rest = body.get(end + 1..)?.trim_start();
    }
    Some(Ok(out))
}

/// A MiniJinja literal whose value is `value`, on one line, followed by
/// `newlines` newlines (the original's line count, for the lines after it).
pub(crate) fn minijinja_literal(value: &str, newlines: usize) -> String {
    let mut out = String::with_capacity(value.len() + 2 + newlines);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out.push_str(&"\n".repeat(newlines));
    out
}

#[cfg(test)]
mod tests {
    use super::{LiteralError, decode};

    // Expected values from Python 3.11:
    // s.encode("ascii", "backslashreplace").decode("unicode-escape").
    #[test]
    fn matches_python() {
        let d = |s: &str| decode(s);
        assert_eq!(
            d("\\U0001F600|😀|\\x41\\101\\7777"),
            Ok("😀|😀|AA\u{1ff}7".into())
        );
        assert_eq!(d("\\d\\a\\v\\\né|\\é"), Ok("\\d\u{7}\u{b}é|\\xe9".into()));
        assert_eq!(d("\\u00e9\\'\\\""), Ok("é'\"".into()));
        assert_eq!(
            d("\\x4"),
            Err(LiteralError::Python("truncated \\xXX escape"))
        );
        assert_eq!(
            d("\\U00110000"),
            Err(LiteralError::Python("illegal Unicode character"))
        );
        assert!(matches!(d("\\ud83d"), Err(LiteralError::Unsupported(_))));
    }
}
