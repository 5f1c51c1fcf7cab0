//! Python's `str.strip()` and `str.lower()` as the merge-spec parser applies them.

/// Python's `str.isspace` for one character: Unicode `White_Space` plus the
/// four information separators U+001C..U+001F, which Python also strips.
pub(crate) fn py_is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `s.strip()`.
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(py_is_space)
}

/// `s.lower()` (full Unicode lower-casing, like Python's).
pub(crate) fn py_lower(s: &str) -> String {
    s.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_and_lower_follow_python() {
        assert_eq!(py_strip("\u{1c}\u{a0} x \u{3000}\u{85}"), "x");
        assert_eq!(py_lower("DICT(No-Replace)"), "dict(no-replace)");
        // The Kelvin sign lower-cases to an ASCII `k`, as in Python.
        assert_eq!(py_lower("\u{212a}"), "k");
    }
}
