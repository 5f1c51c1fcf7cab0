//! `py_repr_str`, `py_repr_bytes`: Python's `repr()` of a `str` (PyYAML's and cloud-init's messages, Jinja2's output) and of `bytes`.

use super::printable::py_is_printable;

/// `repr(s)` of the string made of these code points (lone surrogates allowed):
/// single quotes unless the text has `'` and no `"`; `\\`, `\t`, `\n`, `\r`
/// and the quote escaped; what `str.isprintable()` rejects as `\xNN`,
/// `\uNNNN` or `\UNNNNNNNN`.
pub(crate) fn py_repr_code_points<I>(cps: I) -> String
where
    I: Iterator<Item = u32> + Clone,
{
    let (mut single, mut double) = (false, false);
    for cp in cps.clone() {
        single |= cp == 0x27;
        double |= cp == 0x22;
    }
    let quote = if single && !double { '"' } else { '\'' };
    let mut out = String::with_capacity(cps.size_hint().0 + 2);
    out.push(quote);
    for cp in cps {
        match char::from_u32(cp) {
            Some('\\') => out.push_str("\\\\"),
            Some('\t') => out.push_str("\\t"),
            Some('\n') => out.push_str("\\n"),
            Some('\r') => out.push_str("\\r"),
            Some(c) if c == quote => {
                out.push('\\');
                out.push(c);
            }
            Some(c) if py_is_printable(cp) => out.push(c),
            _ if cp < 0x100 => out.push_str(&format!("\\x{cp:02x}")),
            _ if cp < 0x10000 => out.push_str(&format!("\\u{cp:04x}")),
            _ => out.push_str(&format!("\\U{cp:08x}")),
        }
    }
    out.push(quote);
    out
}

/// `repr(s)`.
pub(crate) fn py_repr_str(s: &str) -> String {
    py_repr_code_points(s.chars().map(u32::from))
}

/// `repr(ch)`: PyYAML's `found character '\t' that cannot start any token`.
pub(crate) fn py_repr_char(c: char) -> String {
    py_repr_code_points(std::iter::once(u32::from(c)))
}

/// `repr(b)` of `bytes`: `b'…'` (double quotes if it has `'` and no `"`), `\\`, `\t`,
/// `\n`, `\r` and the quote escaped, other bytes outside `' '..='~'` as `\xNN`.
pub(crate) fn py_repr_bytes(b: &[u8]) -> String {
    let has_single = b.contains(&b'\'');
    let has_double = b.contains(&b'"');
    let quote = if has_single && !has_double {
        b'"'
    } else {
        b'\''
    };
    let mut out = String::from("b");
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            0x20..=0x7E => out.push(c as char),
            _ => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push(quote as char);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reprs() {
        assert_eq!(py_repr_bytes(b"a'\x00"), "b\"a'\\x00\"");
        let ch = py_repr_char;
        assert_eq!(ch('\t'), "'\\t'");
        assert_eq!(ch('\0'), "'\\x00'");
        assert_eq!(ch('\''), "\"'\"");
        assert_eq!(ch('"'), "'\"'");
        assert_eq!(ch('\u{a0}'), "'\\xa0'");
        assert_eq!(ch('\u{2028}'), "'\\u2028'");
        assert_eq!(ch('é'), "'é'");
        // Unassigned in Unicode 14: CPython 3.11 escapes it.
        assert_eq!(ch('\u{378}'), "'\\u0378'");
        assert_eq!(py_repr_code_points([0xDC80].into_iter()), "'\\udc80'");
        assert_eq!(py_repr_str("!e!"), "'!e!'");
        assert_eq!(py_repr_str("it's"), "\"it's\"");
        assert_eq!(py_repr_str("a'\"b\n"), "'a\\'\"b\\n'");
        assert_eq!(py_repr_str("é\u{7f}\u{e0000}"), "'é\\x7f\\U000e0000'");
    }
}
