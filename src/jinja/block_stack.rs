//! Jinja2's parser state at a point of a template: the open blocks, for its "unknown tag" and "end of template" errors.
//!
//! MiniJinja reports an unclosed block or a stray tag without saying which
//! block is open; Jinja2's `Parser._fail_ut_eof` names the tags it was looking
//! for and the innermost open block. This scan of the `{% %}` tags (strings,
//! comments and `raw` skipped) rebuilds that state.

/// One open block: its tag and the end tags Jinja2 waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Open {
    tag: String,
    looking_for: &'static [&'static str],
}

/// The end tags each block statement waits for (`parse_statements` calls of
/// `jinja2/parser.py`); `else` branches wait for the end tag only.
fn ends(tag: &str) -> Option<&'static [&'static str]> {
    Some(match tag {
        "if" | "elif" => &["elif", "else", "endif"],
        "for" => &["endfor", "else"],
        "macro" => &["endmacro"],
        "call" => &["endcall"],
        "filter" => &["endfilter"],
        "with" => &["endwith"],
        "autoescape" => &["endautoescape"],
        "block" => &["endblock"],
        "set" => &["endset"],
        _ => return None,
    })
}

/// The open blocks before byte `upto` of `content`, innermost last.
fn open_blocks(content: &str, upto: usize) -> Vec<Open> {
    let text = content.get(..upto).unwrap_or(content);
    let mut stack: Vec<Open> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['{']) {
        let after = rest.get(at..).unwrap_or_default();
        if let Some(c) = after.strip_prefix("{#") {
            rest = c
                .find("#}")
                .and_then(|e| c.get(e + 2..))
                .unwrap_or_default();
            continue;
        }
        if let Some(v) = after.strip_prefix("{{") {
            rest = skip_tag(v, "}}");
            continue;
        }
        let Some(tag) = after.strip_prefix("{%") else {
            rest = after.get(1..).unwrap_or_default();
            continue;
        };
        let body = tag.trim_start_matches(['-', '+']).trim_start();
        let name: String = body
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        rest = skip_tag(tag, "%}");
        if name == "raw" {
            // Everything up to `endraw` is text.
            rest = match rest.find("endraw") {
                Some(e) => skip_tag(rest.get(e..).unwrap_or_default(), "%}"),
                None => "",
            };
            continue;
        }
        match name.as_str() {
            "else" => {
                if let Some(top) = stack.last_mut() {
                    top.looking_for = match top.tag.as_str() {
                        "if" => &["endif"],
                        "for" => &["endfor"],
                        _ => top.looking_for,
                    };
                }
            }
            "elif" => {}
            n if n.starts_with("end") => {
                stack.pop();
            }
            // `{% set x = 1 %}` is a statement, `{% set x %}` a block.
            "set" if tag_has_assignment(body) => {}
            n => {
                if let Some(looking_for) = ends(n) {
                    stack.push(Open {
                        tag: n.to_owned(),
                        looking_for,
                    });
                }
            }
        }
    }
    stack
}

/// `set`'s body holds a top-level `=` (not `==`, `!=`, `<=`, `>=`).
fn tag_has_assignment(body: &str) -> bool {
    let end = body.find("%}").unwrap_or(body.len());
    let b = body.get(..end).unwrap_or(body).as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'='
            && !matches!(
                i.checked_sub(1).and_then(|j| b.get(j)),
                Some(b'=' | b'!' | b'<' | b'>')
            )
            && b.get(i + 1) != Some(&b'=')
    })
}

/// The text after the tag's `close`, strings inside the tag skipped.
fn skip_tag<'a>(tag: &'a str, close: &str) -> &'a str {
    let mut quote: Option<char> = None;
    for (i, c) in tag.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if tag.get(i..).is_some_and(|t| t.starts_with(close)) => {
                return tag.get(i + close.len()..).unwrap_or_default();
            }
            None => {}
        }
    }
    ""
}

/// Jinja2's message for tag `name` met at byte `at` where no statement of
/// that name is known, or (`name` `None`) for the end of the template inside
/// a block: `_fail_ut_eof`.
pub(crate) fn unknown_tag_message(content: &str, at: usize, name: Option<&str>) -> String {
    let stack = open_blocks(content, at);
    let mut message = vec![match name {
        None => "Unexpected end of template.".to_owned(),
        Some(n) => format!("Encountered unknown tag '{n}'."),
    }];
    if let Some(top) = stack.last() {
        let looking = top
            .looking_for
            .iter()
            .map(|t| format!("'{t}'"))
            .collect::<Vec<_>>()
            .join(" or ");
        let expected = name.is_some_and(|n| stack.iter().any(|o| o.looking_for.contains(&n)));
        message.push(if expected {
            format!(
                "You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for {looking}."
            )
        } else {
            format!("Jinja was looking for the following tags: {looking}.")
        });
        message.push(format!(
            "The innermost block that needs to be closed is '{}'.",
            top.tag
        ));
    }
    message.join(" ")
}

#[cfg(test)]
mod tests {
    use super::unknown_tag_message as m;

    #[test]
    fn messages_as_jinja2_writes_them() {
        let t = "{% for x in y %}{% break %}{% endfor %}";
        assert_eq!(
            m(t, 16, Some("break")),
            "Encountered unknown tag 'break'. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'."
        );
        let t = "a\n{% if true %}\"\nb\n";
        assert_eq!(
            m(t, t.len(), None),
            "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'."
        );
        assert_eq!(
            m("{% endfor %}", 0, Some("endfor")),
            "Encountered unknown tag 'endfor'."
        );
        let t = "{% if a %}{% else %}{% set x = '%}' %}{% set y %}{{ '{%' }}{% endset %}";
        assert_eq!(
            m(t, t.len(), None),
            "Unexpected end of template. Jinja was looking for the following tags: 'endif'. The innermost block that needs to be closed is 'if'."
        );
        let t = "{% for x in y %}{% if a %}{% endfor %}";
        assert_eq!(
            m(t, 26, Some("endfor")),
            "Encountered unknown tag 'endfor'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'."
        );
    }
}
