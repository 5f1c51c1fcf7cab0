//! Scalar constructors: SafeConstructor's int, float, bool, timestamp and
//! binary, with Python's conversion semantics and exception classes.
//!
//! Explicit tags (`!!int`, `!!float`, …) feed these arbitrary text, so they
//! reproduce what Python's `int()`, `float()`, `str.lower()`, `datetime` and
//! `base64.decodebytes` accept and how they fail, not just the implicit
//! patterns.

use super::error::{PyErrorClass, YamlError};
use super::timestamp_fields::{Tz, parse_timestamp};
use super::value::{CANONICAL_NAN, Date, DateTime, Int, OTHER_NAN, Value};
use crate::python::{IntTextError, py_int_text, py_lower, py_repr_str, py_strip};
use num_bigint::BigInt;
use std::borrow::Cow;

/// A Python exception that carries no mark (not a `yaml.YAMLError`).
pub(crate) fn py_err(class: PyErrorClass, problem: impl Into<String>) -> YamlError {
    YamlError {
        class,
        context: None,
        problem: problem.into(),
        mark: None,
    }
}

fn index_error() -> YamlError {
    py_err(PyErrorClass::Index, "string index out of range")
}

/// `%.200R`: the repr, cut to 200 characters.
fn repr200(s: &str) -> String {
    let r = py_repr_str(s);
    match r.char_indices().nth(200) {
        Some((i, _)) => r[..i].to_owned(),
        None => r,
    }
}

/// Drop `_` (PyYAML's `value.replace('_', '')`), borrowing when there is none.
fn without_underscores(s: &str) -> Cow<'_, str> {
    if s.contains('_') {
        Cow::Owned(s.replace('_', ""))
    } else {
        Cow::Borrowed(s)
    }
}

/// Python's `int(s, base)` for bases 2, 8, 10, 16 (text already free of `_`).
fn int_in_base(s: &str, base: u32) -> Result<Int, YamlError> {
    let bad = || {
        py_err(
            PyErrorClass::Value,
            format!("invalid literal for int() with base {base}: {}", repr200(s)),
        )
    };
    let (neg, digits, _) = match py_int_text(s, base) {
        Ok(v) => v,
        Err(IntTextError::Invalid) => return Err(bad()),
        Err(IntTextError::TooManyDigits(n)) => {
            return Err(py_err(
                PyErrorClass::Value,
                format!(
                    "Exceeds the limit (4300 digits) for integer string conversion: value has \
                     {n} digits; use sys.set_int_max_str_digits() to increase the limit"
                ),
            ));
        }
    };
    let v = Int::parse_radix(&digits, base).ok_or_else(bad)?;
    Ok(if neg { v.neg() } else { v })
}

/// `construct_yaml_int`.
pub(crate) fn construct_int(value: &str) -> Result<Int, YamlError> {
    let v = without_underscores(value);
    let first = *v.as_bytes().first().ok_or_else(index_error)?;
    let neg = first == b'-';
    let v: &str = if matches!(first, b'-' | b'+') {
        &v[1..]
    } else {
        &v
    };
    let apply = |i: Int| if neg { i.neg() } else { i };
    if v == "0" {
        return Ok(Int::Small(0));
    }
    if let Some(d) = v.strip_prefix("0b") {
        return int_in_base(d, 2).map(apply);
    }
    if let Some(d) = v.strip_prefix("0x") {
        return int_in_base(d, 16).map(apply);
    }
    match v.as_bytes().first() {
        None => Err(index_error()),
        Some(b'0') => int_in_base(v, 8).map(apply),
        _ if v.contains(':') => {
            let mut parts = Vec::new();
            for p in v.split(':') {
                parts.push(int_in_base(p, 10)?);
            }
            let mut total = BigInt::from(0);
            let mut base = BigInt::from(1);
            for d in parts.iter().rev() {
                total += d.to_big() * &base;
                base *= 60;
            }
            Ok(apply(Int::from_big(total)))
        }
        _ => int_in_base(v, 10).map(apply),
    }
}

/// Whether `t` (stripped, ASCII) is Python float syntax.
fn float_syntax_ok(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let body = &t[i..];
    if body.eq_ignore_ascii_case("inf")
        || body.eq_ignore_ascii_case("infinity")
        || body.eq_ignore_ascii_case("nan")
    {
        return true;
    }
    let start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let mut digits = i - start;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        digits += i - s;
    }
    if digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let s = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == s {
            return false;
        }
    }
    i == b.len()
}

/// Python's `float(s)`; NaNs it makes are distinct objects (`OTHER_NAN`).
fn py_float(s: &str) -> Result<f64, YamlError> {
    let t = py_strip(s);
    if t.is_ascii() && float_syntax_ok(t) {
        let lower = t.to_ascii_lowercase();
        let parsed = match lower.trim_start_matches(['+', '-']) {
            "inf" | "infinity" => Some(f64::INFINITY),
            "nan" => Some(OTHER_NAN),
            _ => None,
        };
        let v = match parsed {
            Some(v) if lower.starts_with('-') => -v,
            Some(v) => v,
            None => t.parse::<f64>().ok().unwrap_or(f64::NAN),
        };
        return Ok(v);
    }
    Err(py_err(
        PyErrorClass::Value,
        format!("could not convert string to float: {}", py_repr_str(s)),
    ))
}

fn other_nan(f: f64) -> f64 {
    if f.is_nan() { OTHER_NAN } else { f }
}

/// `construct_yaml_float`.
pub(crate) fn construct_float(value: &str) -> Result<f64, YamlError> {
    let v = without_underscores(value);
    let v: Cow<'_, str> = if v.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
        Cow::Owned(py_lower(&v))
    } else {
        v
    };
    let first = *v.as_bytes().first().ok_or_else(index_error)?;
    let neg = first == b'-';
    let v: &str = if matches!(first, b'-' | b'+') {
        &v[1..]
    } else {
        &v
    };
    let sign = |f: f64| if neg { -f } else { f };
    if v == ".inf" {
        return Ok(sign(f64::INFINITY));
    }
    if v == ".nan" {
        return Ok(CANONICAL_NAN);
    }
    if v.contains(':') {
        let mut parts = Vec::new();
        for p in v.split(':') {
            parts.push(py_float(p)?);
        }
        let mut total = 0.0f64;
        let mut base = Int::Small(1);
        for d in parts.iter().rev() {
            let b = base.to_f64().ok_or_else(|| {
                py_err(PyErrorClass::Overflow, "int too large to convert to float")
            })?;
            total += d * b;
            base = match base {
                Int::Small(x) if x < i64::MAX / 60 => Int::Small(x * 60),
                other => Int::from_big(other.to_big() * 60),
            };
        }
        return Ok(other_nan(sign(total)));
    }
    let f = py_float(v)?;
    Ok(if f.is_nan() { OTHER_NAN } else { sign(f) })
}

/// `construct_yaml_bool`: `bool_values[value.lower()]`.
pub(crate) fn construct_bool(value: &str) -> Result<bool, YamlError> {
    // The resolver's usual words compare without a lower-cased copy.
    for (word, b) in [
        ("true", true),
        ("false", false),
        ("yes", true),
        ("no", false),
        ("on", true),
        ("off", false),
    ] {
        if value.eq_ignore_ascii_case(word) {
            return Ok(b);
        }
    }
    match py_lower(value).as_str() {
        "yes" | "true" | "on" => Ok(true),
        "no" | "false" | "off" => Ok(false),
        other => Err(py_err(PyErrorClass::Key, py_repr_str(other))),
    }
}

fn num(s: &str) -> u32 {
    s.bytes().fold(0u32, |a, b| {
        a.saturating_mul(10).saturating_add(u32::from(b - b'0'))
    })
}

fn value_error(msg: &str) -> YamlError {
    py_err(PyErrorClass::Value, msg)
}

/// Python's date checks, in its order.
fn make_date(y: u32, m: u32, d: u32) -> Result<Date, YamlError> {
    if !(1..=9999).contains(&y) {
        return Err(value_error(&format!("year {y} is out of range")));
    }
    if !(1..=12).contains(&m) {
        return Err(value_error("month must be in 1..12"));
    }
    Date::new(y, m, d).ok_or_else(|| value_error("day is out of range for month"))
}

/// `repr(timedelta(seconds=total))` for a whole number of seconds.
fn timedelta_repr(total: i64) -> String {
    let days = total.div_euclid(86_400);
    let secs = total.rem_euclid(86_400);
    match (days, secs) {
        (0, 0) => "datetime.timedelta(0)".into(),
        (0, s) => format!("datetime.timedelta(seconds={s})"),
        (d, 0) => format!("datetime.timedelta(days={d})"),
        (d, s) => format!("datetime.timedelta(days={d}, seconds={s})"),
    }
}

/// `construct_yaml_timestamp`: a `date` or `datetime`.
pub(crate) fn construct_timestamp(value: &str) -> Result<Value, YamlError> {
    let f = parse_timestamp(value).ok_or_else(|| {
        py_err(
            PyErrorClass::Attribute,
            "'NoneType' object has no attribute 'groupdict'",
        )
    })?;
    let (y, mo, d) = (num(f.year), num(f.month), num(f.day));
    let Some(t) = f.time else {
        return Ok(Value::Date(make_date(y, mo, d)?));
    };
    let microsecond = match t.fraction {
        Some(fr) if !fr.is_empty() => {
            let mut digits: String = fr.chars().take(6).collect();
            while digits.len() < 6 {
                digits.push('0');
            }
            num(&digits)
        }
        _ => 0,
    };
    let offset_minutes = match t.tz {
        None => None,
        Some(Tz::Utc) => Some(0),
        Some(Tz::Offset {
            negative,
            hour,
            minute,
        }) => {
            let mins = num(hour) as i32 * 60 + minute.map_or(0, num) as i32;
            let mins = if negative { -mins } else { mins };
            if mins.abs() >= 24 * 60 {
                return Err(value_error(&format!(
                    "offset must be a timedelta strictly between -timedelta(hours=24) and \
                     timedelta(hours=24), not {}.",
                    timedelta_repr(i64::from(mins) * 60)
                )));
            }
            Some(mins)
        }
    };
    let date = make_date(y, mo, d)?;
    let (h, mi, s) = (num(t.hour), num(t.minute), num(t.second));
    if h > 23 {
        return Err(value_error("hour must be in 0..23"));
    }
    if mi > 59 {
        return Err(value_error("minute must be in 0..59"));
    }
    if s > 59 {
        return Err(value_error("second must be in 0..59"));
    }
    Ok(Value::DateTime(DateTime {
        date,
        hour: h as u8,
        minute: mi as u8,
        second: s as u8,
        microsecond,
        offset_minutes,
    }))
}

fn char_escape(c: char) -> String {
    let cp = u32::from(c);
    if cp < 0x100 {
        format!("\\x{cp:02x}")
    } else if cp < 0x10000 {
        format!("\\u{cp:04x}")
    } else {
        format!("\\U{cp:08x}")
    }
}

fn b64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `base64.decodebytes` (binascii's lenient decoder): other characters are
/// skipped, a complete pad sequence ends the data.
fn decodebytes(data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 3);
    let mut quad = 0u8;
    let mut left = 0u32;
    let mut pads = 0u32;
    for &c in data {
        if c == b'=' {
            if quad >= 2 {
                pads += 1;
                if u32::from(quad) + pads >= 4 {
                    return Ok(out);
                }
            }
            continue;
        }
        let Some(v) = b64_value(c) else { continue };
        let v = u32::from(v);
        pads = 0;
        match quad {
            0 => {
                left = v;
                quad = 1;
            }
            1 => {
                out.push(((left << 2) | (v >> 4)) as u8);
                left = v & 0x0F;
                quad = 2;
            }
            2 => {
                out.push(((left << 4) | (v >> 2)) as u8);
                left = v & 0x03;
                quad = 3;
            }
            _ => {
                out.push(((left << 6) | v) as u8);
                left = 0;
                quad = 0;
            }
        }
    }
    match quad {
        0 => Ok(out),
        1 => Err(format!(
            "Invalid base64-encoded string: number of data characters ({}) cannot be 1 more \
             than a multiple of 4",
            out.len() / 3 * 4 + 1
        )),
        _ => Err("Incorrect padding".into()),
    }
}

/// `construct_yaml_binary`; the error is the ConstructorError's problem.
pub(crate) fn construct_binary(value: &str) -> Result<Vec<u8>, String> {
    if let Some((pos, c)) = value.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
        let run = value
            .chars()
            .skip(pos)
            .take_while(|c| !c.is_ascii())
            .count();
        let what = if run == 1 {
            format!("character '{}' in position {pos}", char_escape(c))
        } else {
            format!("characters in position {pos}-{}", pos + run - 1)
        };
        return Err(format!(
            "failed to convert base64 data into ascii: 'ascii' codec can't encode {what}: \
             ordinal not in range(128)"
        ));
    }
    decodebytes(value.as_bytes()).map_err(|e| format!("failed to decode base64 data: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> String {
        match construct_int(s) {
            Ok(i) => i.to_string(),
            Err(e) => format!("{}: {}", e.class.python_name(), e.problem),
        }
    }

    #[test]
    fn ints() {
        assert_eq!(int("0"), "0");
        assert_eq!(int("-0b1_01"), "-5");
        assert_eq!(int("0x_ff"), "255");
        assert_eq!(int("0755"), "493");
        assert_eq!(int("1:30"), "90");
        assert_eq!(int("1:-30"), "30");
        assert_eq!(int("-1:30:00"), "-5400");
        assert_eq!(int(" 12 "), "12");
        assert_eq!(int("0x-5"), "-5");
        assert_eq!(int("0o17"), "15");
        assert_eq!(int(""), "IndexError: string index out of range");
        assert_eq!(int("-"), "IndexError: string index out of range");
        assert_eq!(
            int("abc"),
            "ValueError: invalid literal for int() with base 10: 'abc'"
        );
        assert_eq!(
            int("0x_"),
            "ValueError: invalid literal for int() with base 16: ''"
        );
        assert_eq!(
            int("123456789012345678901234567890"),
            "123456789012345678901234567890"
        );
    }

    #[test]
    fn floats() {
        assert_eq!(construct_float("1_000.5").unwrap(), 1000.5);
        assert_eq!(construct_float("1:30.5").unwrap(), 90.5);
        assert_eq!(construct_float("1:2:3").unwrap(), 3723.0);
        assert_eq!(construct_float("-.INF").unwrap(), f64::NEG_INFINITY);
        assert_eq!(
            construct_float("-.nan").unwrap().to_bits(),
            CANONICAL_NAN.to_bits()
        );
        assert_eq!(
            construct_float("nan").unwrap().to_bits(),
            OTHER_NAN.to_bits()
        );
        assert_eq!(construct_float("1e3").unwrap(), 1000.0);
        assert!(construct_float("-0.0").unwrap().is_sign_negative());
        let e = construct_float("X").unwrap_err();
        assert_eq!(e.problem, "could not convert string to float: 'x'");
        assert_eq!(construct_float("").unwrap_err().class, PyErrorClass::Index);
    }

    #[test]
    fn bools_and_timestamps() {
        assert!(construct_bool("YeS").unwrap());
        assert_eq!(construct_bool("Maybe").unwrap_err().problem, "'maybe'");
        let dt = construct_timestamp("2001-12-14 21:59:43.1234567 -5").unwrap();
        match dt {
            Value::DateTime(d) => {
                assert_eq!(d.isoformat('T'), "2001-12-14T21:59:43.123456-05:00")
            }
            _ => panic!(),
        }
        let e = construct_timestamp("2002-01-02 1:02:03 -23:99").unwrap_err();
        assert!(
            e.problem
                .ends_with("datetime.timedelta(days=-2, seconds=84060).")
        );
        assert_eq!(
            construct_timestamp("x").unwrap_err().class,
            PyErrorClass::Attribute
        );
        assert_eq!(
            construct_timestamp("2002-02-30").unwrap_err().problem,
            "day is out of range for month"
        );
    }

    #[test]
    fn binary() {
        assert_eq!(construct_binary("aGVs bG8K\n").unwrap(), b"hello\n");
        assert_eq!(construct_binary("aGVsbG8K=").unwrap(), b"hello\n");
        assert!(construct_binary("aGVsbG8K=x").unwrap_err().contains("(9)"));
        assert!(
            construct_binary("ab")
                .unwrap_err()
                .ends_with("Incorrect padding")
        );
        assert!(
            construct_binary("éé a")
                .unwrap_err()
                .contains("position 0-1")
        );
    }
}
