//! `py_is_space`: Python's `str.isspace()` for one character, and the `strip` family built on it.

/// CPython's `_PyUnicode_IsWhitespace` (Unicode 14): bidirectional class WS, B
/// or S, or category Zs. That is Rust's `char::is_whitespace` plus the four
/// information separators U+001C..U+001F (a unit test holds the two equal).
pub fn py_is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{0B}'
            | '\u{0C}'
            | '\r'
            | '\u{1C}'..='\u{1F}'
            | ' '
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// `s.strip()` (no argument).
pub(crate) fn py_strip(s: &str) -> &str {
    // Most texts (header values, parameters) have nothing to strip: two
    // byte tests rather than decoding a character at each end.
    let kept = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && !py_is_space(char::from(b)));
    if kept(s.as_bytes().first()) && kept(s.as_bytes().last()) {
        return s;
    }
    s.trim_matches(py_is_space)
}

/// `s.rstrip()` (no argument).
pub(crate) fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(py_is_space)
}

/// `s.lstrip()` (no argument) of a string given as its code points (lone
/// surrogates allowed): the code points after the leading whitespace.
pub(crate) fn py_lstrip_code_points<I: Iterator<Item = u32>>(cps: I) -> impl Iterator<Item = u32> {
    cps.skip_while(|&cp| char::from_u32(cp).is_some_and(py_is_space))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_white_space_plus_information_separators() {
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let expected = c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
            assert_eq!(py_is_space(c), expected, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn strips_follow_python() {
        assert_eq!(py_strip("\u{1c}\u{a0} x \u{3000}\u{85}"), "x");
        assert_eq!(py_rstrip(" x \t\n"), " x");
        // U+180E (Mongolian vowel separator) stopped being a space in Unicode 6.3.
        assert_eq!(py_strip("\u{180e}x"), "\u{180e}x");
    }
}
