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
    // Header values and parameters strip ASCII blanks, if any: bytes,
    // rather than decoding a character at each step; a non-ASCII byte at
    // either edge takes the character way.
    let bytes = s.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !is_ascii_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_ascii_space(b))
        .map_or(start, |i| i + 1);
    let edge_ascii = |i: usize| bytes.get(i).is_none_or(u8::is_ascii);
    if edge_ascii(start) && (end == 0 || edge_ascii(end - 1)) {
        return s.get(start..end.max(start)).unwrap_or("");
    }
    s.trim_matches(py_is_space)
}

/// [`py_is_space`] of an ASCII byte (false for any other byte).
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | 0x1c..=0x1f | b' ')
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
    fn ascii_space_bytes_are_the_ascii_spaces() {
        for b in 0..=255u8 {
            assert_eq!(is_ascii_space(b), b.is_ascii() && py_is_space(char::from(b)), "{b}");
        }
    }

    #[test]
    fn byte_strip_is_the_character_strip() {
        let alphabet = [" ", "\t", "\u{1c}", "x", ";", "\u{a0}", "\u{3000}", "\u{e9}", "\u{85}", "\n"];
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 7) as usize;
            let s: String = (0..len)
                .filter_map(|k| alphabet.get(((x >> (5 * k + 3)) % alphabet.len() as u64) as usize))
                .copied()
                .collect();
            assert_eq!(py_strip(&s), s.trim_matches(py_is_space), "{s:?}");
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
