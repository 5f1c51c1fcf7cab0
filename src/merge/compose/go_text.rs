//! `go_text`: scalars as Go's `fmt` `%v` writes them (Compose builds `key=value` items with it).

use crate::yaml::value::{Node, PyStr, PyStrBuilder, Value, py_str};

/// `%v` of a scalar the way compose-go sees it after decoding YAML: strings
/// as they are, `true`/`false`, decimal integers, floats in Go's shortest
/// `%g` form (`1e+06`, `0.5`), `<nil>` for null. Collections fall back to
/// Python's `str()` (Compose would print Go's `map[…]`/`[…]`; such values
/// are not valid where this is used).
pub(super) fn go_value_text(node: &Node) -> PyStr {
    match node.value() {
        Value::Str(s) => s.clone(),
        Value::Null => PyStr::from("<nil>"),
        Value::Bool(b) => PyStr::from(if *b { "true" } else { "false" }),
        Value::Int(i) => PyStr::from(i.to_big().to_string()),
        Value::Float(f) => PyStr::from(go_float(*f)),
        _ => py_str(node),
    }
}

/// `key=value` (or the bare key when value is null), as `convertIntoSequence` builds it.
pub(super) fn go_entry(key: &Node, value: &Node) -> PyStr {
    let mut out = PyStrBuilder::new();
    out.push_py(&go_value_text(key));
    if !value.is_null() {
        out.push('=');
        out.push_py(&go_value_text(value));
    }
    out.finish()
}

/// Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`):
/// shortest round-trip digits, in exponent form when the decimal exponent
/// is below -4 or at least 6 (`1e+06`, `123456`).
fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `1.234e6`.
    let sci = format!("{f:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    // With the shortest precision Go decides as for precision 6.
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.unsigned_abs())
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::go_float;

    #[test]
    fn floats_as_go_prints_them() {
        assert_eq!(go_float(1.0), "1");
        assert_eq!(go_float(1.5), "1.5");
        assert_eq!(go_float(1e6), "1e+06");
        assert_eq!(go_float(0.0001), "0.0001");
        assert_eq!(go_float(0.00001), "1e-05");
    }
}
