//! `RubyRegexp`: a Ruby regular expression (as Hiera's data writes them) compiled with the `regex` crate.
//!
//! Ruby's `^` and `$` always match at line boundaries, so patterns are
//! compiled in multi-line mode; Ruby's `(?m)` (dot matches newline) is the
//! crate's `(?s)`. Syntax the crate lacks (look-around, back-references)
//! is an error rather than a silent difference.

use crate::merge::RegexpError;
use regex::Regex;

/// A compiled Ruby regexp.
#[derive(Clone, Debug)]
pub struct RubyRegexp {
    source: String,
    re: Regex,
}

/// The longest pattern accepted (the crate bounds its own memory, this bounds our work).
const MAX_PATTERN: usize = 4096;

impl RubyRegexp {
    /// Compile `source` as Ruby's `Regexp.compile(source)` would.
    pub fn new(source: &str) -> Result<RubyRegexp, RegexpError> {
        if source.len() > MAX_PATTERN {
            return Err(RegexpError::TooLong { max: MAX_PATTERN });
        }
        let translated = translate(source);
        let re = regex::RegexBuilder::new(&translated)
            .multi_line(true)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| {
                RegexpError::Syntax(match e {
                    regex::Error::Syntax(m) => m,
                    other => other.to_string(),
                })
            })?;
        Ok(RubyRegexp {
            source: source.to_owned(),
            re,
        })
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// `pattern =~ text` is truthy.
    pub fn is_match(&self, text: &str) -> bool {
        self.re.is_match(text)
    }

    /// `text.gsub(pattern, "")`.
    pub fn remove_all<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        self.re.replace_all(text, "")
    }
}

/// Ruby spellings the crate writes differently: `(?m…)` → `(?s…)` (dot-all),
/// `\h` → hex digit, `\Z` → end or before a final newline.
fn translate(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 8);
    let mut chars = src.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('h') if !in_class => out.push_str("[0-9a-fA-F]"),
                Some('h') => out.push_str("0-9a-fA-F"),
                Some('Z') => out.push_str(r"(?:\n?\z)"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            },
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            '(' if !in_class && chars.peek() == Some(&'?') => {
                out.push('(');
                if let Some(q) = chars.next() {
                    out.push(q);
                }
                // Inline flags: Ruby's m is the crate's s.
                while let Some(&f) = chars.peek() {
                    if f == 'm' {
                        out.push('s');
                    } else if f == 'i' || f == 'x' || f == '-' {
                        out.push(f);
                    } else {
                        break;
                    }
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_anchors_and_flags() {
        let r = RubyRegexp::new("^app_").unwrap();
        assert!(r.is_match("app_x"));
        assert!(r.is_match("x\napp_y"));
        assert!(!r.is_match("xapp_"));
        assert!(RubyRegexp::new("(?m)a.b").unwrap().is_match("a\nb"));
        assert!(RubyRegexp::new(r"^\h+$").unwrap().is_match("ff0"));
        assert!(RubyRegexp::new("(").is_err());
    }

    #[test]
    fn gsub_removes_every_line_start() {
        let r = RubyRegexp::new("^--").unwrap();
        assert_eq!(r.remove_all("--a\n--b"), "a\nb");
        assert_eq!(r.remove_all("----a"), "--a");
    }
}
