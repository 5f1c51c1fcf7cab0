//! `py_json_float` / `py_json_str_unit`: how Python's `json.dumps` writes a float and a string's code points.

use super::float_repr::py_float_repr;

/// A float as `json.dumps` writes it (`allow_nan=True`): `NaN`, `Infinity`,
/// `-Infinity`, else `repr(f)`.
pub(crate) fn py_json_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else {
        py_float_repr(f)
    }
}

/// One code point of a string (a lone surrogate allowed) as `json.dumps`
/// writes it with `ensure_ascii=True`: `"` and `\` escaped, `\n \r \t \b \f`
/// by name, printable ASCII as is, everything else (U+007F too) as `\uXXXX`,
/// in UTF-16 surrogate pairs above U+FFFF.
pub(crate) fn py_json_str_unit(out: &mut String, cp: u32) {
    match cp {
        0x22 => out.push_str("\\\""),
        0x5c => out.push_str("\\\\"),
        0x0a => out.push_str("\\n"),
        0x0d => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        0x20..=0x7e => out.push(char::from_u32(cp).unwrap_or('?')),
        0x10000.. => {
            let v = cp - 0x10000;
            out.push_str(&format!(
                "\\u{:04x}\\u{:04x}",
                0xd800 + (v >> 10),
                0xdc00 + (v & 0x3ff)
            ));
        }
        _ => out.push_str(&format!("\\u{cp:04x}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_text_follows_python() {
        let mut out = String::new();
        for cp in "a\"\\\n\u{7f}é\u{1f600}"
            .chars()
            .map(u32::from)
            .chain([0xDC80])
        {
            py_json_str_unit(&mut out, cp);
        }
        assert_eq!(out, "a\\\"\\\\\\n\\u007f\\u00e9\\ud83d\\ude00\\udc80");
        assert_eq!(py_json_float(f64::NAN), "NaN");
        assert_eq!(py_json_float(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(py_json_float(1e16), "1e+16");
    }
}
