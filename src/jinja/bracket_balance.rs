//! `bracket_error`: the error Jinja2's lexer raises for an unbalanced `)`, `]` or `}` inside a tag.
//!
//! Jinja2's lexer (`tokeniter`) keeps a stack of open brackets in a tag; while
//! it is not empty a `}}` or `%}` does not end the tag but is lexed as
//! operators, and a closing bracket that does not match raises "unexpected
//! '}', expected ')'" (or "unexpected ')'" with nothing open). The parser pulls
//! tokens lazily, so this error wins over a parse error later in the text.
//! MiniJinja reports such templates in its parser's words instead. The same
//! walk gives the print tags' expressions ([`print_spans`]).

/// The first such error in `content`: its byte offset and Jinja2's message.
pub(crate) fn bracket_error(content: &str) -> Option<(usize, String)> {
    walk(content, &mut |_| {})
}

/// What the walk finds in a print tag (`{{ ... }}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InPrint {
    /// The tag's expression: from after `{{` (and its `-`/`+`) to the
    /// closing `}}` (or `-}}`).
    Span(usize, usize),
    /// A `,` outside brackets and strings: Jinja2 reads the expression as a tuple.
    Comma(usize),
}

/// The print tags' expressions and top-level commas, in order, up to the
/// first lexer error (a comma in a tag left unclosed is given too).
pub(crate) fn in_prints(content: &str) -> Vec<InPrint> {
    let mut found = Vec::new();
    walk(content, &mut |x| found.push(x));
    found
}

/// The tags of `content` in order, what is in print tags given to `print`,
/// up to the first bracket error (returned).
fn walk(content: &str, print: &mut dyn FnMut(InPrint)) -> Option<(usize, String)> {
    let b = content.as_bytes();
    let at = |i: usize, s: &str| content.get(i..).is_some_and(|t| t.starts_with(s));
    let mut i = 0;
    while i < b.len() {
        i += content.get(i..)?.find('{')?;
        if at(i, "{#") {
            i += content.get(i..)?.find("#}")? + 2;
            continue;
        }
        let var = at(i, "{{");
        if !var && !at(i, "{%") {
            i += 1;
            continue;
        }
        i += 2;
        if !var && raw_tag(content.get(i..)?) {
            // `{% raw %}`: nothing is lexed up to `{% endraw %}`.
            let body = content.get(i..)?;
            let mut from = 0;
            loop {
                let e = body.get(from..)?.find("{%")? + from;
                if raw_end(body.get(e + 2..)?) {
                    i += e + 2;
                    break;
                }
                from = e + 2;
            }
            continue;
        }
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut stack: Vec<u8> = Vec::new();
        loop {
            let c = *b.get(i)?;
            if stack.is_empty() {
                let end = if var {
                    at(i, "}}") || at(i, "-}}")
                } else {
                    at(i, "%}") || at(i, "-%}") || at(i, "+%}")
                };
                if end {
                    if var {
                        print(InPrint::Span(start, i));
                    }
                    i += content.get(i..)?.find('}')? + 1;
                    if var {
                        i += 1;
                    }
                    break;
                }
            }
            match c {
                b'\'' | b'"' => {
                    // A string: to its closing quote (an unterminated one is another error).
                    let mut j = i + 1;
                    loop {
                        match *b.get(j)? {
                            b'\\' => j += 2,
                            q if q == c => break,
                            _ => j += 1,
                        }
                    }
                    i = j + 1;
                    continue;
                }
                b',' if var && stack.is_empty() => print(InPrint::Comma(i)),
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                b')' | b']' | b'}' => match stack.pop() {
                    None => return Some((i, format!("unexpected '{}'", char::from(c)))),
                    Some(want) if want != c => {
                        return Some((
                            i,
                            format!(
                                "unexpected '{}', expected '{}'",
                                char::from(c),
                                char::from(want)
                            ),
                        ));
                    }
                    Some(_) => {}
                },
                _ => {}
            }
            i += 1;
        }
    }
    None
}

/// After `{%`: `-`/`+`, spaces, `raw`, spaces, `-`?, `%}`.
fn raw_tag(after: &str) -> bool {
    named_tag(after, "raw")
}

fn raw_end(after: &str) -> bool {
    named_tag(after, "endraw")
}

fn named_tag(after: &str, name: &str) -> bool {
    let t = after.strip_prefix(['-', '+']).unwrap_or(after).trim_start();
    let Some(t) = t.strip_prefix(name) else {
        return false;
    };
    // Jinja2's `raw\s*(-|\+)?%}`: a name going on (`rawx`) fails the `%}` test below.
    let t = t.trim_start();
    let t = t.strip_prefix(['-', '+']).unwrap_or(t);
    t.starts_with("%}")
}

#[cfg(test)]
mod tests {
    use super::bracket_error;

    // Expected messages from Jinja2 3.1's lexer.
    #[test]
    fn messages_as_jinja2_lexes() {
        let m = |s: &str| bracket_error(s).map(|(_, m)| m);
        assert_eq!(
            m("k: {{ (1 }}").as_deref(),
            Some("unexpected '}', expected ')'")
        );
        assert_eq!(
            m("k: {{ [1, 2 }}").as_deref(),
            Some("unexpected '}', expected ']'")
        );
        assert_eq!(
            m("{% if (a %}x{% endif %}").as_deref(),
            Some("unexpected '}', expected ')'")
        );
        assert_eq!(m("k: {{ {'a': 1 }}").as_deref(), Some("unexpected '}'"));
        assert_eq!(
            m("{{ ')' }} {# ( #} {% raw %}{{ ( {% endraw %}{{ (1) }}"),
            None
        );
        assert_eq!(m("{{ 1) }}").as_deref(), Some("unexpected ')'"));
    }
}
