//! `py_repr_str`: Python's `repr()` of a string, for messages that embed one
//! ("could not determine a constructor for the tag '…'", `KeyError: 'maybe'`).

/// Whether Python's `str.isprintable()` holds for this code point
/// (approximation outside ASCII: controls, format characters, separators,
/// surrogates, private use and noncharacters are not printable).
fn is_printable(cp: u32) -> bool {
    if cp < 0x80 {
        return (0x20..0x7F).contains(&cp);
    }
    !matches!(
        cp,
        0x80..=0xA0
            | 0xAD
            | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x1680
            | 0x180E
            | 0x2000..=0x200F
            | 0x2028..=0x202F
            | 0x205F..=0x2064
            | 0x2066..=0x206F
            | 0x3000
            | 0xD800..=0xF8FF
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0xFFFE..=0xFFFF
            | 0xE0000..=0xE0FFF
            | 0xF0000..
    )
}

/// `repr(s)` for a string given as code points.
fn repr_code_points(cps: impl Iterator<Item = u32> + Clone) -> String {
    let has_single = cps.clone().any(|c| c == 0x27);
    let has_double = cps.clone().any(|c| c == 0x22);
    let quote = if has_single && !has_double { '"' } else { '\'' };
    let mut out = String::new();
    out.push(quote);
    for cp in cps {
        match cp {
            0x5C => out.push_str("\\\\"),
            0x09 => out.push_str("\\t"),
            0x0A => out.push_str("\\n"),
            0x0D => out.push_str("\\r"),
            c if c == quote as u32 => {
                out.push('\\');
                out.push(quote);
            }
            c if is_printable(c) => out.push(char::from_u32(c).unwrap_or('\u{FFFD}')),
            c if c < 0x100 => out.push_str(&format!("\\x{c:02x}")),
            c if c < 0x10000 => out.push_str(&format!("\\u{c:04x}")),
            c => out.push_str(&format!("\\U{c:08x}")),
        }
    }
    out.push(quote);
    out
}

/// `repr(s)`.
pub(crate) fn py_repr_str(s: &str) -> String {
    repr_code_points(s.chars().map(u32::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(py_repr_str("abc"), "'abc'");
        assert_eq!(py_repr_str("a'b"), "\"a'b\"");
        assert_eq!(py_repr_str("a'\"b"), "'a\\'\"b'");
        assert_eq!(py_repr_str("x\n\u{7f}é\u{2028}"), "'x\\n\\x7fé\\u2028'");
    }
}
