//! `py_int_text`, `py_int_big`: what Python's `int(s, base)` accepts as text, and the number it makes.

use super::space::{py_is_space, py_strip};
use super::code_point_ranges::range_of;
use super::word_table::DECIMAL;
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

/// `int(s, base)` up to the digits, for base 0 or 2 to 36: CPython first
/// writes each Unicode decimal digit as its ASCII digit and each whitespace
/// as a space (`'٣'` is 3), then takes surrounding whitespace, one sign, the
/// `0b`/`0o`/`0x` prefix (base 0: it decides the radix, else 10 with no
/// leading zero unless all are zeros; base 2/8/16: optional), and digits with
/// single underscores between them (one may follow a prefix). Returns whether
/// the value is negative, the digits without underscores and the radix.
pub(crate) fn py_int_text(
    s: &str,
    base: u32,
) -> Result<(bool, Cow<'_, str>, u32), IntTextError> {
    if s.is_ascii() {
        let (neg, body, radix) = int_body(s, base)?;
        return Ok((neg, without_underscores(Cow::Borrowed(body)), radix));
    }
    let ascii: String = s
        .chars()
        .map(|c| match c {
            _ if c.is_ascii() => c,
            _ if py_is_space(c) => ' ',
            // Not ASCII, so not `_`, a sign or a digit: an invalid literal.
            _ => decimal_value(c).map_or('?', |d| char::from(b'0' + d)),
        })
        .collect();
    let (neg, body, radix) = int_body(&ascii, base)?;
    Ok((neg, Cow::Owned(body.replace('_', "")), radix))
}

/// `int(s, base)` as a number; `None` where Python raises `ValueError` (too
/// many digits included: Jinja2's `int` filter then tries `int(float(s))`).
pub(crate) fn py_int_big(s: &str, base: i128) -> Option<num_bigint::BigInt> {
    let (neg, digits, radix) = py_int_text(s, u32::try_from(base).ok()?).ok()?;
    let v = num_bigint::BigInt::parse_bytes(digits.as_bytes(), radix)?;
    Some(if neg { -v } else { v })
}

fn without_underscores(body: Cow<'_, str>) -> Cow<'_, str> {
    if body.contains('_') {
        Cow::Owned(body.replace('_', ""))
    } else {
        body
    }
}

/// The digit a Unicode decimal (category Nd) stands for: Nd comes in runs of
/// ten from 0 to 9 (a Unicode stability policy), so its place in its run.
fn decimal_value(c: char) -> Option<u8> {
    let cp = u32::from(c);
    let (lo, _) = range_of(DECIMAL, cp)?;
    u8::try_from((cp - lo) % 10).ok()
}

/// `int_body` of ASCII text: the sign, the digits with their underscores,
/// and the radix.
fn int_body(s: &str, base: u32) -> Result<(bool, &str, u32), IntTextError> {
    if base == 1 || base > 36 {
        return Err(IntTextError::Invalid);
    }
    let t = py_strip(s);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..).unwrap_or("")),
        Some(b'+') => (false, t.get(1..).unwrap_or("")),
        _ => (false, t),
    };
    let prefix_radix = match t.as_bytes() {
        [b'0', b'b' | b'B', ..] => Some(2),
        [b'0', b'o' | b'O', ..] => Some(8),
        [b'0', b'x' | b'X', ..] => Some(16),
        _ => None,
    };
    let (radix, t) = match prefix_radix {
        Some(r) if base == 0 || base == r => (r, t.get(2..).map(|b| b.strip_prefix('_').unwrap_or(b))),
        _ => (if base == 0 { 10 } else { base }, Some(t)),
    };
    let body = t.unwrap_or("");
    if body.is_empty()
        || body.starts_with('_')
        || body.ends_with('_')
        || body.contains("__")
        || !body.chars().all(|c| c == '_' || c.is_digit(radix))
        // Base 0 reads `010` as Python source would: a leading zero only in zero.
        || (base == 0 && prefix_radix.is_none() && body.starts_with('0') && body.contains(['1', '2', '3', '4', '5', '6', '7', '8', '9']))
    {
        return Err(IntTextError::Invalid);
    }
    if !radix.is_power_of_two() && body.len() - body.matches('_').count() > MAX_STR_DIGITS {
        return Err(IntTextError::TooManyDigits(
            body.len() - body.matches('_').count(),
        ));
    }
    Ok((neg, body, radix))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str, base: u32) -> Option<(bool, String)> {
        py_int_text(s, base).ok().map(|(n, d, _)| (n, d.into_owned()))
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

    /// Checked with python3 3.11.7.
    #[test]
    fn int_text_takes_base_0_other_bases_and_unicode_digits() {
        let radix = |s: &str, base: u32| py_int_text(s, base).ok().map(|(_, _, r)| r);
        assert_eq!(ok("0x_1f", 0), Some((false, "1f".into())));
        assert_eq!(radix("0x_1f", 0), Some(16));
        assert_eq!(radix("0B1_1", 0), Some(2));
        assert_eq!(ok("0_0", 0), Some((false, "00".into())));
        assert_eq!(ok("0x1", 36), Some((false, "0x1".into())));
        assert_eq!(ok("Z", 36), Some((false, "Z".into())));
        assert_eq!(ok("0o17", 8), Some((false, "17".into())));
        // '٣' (U+0663) is 3; U+3000 is whitespace.
        assert_eq!(ok(" \u{663}\u{3000}", 10), Some((false, "3".into())));
        assert_eq!(ok("-\u{663}_\u{663}", 10), Some((true, "33".into())));
        for (bad, base) in [
            ("010", 0),
            ("0_1", 0),
            ("0x__1", 0),
            ("0x", 16),
            ("\u{661}x", 10),
            ("\u{b2}", 10),
            ("1", 1),
            ("1", 37),
        ] {
            assert_eq!(ok(bad, base), None, "{bad} base {base}");
        }
    }
}
