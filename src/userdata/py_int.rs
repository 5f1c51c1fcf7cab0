//! `py_int`: Python's `int(x)` for the values cloud-init feeds it (launch indexes).

use crate::python::py_int_text;
use crate::yaml::value::{Int, Value};

/// How `int(x)` fails: `ValueError`/`TypeError` are caught by cloud-init,
/// `OverflowError` (`int(float('inf'))`) is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IntError {
    /// `ValueError` or `TypeError`: no launch index.
    Invalid,
    /// `OverflowError`: escapes cloud-init's handler.
    Overflow,
}

/// `int(s)` for a string, base 10: surrounding whitespace, one sign, digits
/// with single underscores between them, at most 4300 digits.
pub fn int_from_str(s: &str) -> Option<Int> {
    let (neg, digits, _) = py_int_text(s, 10).ok()?;
    let i = Int::parse_radix(&digits, 10)?;
    Some(if neg { i.neg() } else { i })
}

/// `int(value)`.
pub fn py_int(v: &Value) -> Result<Int, IntError> {
    match v {
        Value::Int(i) => Ok(i.clone()),
        Value::Bool(b) => Ok(Int::Small(i64::from(*b))),
        Value::Float(f) => {
            if f.is_nan() {
                Err(IntError::Invalid)
            } else if f.is_infinite() {
                Err(IntError::Overflow)
            } else {
                Ok(Int::from_big(crate::yaml::value::float_trunc_to_big(
                    f.trunc(),
                )))
            }
        }
        Value::Str(s) => s.as_str().and_then(int_from_str).ok_or(IntError::Invalid),
        Value::Bytes(b) => std::str::from_utf8(b)
            .ok()
            .and_then(int_from_str)
            .ok_or(IntError::Invalid),
        _ => Err(IntError::Invalid),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_int_of_strings() {
        assert_eq!(int_from_str(" 2 "), Some(Int::Small(2)));
        assert_eq!(int_from_str("+3"), Some(Int::Small(3)));
        assert_eq!(int_from_str("1_0"), Some(Int::Small(10)));
        assert_eq!(int_from_str("010"), Some(Int::Small(10)));
        assert_eq!(int_from_str("-0"), Some(Int::Small(0)));
        let too_long = "1".repeat(4301);
        for bad in [
            "1.5", "abc", "", "1__0", "_1", "1_", "0x10", "+", "- 1", &too_long,
        ] {
            assert_eq!(int_from_str(bad), None, "{bad}");
        }
        assert_eq!(py_int(&Value::Float(1.9)), Ok(Int::Small(1)));
        assert_eq!(py_int(&Value::Float(-1.9)), Ok(Int::Small(-1)));
        assert_eq!(
            py_int(&Value::Float(f64::INFINITY)),
            Err(IntError::Overflow)
        );
    }
}
