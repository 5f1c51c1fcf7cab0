//! `TextWrap`: Python 3.11's `textwrap.wrap` as Jinja2's `wordwrap` filter calls it.
//!
//! `expand_tabs=False, replace_whitespace=False`, `drop_whitespace` on, no
//! indents, no `max_lines`; `_split` with `wordsep_re` (hyphenation) or
//! `wordsep_simple_re`, then `_wrap_chunks` and `_handle_long_word`.
//! Lengths are code points, as Python's `len`. `wordsep_re`'s `\w` is
//! Unicode-aware in Python; cloudfold decides it for ASCII only, so a
//! hyphenated text holding other characters is refused by the caller
//! ([`TextWrap::needs_unicode_words`]).

use crate::userdata::py_is_space;
use std::ops::Range;

/// The options Jinja2 passes to `textwrap.wrap`.
pub(crate) struct TextWrap {
    /// `width` (> 0; the caller raises Python's `ValueError` otherwise).
    pub width: usize,
    /// `break_long_words`.
    pub break_long_words: bool,
    /// `break_on_hyphens`.
    pub break_on_hyphens: bool,
}

/// `textwrap._whitespace`: ASCII only.
fn is_ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ')
}

/// `\w` (ASCII).
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `[^\d\W]`: a word character that is not a digit.
fn is_letter(c: Option<&char>) -> bool {
    c.is_some_and(|&c| is_word(c) && !c.is_ascii_digit())
}

/// `[\w!"\'&.,?]`.
fn is_word_punct(c: Option<&char>) -> bool {
    c.is_some_and(|&c| is_word(c) || "!\"'&.,?".contains(c))
}

impl TextWrap {
    /// Whether splitting `text` would ask `\w` about a character that is not
    /// ASCII (only hyphens and em-dashes look at word characters).
    pub(crate) fn needs_unicode_words(&self, text: &str) -> bool {
        self.break_on_hyphens && text.contains('-') && !text.is_ascii()
    }

    /// `TextWrapper(...).wrap(text)`.
    pub(crate) fn wrap(&self, text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        let chunks = if self.break_on_hyphens {
            split_hyphenated(&chars)
        } else {
            split_simple(&chars)
        };
        self.wrap_chunks(&chars, chunks)
    }

    /// `_wrap_chunks`, each chunk a range of `text` (a long word is cut by
    /// moving its start: linear, where Python copies the rest each time).
    fn wrap_chunks(&self, text: &[char], mut chunks: Vec<Range<usize>>) -> Vec<String> {
        let blank = |c: &Range<usize>| {
            text.get(c.clone())
                .is_some_and(|c| c.iter().all(|&c| py_is_space(c)))
        };
        let width = self.width;
        let mut lines: Vec<String> = Vec::new();
        chunks.reverse();
        while !chunks.is_empty() {
            let mut cur_line: Vec<Range<usize>> = Vec::new();
            let mut cur_len = 0usize;
            if !lines.is_empty() && chunks.last().is_some_and(blank) {
                chunks.pop();
            }
            while let Some(l) = chunks.last().map(ExactSizeIterator::len) {
                if cur_len + l <= width {
                    cur_line.extend(chunks.pop());
                    cur_len += l;
                } else {
                    break;
                }
            }
            if chunks.last().is_some_and(|c| c.len() > width) {
                self.handle_long_word(text, &mut chunks, &mut cur_line, cur_len);
            }
            if cur_line.last().is_some_and(blank) {
                cur_line.pop();
            }
            if !cur_line.is_empty() {
                lines.push(
                    cur_line
                        .iter()
                        .filter_map(|r| text.get(r.clone()))
                        .flatten()
                        .collect(),
                );
            }
        }
        lines
    }

    fn handle_long_word(
        &self,
        text: &[char],
        chunks: &mut Vec<Range<usize>>,
        cur_line: &mut Vec<Range<usize>>,
        cur_len: usize,
    ) {
        // `width` is at least 1 here, so `space_left` is `width - cur_len`.
        let space_left = self.width.saturating_sub(cur_len);
        if self.break_long_words {
            let Some(chunk) = chunks.last_mut() else {
                return;
            };
            let word = text.get(chunk.clone()).unwrap_or_default();
            let mut end = space_left;
            if self.break_on_hyphens && word.len() > space_left {
                // The last hyphen before `space_left`, with a non-hyphen before it.
                let hyphen = word
                    .get(..space_left)
                    .and_then(|h| h.iter().rposition(|&c| c == '-'));
                if let Some(h) = hyphen
                    && h > 0
                    && word.get(..h).is_some_and(|b| b.iter().any(|&c| c != '-'))
                {
                    end = h + 1;
                }
            }
            let cut = chunk.start + end.min(word.len());
            cur_line.push(chunk.start..cut);
            chunk.start = cut;
        } else if cur_line.is_empty() {
            cur_line.extend(chunks.pop());
        }
    }
}

/// `wordsep_simple_re.split`: runs of whitespace and of the rest.
fn split_simple(text: &[char]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut prev: Option<bool> = None;
    for (i, &c) in text.iter().enumerate() {
        let ws = is_ws(c);
        match out.last_mut() {
            Some(last) if prev == Some(ws) => last.end = i + 1,
            _ => out.push(i..i + 1),
        }
        prev = Some(ws);
    }
    out
}

/// `wordsep_re.split` (every position starts a match, so the chunks are the matches).
fn split_hyphenated(text: &[char]) -> Vec<Range<usize>> {
    let at = |i: usize| text.get(i);
    // `-{2,}(?=\w)` at `j`: the end of the dash run, if it qualifies.
    let em_dash = |j: usize| {
        let d = text.get(j..)?.iter().take_while(|&&c| c == '-').count();
        (d >= 2 && at(j + d).is_some_and(|&c| is_word(c))).then_some(j + d)
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let end = if at(i).is_some_and(|&c| is_ws(c)) {
            i + text
                .get(i..)
                .map_or(0, |t| t.iter().take_while(|&&c| is_ws(c)).count())
        } else if let Some(e) = (i > 0 && is_word_punct(at(i - 1)))
            .then(|| em_dash(i))
            .flatten()
        {
            e
        } else {
            // `\S+?` then the first of: a hyphen between letters, the end of
            // the word, or the start of an em-dash after word punctuation.
            let mut j = i + 1;
            loop {
                let hyphen = at(j) == Some(&'-')
                    && ((j >= 2 && is_letter(at(j - 2)) && is_letter(at(j - 1)))
                        || (j >= 3
                            && is_letter(at(j - 3))
                            && at(j - 2) == Some(&'-')
                            && is_letter(at(j - 1))))
                    && is_letter(at(j + 1))
                    && ((at(j + 2) == Some(&'-') && is_letter(at(j + 3))) || is_letter(at(j + 2)));
                if hyphen {
                    break j + 1;
                }
                if at(j).is_none_or(|&c| is_ws(c)) {
                    break j;
                }
                if is_word_punct(at(j - 1)) && em_dash(j).is_some() {
                    break j;
                }
                j += 1;
            }
        };
        let end = end.max(i + 1);
        out.push(i..end);
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::TextWrap;

    fn wrap(text: &str, width: usize, long: bool, hyphens: bool) -> Vec<String> {
        TextWrap {
            width,
            break_long_words: long,
            break_on_hyphens: hyphens,
        }
        .wrap(text)
    }

    // Expected values from Python 3.11's textwrap.wrap(text, width,
    // expand_tabs=False, replace_whitespace=False, ...).
    #[test]
    fn matches_python() {
        assert_eq!(
            wrap("Hello World foo bar", 5, true, true),
            ["Hello", "World", "foo", "bar"]
        );
        assert_eq!(
            wrap("abcdefghij", 3, true, true),
            ["abc", "def", "ghi", "j"]
        );
        assert_eq!(wrap("abcdefghij", 3, false, true), ["abcdefghij"]);
        assert_eq!(
            wrap("well-known long-winded text", 10, true, true),
            ["well-known", "long-", "winded", "text"]
        );
        assert_eq!(
            wrap("well-known long-winded text", 10, true, false),
            ["well-known", "long-winde", "d text"]
        );
        assert_eq!(wrap("a--b c", 3, true, true), ["a--", "b c"]);
        assert_eq!(wrap("   lead  x", 4, true, true), ["lead", "x"]);
        assert_eq!(wrap("   ", 4, true, true), Vec::<String>::new());
        assert_eq!(wrap("tab\there x", 4, true, true), ["tab", "here", "x"]);
    }
}
