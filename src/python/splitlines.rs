//! `py_splitlines`: Python's `str.splitlines(keepends)`.

/// `text.splitlines()`.
pub fn py_splitlines(text: &str) -> Vec<&str> {
    py_splitlines_keep(text, false)
}

/// `text.splitlines(keepends)`: lines split at `\n`, `\r\n`, `\r`, `\v`, `\f`,
/// `\x1c`..`\x1e`, `\x85`, U+2028 and U+2029, each with its break when
/// `keepends`; a final break ends the last line without adding an empty one.
pub(crate) fn py_splitlines_keep(text: &str, keepends: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let is_break = matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if is_break {
            let mut next = i + c.len_utf8();
            if c == '\r'
                && let Some(&(j, '\n')) = it.peek()
            {
                it.next();
                next = j + 1;
            }
            out.push(
                text.get(start..if keepends { next } else { i })
                    .unwrap_or(""),
            );
            start = next;
        }
    }
    if let Some(rest) = text.get(start..).filter(|r| !r.is_empty()) {
        out.push(rest);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_python() {
        assert_eq!(py_splitlines("a\r\nb\rc\n"), ["a", "b", "c"]);
        assert_eq!(
            py_splitlines("a\n\nb\u{2028}c\u{1f}d"),
            ["a", "", "b", "c\u{1f}d"]
        );
        assert_eq!(py_splitlines(""), Vec::<&str>::new());
        assert_eq!(py_splitlines("\n"), [""]);
        assert_eq!(py_splitlines_keep("a\r\nb\rc", true), ["a\r\n", "b\r", "c"]);
        assert_eq!(py_splitlines_keep("\n\u{2028}", true), ["\n", "\u{2028}"]);
    }
}
