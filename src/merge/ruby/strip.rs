//! `ruby_strip`, `ruby_space`: Ruby's `String#strip` and a regexp's `\s` (ASCII whitespace; `strip` also takes NUL), not Unicode's spaces.

/// A Ruby regexp's `\s`: `[ \t\n\v\f\r]` (ASCII only, `\v` included, unlike
/// Rust's `is_ascii_whitespace`).
pub(crate) fn ruby_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ')
}

/// `s.strip`: leading and trailing `\t \n \v \f \r`, space and NUL (Ruby 3.1;
/// `"\u3000a".strip` keeps the ideographic space Rust's `trim` would take).
pub(crate) fn ruby_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c == '\0' || ruby_space(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checked with ruby 3.1.2.
    #[test]
    fn strips_as_ruby() {
        assert_eq!(ruby_strip("\0 \u{3000}a\0 \t"), "\u{3000}a");
        assert_eq!(ruby_strip("\u{a0}a"), "\u{a0}a");
        assert_eq!(ruby_strip("\u{b}a\u{c}"), "a");
    }
}
