//! `IncludeLine`: the URLs an `#include` / `#include-once` part names, as cloud-init reads them.

use crate::python::{py_is_space, py_splitlines};

/// One URL named by an include part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncludeLine {
    /// The URL (or path) as cloud-init would fetch it.
    pub url: String,
    /// Whether `#include-once` was in force for it.
    pub once: bool,
    /// 0-based line of the payload it came from.
    pub line: usize,
}

/// Python's ASCII-insensitive `line.lower().startswith(prefix)` then drop the
/// prefix by length (`prefix` is ASCII).
fn strip_prefix_ci<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let head = line.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &line[prefix.len()..])
}

/// The URLs of an include part, in order (`#include-once` is sticky until the
/// next `#include`; a `#` comment counts only at column 0).
pub fn include_urls(payload: &str) -> Vec<IncludeLine> {
    let mut once = false;
    let mut out = Vec::new();
    for (n, line) in py_splitlines(payload).into_iter().enumerate() {
        let mut rest = line;
        if let Some(r) = strip_prefix_ci(line, "#include-once") {
            rest = r.trim_start_matches(py_is_space);
            once = true;
        } else if let Some(r) = strip_prefix_ci(line, "#include") {
            rest = r.trim_start_matches(py_is_space);
            once = false;
        }
        if rest.starts_with('#') {
            continue;
        }
        let url = rest.trim_matches(py_is_space);
        if url.is_empty() {
            continue;
        }
        out.push(IncludeLine {
            url: url.to_owned(),
            once,
            line: n,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines() {
        let urls = include_urls(
            "#include\nhttp://a\n# comment\n  # x\n#include-once http://b\nhttp://c\n#INCLUDE http://d\n",
        );
        let got: Vec<(&str, bool)> = urls.iter().map(|u| (u.url.as_str(), u.once)).collect();
        assert_eq!(
            got,
            vec![
                ("http://a", false),
                ("# x", false),
                ("http://b", true),
                ("http://c", true),
                ("http://d", false)
            ]
        );
        assert_eq!(py_splitlines("a\r\nb\rc\n"), vec!["a", "b", "c"]);
    }
}
