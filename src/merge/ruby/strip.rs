//! `ruby_strip`: Ruby's `String#strip` (ASCII whitespace and NUL, not Unicode's spaces).

/// `s.strip`: leading and trailing `\t \n \v \f \r`, space and NUL (Ruby 3.1;
/// `"\u3000a".strip` keeps the ideographic space Rust's `trim` would take).
pub(crate) fn ruby_strip(s: &str) -> &str {
    s.trim_matches(|c: char| matches!(c, '\0' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' '))
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
