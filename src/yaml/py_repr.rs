//! `py_repr_char`: Python's `repr()` of a one-character string, as PyYAML quotes
//! characters in its error messages (`found character '\t' that cannot start any token`).

use super::py_repr_table::NON_PRINTABLE;

/// Whether Python's `str.isprintable()` holds for this code point.
fn is_printable(cp: u32) -> bool {
    if cp < 0x80 {
        return (0x20..0x7F).contains(&cp);
    }
    NON_PRINTABLE
        .binary_search_by(|&(lo, hi)| {
            if hi < cp {
                std::cmp::Ordering::Less
            } else if lo > cp {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_err()
}

/// `repr(ch)` for a code point (surrogates allowed).
pub(crate) fn py_repr_code_point(cp: u32) -> String {
    let body = match cp {
        0x27 => return "\"'\"".to_owned(),
        0x5C => "\\\\".to_owned(),
        0x09 => "\\t".to_owned(),
        0x0A => "\\n".to_owned(),
        0x0D => "\\r".to_owned(),
        _ if is_printable(cp) => char::from_u32(cp).map(String::from).unwrap_or_default(),
        _ if cp < 0x100 => format!("\\x{cp:02x}"),
        _ if cp < 0x10000 => format!("\\u{cp:04x}"),
        _ => format!("\\U{cp:08x}"),
    };
    format!("'{body}'")
}

/// `repr(ch)` for a character.
pub(crate) fn py_repr_char(c: char) -> String {
    py_repr_code_point(u32::from(c))
}

/// `repr(s)` for a string (PyYAML quotes tag handles this way).
pub(crate) fn py_repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        let cp = u32::from(c);
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            _ if c == quote => {
                out.push('\\');
                out.push(c);
            }
            _ if is_printable(cp) => out.push(c),
            _ if cp < 0x100 => out.push_str(&format!("\\x{cp:02x}")),
            _ if cp < 0x10000 => out.push_str(&format!("\\u{cp:04x}")),
            _ => out.push_str(&format!("\\U{cp:08x}")),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs() {
        assert_eq!(py_repr_char('\t'), "'\\t'");
        assert_eq!(py_repr_char('\0'), "'\\x00'");
        assert_eq!(py_repr_char('\''), "\"'\"");
        assert_eq!(py_repr_char('\u{a0}'), "'\\xa0'");
        assert_eq!(py_repr_char('\u{2028}'), "'\\u2028'");
        assert_eq!(py_repr_char('é'), "'é'");
        assert_eq!(py_repr_str("!e!"), "'!e!'");
    }
}
