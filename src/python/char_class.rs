//! Python's `str` character-class predicates (`isalpha`, `isalnum`, `isdecimal`, `isdigit`, `isnumeric`) on CPython 3.11's tables.
//!
//! Rust's `char::is_alphabetic`/`is_alphanumeric`/`is_numeric` are other
//! Unicode properties (Alphabetic takes marks CPython's isalpha() does not)
//! of a newer Unicode, and Rust has no isdigit/isdecimal split: the
//! non-ASCII members come from `word_table` (generated from python3,
//! compared code point by code point in `tests/oracle/python_tables.rs`).

use super::code_point_ranges::range_of;
use super::word_table::{ALNUM, ALPHA, DECIMAL, DIGIT, NUMERIC};

/// Whether `c` is in one of `ranges`.
fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    range_of(ranges, u32::from(c)).is_some()
}

/// `c.isalpha()` for one code point (categories Lm, Lt, Lu, Ll, Lo).
pub fn py_isalpha(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        in_ranges(ALPHA, c)
    }
}

/// `c.isalnum()` for one code point: isalpha, isdecimal, isdigit or
/// isnumeric; with `_`, Python `re`'s `\w`.
pub fn py_isalnum(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else {
        in_ranges(ALNUM, c)
    }
}

/// `c.isdecimal()` for one code point (category Nd); Python `re`'s `\d`.
pub fn py_isdecimal(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(DECIMAL, c)
    }
}

/// `c.isdigit()` for one code point (Numeric_Type Digit or Decimal).
pub fn py_isdigit(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(DIGIT, c)
    }
}

/// `c.isnumeric()` for one code point (any Numeric_Type).
pub fn py_isnumeric(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_ranges(NUMERIC, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_split_as_cpython_does() {
        // Checked with python3 3.11: '٣' (Arabic-Indic three) is decimal, '²' a
        // digit but not decimal, '½' and '五' numeric only (五 a letter too);
        // U+0345 (a combining mark) is Rust-Alphabetic, not Python-isalpha.
        assert!(py_isdecimal('٣') && py_isdigit('٣') && py_isnumeric('٣'));
        assert!(!py_isdecimal('²') && py_isdigit('²') && py_isnumeric('²'));
        assert!(!py_isdigit('½') && py_isnumeric('½') && py_isalnum('½'));
        assert!(!py_isdigit('五') && py_isnumeric('五') && py_isalpha('五'));
        assert!('\u{345}'.is_alphabetic() && !py_isalpha('\u{345}') && !py_isalnum('\u{345}'));
        assert!(py_isalpha('é') && !py_isalpha('_') && !py_isalnum(' '));
    }
}
