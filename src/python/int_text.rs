//! `py_int_text`: what Python's `int(s, base)` accepts as text, before the digits become a number.

use super::space::py_strip;
use std::borrow::Cow;

/// Why `int(s, base)` raises `ValueError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntTextError {
    /// `invalid literal for int() with base N: …`.
    Invalid,
    /// `Exceeds the limit (4300 digits) for integer string conversion: value has N digits…`
    /// (CPython 3.11's `sys.int_max_str_digits`, for bases that are not powers of two).
    TooManyDigits(usize),
}

/// CPython 3.11's default `sys.get_int_max_str_digits()`.
const MAX_STR_DIGITS: usize = 4300;

/// `int(s, base)` for base 2, 8, 10 or 16, up to the digits: surrounding
/// whitespace, one sign, the base's optional `0b`/`0o`/`0x` prefix, digits
/// with single underscores between them (one may follow the prefix). Returns
/// whether the value is negative and the digits without underscores.
/// (ASCII digits only: CPython also maps other Unicode decimal digits.)
pub(crate) fn py_int_text(s: &str, base: u32) -> Result<(bool, Cow<'_, str>), IntTextError> {
    let t = py_strip(s);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..).unwrap_or("")),
        Some(b'+') => (false, t.get(1..).unwrap_or("")),
        _ => (false, t),
    };
    let prefix = match base {
        2 => Some(b'b'),
        8 => Some(b'o'),
        16 => Some(b'x'),
        _ => None,
    };
    let (prefixed, t) = match (prefix, t.as_bytes()) {
        (Some(p), [b'0', c, ..]) if c.to_ascii_lowercase() == p => (true, t.get(2..).unwrap_or("")),
        _ => (false, t),
    };
    let body = if prefixed {
        t.strip_prefix('_').unwrap_or(t)
    } else {
        t
    };
    if body.is_empty()
        || body.starts_with('_')
        || body.ends_with('_')
        || body.contains("__")
        || !body.chars().all(|c| c == '_' || c.is_digit(base))
    {
        return Err(IntTextError::Invalid);
    }
    let digits = if body.contains('_') {
        Cow::Owned(body.replace('_', ""))
    } else {
        Cow::Borrowed(body)
    };
    if !base.is_power_of_two() && digits.len() > MAX_STR_DIGITS {
        return Err(IntTextError::TooManyDigits(digits.len()));
    }
    Ok((neg, digits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str, base: u32) -> Option<(bool, String)> {
        py_int_text(s, base).ok().map(|(n, d)| (n, d.into_owned()))
    }

    #[test]
    fn int_text_follows_python() {
        assert_eq!(ok(" 2 ", 10), Some((false, "2".into())));
        assert_eq!(ok("-1_0", 10), Some((true, "10".into())));
        assert_eq!(ok("010", 10), Some((false, "010".into())));
        assert_eq!(ok("0x_1F", 16), Some((false, "1F".into())));
        assert_eq!(ok("1F", 16), Some((false, "1F".into())));
        assert_eq!(ok("0b101", 2), Some((false, "101".into())));
        for bad in [
            "1.5", "abc", "", "1__0", "_1", "1_", "0x10", "+", "- 1", "0_x1",
        ] {
            assert_eq!(ok(bad, 10), None, "{bad}");
        }
        assert_eq!(ok("0x", 16), None);
        assert_eq!(ok("0x__1", 16), None);
        assert_eq!(ok("2", 2), None);
        let long = "1".repeat(4301);
        assert_eq!(
            py_int_text(&long, 10),
            Err(IntTextError::TooManyDigits(4301))
        );
        assert!(py_int_text(&long, 16).is_ok());
    }
}
