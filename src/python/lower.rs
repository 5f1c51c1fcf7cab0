//! `py_lower`: Python's `str.lower()`, and case-insensitive equality through it.

/// `s.lower()`: full Unicode lower-casing (final sigma included), an ASCII fast path.
pub(crate) fn py_lower(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// `a.lower() == b.lower()`.
pub(crate) fn py_eq_lower(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        a.eq_ignore_ascii_case(b)
    } else {
        py_lower(a) == py_lower(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_follows_python() {
        assert_eq!(py_lower("DICT(No-Replace)"), "dict(no-replace)");
        // The Kelvin sign lower-cases to an ASCII `k`, as in Python.
        assert_eq!(py_lower("\u{212a}"), "k");
        assert!(py_eq_lower("Content-Type", "content-TYPE"));
        assert!(py_eq_lower("\u{212a}", "K"));
    }
}
