//! `urlize`: Jinja2 3.1's `utils.urlize` as `do_urlize` calls it (default policies: `rel="noopener"`, no target, no extra schemes).
//!
//! 3.1.6 also skips words starting with `@` as e-mail addresses. The URL and
//! e-mail patterns are Jinja2's `_http_re` and `_email_re`, with Python's
//! `\w`, `\d`, `\S` and `IGNORECASE` letters spelled out (`py_re_class`).

use super::JinjaVersion;
use crate::python::{PyReClass, py_re_class, py_re_ignorecase};
use regex::{Regex, RegexBuilder};
use std::sync::LazyLock;

/// Enough for the bounded repetitions of the Unicode classes (`{2,63}`).
const REGEX_SIZE: usize = 64 << 20;

/// `lit` as Python's `IGNORECASE` matches it.
fn ignorecase(lit: &str) -> String {
    lit.chars()
        .map(|c| {
            if c.is_ascii_alphabetic() {
                format!("[{}]", py_re_ignorecase(c))
            } else {
                regex::escape(&c.to_string())
            }
        })
        .collect()
}

/// Jinja2's `_http_re` (`re.IGNORECASE | re.VERBOSE`).
static HTTP_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let (w, d, s) = (
        py_re_class(PyReClass::Word),
        py_re_class(PyReClass::Digit),
        py_re_class(PyReClass::NonSpace),
    );
    let az: String = ('a'..='z').map(py_re_ignorecase).collect();
    let af: String = ('a'..='f').map(py_re_ignorecase).collect();
    let scheme = format!("{}{}?://", ignorecase("http"), ignorecase("s"));
    let tlds = ["com", "net", "int", "edu", "gov", "org", "info", "mil"]
        .map(ignorecase)
        .join("|");
    let (www, xn) = (ignorecase("www."), ignorecase("xn--"));
    RegexBuilder::new(&format!(
        r"^(({scheme}|{www})(([{w}%-]+\.)+)?([{az}]{{2,63}}|{xn}[{w}%]{{2,59}})|([{w}%-]{{2,63}}\.)+({tlds})|({scheme})((([{d}]{{1,3}})(\.[{d}]{{1,3}}){{3}})|(\[([{d}{af}]{{0,4}}:){{2}}([{d}{af}]{{0,4}}:?){{1,6}}\])))(?::[{d}]{{1,5}})?(?:[/?#][{s}]*)?$"
    ))
    .size_limit(REGEX_SIZE)
    .build()
    .ok()
});

/// Jinja2's `_email_re`.
static EMAIL_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let (w, s) = (
        py_re_class(PyReClass::Word),
        py_re_class(PyReClass::NonSpace),
    );
    RegexBuilder::new(&format!(r"^[{s}]+@[{w}][{w}.-]*\.[{w}]+$"))
        .size_limit(REGEX_SIZE)
        .build()
        .ok()
});

/// `do_urlize`'s arguments, checked by the caller.
pub(crate) struct Urlize<'a> {
    /// `trim_url_limit`.
    pub trim: Option<usize>,
    /// The `rel` attribute's value (`noopener`, `nofollow`, the caller's).
    pub rel: String,
    /// `target`.
    pub target: Option<&'a str>,
}

/// Jinja2's patterns did not build (not expected: the test builds them).
pub(crate) struct NoPatterns;

impl Urlize<'_> {
    /// `urlize(text)`, `text` already `markupsafe.escape`d.
    pub(crate) fn run(&self, text: &str, version: JinjaVersion) -> Result<String, NoPatterns> {
        let (Some(http), Some(email)) = (HTTP_RE.as_ref(), EMAIL_RE.as_ref()) else {
            return Err(NoPatterns);
        };
        let rel_attr = if self.rel.is_empty() {
            String::new()
        } else {
            format!(" rel=\"{}\"", super::filters::html_escape(&self.rel))
        };
        let target_attr = match self.target {
            Some(t) if !t.is_empty() => format!(" target=\"{}\"", super::filters::html_escape(t)),
            _ => String::new(),
        };
        let trim = |x: &str| match self.trim {
            Some(n) if x.chars().count() > n => {
                format!("{}...", x.chars().take(n).collect::<String>())
            }
            _ => x.to_owned(),
        };
        let mut out = String::with_capacity(text.len());
        for (word, space) in words(text) {
            if space {
                out.push_str(word);
                continue;
            }
            // Leading `(`, `<`, `&lt;`.
            let mut middle = word;
            loop {
                if let Some(r) = middle.strip_prefix(['(', '<']) {
                    middle = r;
                } else if let Some(r) = middle.strip_prefix("&lt;") {
                    middle = r;
                } else {
                    break;
                }
            }
            let head = &word[..word.len() - middle.len()];
            // Trailing `)`, `>`, `.`, `,`, newline, `&gt;`.
            let mut cut = middle.len();
            loop {
                let m = &middle[..cut];
                if m.ends_with([')', '>', '.', ',', '\n']) {
                    cut -= 1;
                } else if m.ends_with("&gt;") {
                    cut -= 4;
                } else {
                    break;
                }
            }
            // The tail is `rest[t..]`: moved into the middle by advancing `t`
            // (linear; Python copies the rest of the tail each time).
            let rest = middle;
            let mut t = cut;
            let mut middle = rest[..cut].to_owned();
            for (open, close) in [("(", ")"), ("<", ">"), ("&lt;", "&gt;")] {
                let opens = middle.matches(open).count();
                if opens <= middle.matches(close).count() {
                    continue;
                }
                for _ in 0..opens.min(rest[t..].matches(close).count()) {
                    let Some(at) = rest[t..].find(close) else {
                        break;
                    };
                    let end = t + at + close.len();
                    middle.push_str(&rest[t..end]);
                    t = end;
                }
            }
            let tail = &rest[t..];
            // 3.1.6 ignores values like `@a@b`.
            let at_first = version == JinjaVersion::V3_1_6 && middle.starts_with('@');
            let linked = if http.is_match(&middle) {
                if middle.starts_with("https://") || middle.starts_with("http://") {
                    format!(
                        "<a href=\"{middle}\"{rel_attr}{target_attr}>{}</a>",
                        trim(&middle)
                    )
                } else {
                    format!(
                        "<a href=\"https://{middle}\"{rel_attr}{target_attr}>{}</a>",
                        trim(&middle)
                    )
                }
            } else if let Some(addr) = middle.strip_prefix("mailto:")
                && email.is_match(addr)
            {
                format!("<a href=\"{middle}\">{addr}</a>")
            } else if middle.contains('@')
                && !middle.starts_with("www.")
                && !at_first
                && !middle.contains(':')
                && email.is_match(&middle)
            {
                format!("<a href=\"mailto:{middle}\">{middle}</a>")
            } else {
                middle
            };
            out.push_str(head);
            out.push_str(&linked);
            out.push_str(tail);
        }
        Ok(out)
    }
}

/// `re.split(r"(\s+)", text)`: runs of non-space and of space (flagged).
fn words(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<bool> = None;
    for (i, c) in text.char_indices() {
        let space = crate::userdata::py_is_space(c);
        if prev.is_some_and(|p| p != space) {
            out.push((&text[start..i], prev == Some(true)));
            start = i;
        }
        prev = Some(space);
    }
    if start < text.len() {
        out.push((&text[start..], prev == Some(true)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_build() {
        let t = std::time::Instant::now();
        assert!(HTTP_RE.is_some() && EMAIL_RE.is_some());
        eprintln!("urlize patterns built in {:?}", t.elapsed());
        let http = HTTP_RE.as_ref().unwrap();
        // Python's \w takes `é` and `²`, \d `٣`; [a-z] under IGNORECASE takes `ı`.
        for yes in [
            "www.café.com",
            "x²y.org",
            "http://١٢٣.4.5.6",
            "www.example.ıo",
            "https://例え.jp/パス",
        ] {
            assert!(http.is_match(yes), "{yes}");
        }
        for no in ["www.e\u{301}.com", "http://x.😀", "www.example.é"] {
            assert!(!http.is_match(no), "{no}");
        }
    }
}
