//! `LookupKey`: a lookup key split into segments as puppet splits it (`a.b`, `a.'x.y'`, `a.0`).

use crate::merge::ruby::{ruby_space, ruby_strip};

/// One segment: a name (first segment, hash keys) or an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Segment {
    /// A hash key (quoted segments lose their quotes).
    Name(String),
    /// An integer segment (an array index; no hash key matches it).
    Index(i64),
}

/// Split `key` on dots outside quotes; `None` is puppet's "Syntax error".
pub(super) fn split_key(key: &str) -> Option<Vec<Segment>> {
    if !key.contains(['\'', '"', '.']) {
        return Some(vec![Segment::Name(key.to_owned())]);
    }
    let mut out = Vec::new();
    let mut rest = key;
    loop {
        // One token: optional spaces, a quoted string, optional spaces; or
        // a run without quotes or dots (puppet's `split(/(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)/)`,
        // Ruby's ASCII `\s`, then each segment's `strip!`).
        let trimmed = rest.trim_start_matches(ruby_space);
        let (token, after) = match trimmed.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = trimmed.get(1..)?;
                let end = body.find(q)?;
                if end == 0 {
                    return None;
                }
                let inner = body.get(..end)?;
                let after = body.get(end + 1..)?.trim_start_matches(ruby_space);
                (Segment::Name(inner.to_owned()), after)
            }
            _ => {
                let end = rest.find(['\'', '"', '.']).unwrap_or(rest.len());
                if end == 0 {
                    return None;
                }
                let raw = rest.get(..end)?;
                let t = ruby_strip(raw);
                let seg = match t.parse::<i64>() {
                    Ok(i)
                        if t.trim_start_matches(['+', '-'])
                            .chars()
                            .all(|c| c.is_ascii_digit()) =>
                    {
                        Segment::Index(i)
                    }
                    _ => Segment::Name(t.to_owned()),
                };
                (seg, rest.get(end..)?)
            }
        };
        out.push(token);
        if after.is_empty() {
            return Some(out);
        }
        rest = after.strip_prefix('.')?;
        if rest.is_empty() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_puppet() {
        assert_eq!(split_key("a"), Some(vec![Segment::Name("a".into())]));
        assert_eq!(
            split_key("a.'x.y'.0"),
            Some(vec![
                Segment::Name("a".into()),
                Segment::Name("x.y".into()),
                Segment::Index(0)
            ])
        );
        assert_eq!(split_key("literal('"), None);
        assert_eq!(split_key("a."), None);
        assert_eq!(split_key(".a"), None);
    }
}
