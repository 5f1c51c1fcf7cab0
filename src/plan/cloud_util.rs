//! cloud-init's `util` helpers the modules and handlers call (`clean_filename`, `dos2unix`, `get_cfg_option_*`, `get_cfg_by_path`), with Python's semantics for every value type.

use crate::python::py_strip;
use crate::yaml::value::{Node, PyStr, PyStrBuilder, Value, py_eq, py_str};

/// `util.clean_filename`: `/` becomes `_`, every character outside
/// `_-.()`, digits and ASCII letters is dropped.
pub(crate) fn clean_filename(name: &str) -> String {
    name.replace('/', "_")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "_-.()".contains(*c))
        .collect()
}

/// `util.dos2unix`: when the first line ends in `\r\n`, every `\r\n` becomes `\n`.
pub(super) fn dos2unix(text: &PyStr) -> PyStr {
    let b = text.as_wtf8();
    match b.iter().position(|&c| c == b'\n') {
        Some(pos) if pos > 0 && b.get(pos - 1) == Some(&b'\r') => {
            let mut out = PyStrBuilder::with_capacity(b.len());
            let mut i = 0;
            while i < b.len() {
                let end = b
                    .get(i..)
                    .and_then(|rest| rest.windows(2).position(|w| w == b"\r\n"))
                    .map_or(b.len(), |p| i + p);
                out.push_wtf8(b.get(i..end).unwrap_or(&[]));
                if end < b.len() {
                    out.push('\n');
                }
                i = end + 2;
            }
            out.finish()
        }
        _ => text.clone(),
    }
}

/// `util.encode_text(text)`: UTF-8, strict (a lone surrogate raises).
pub(super) fn encode_text(text: &PyStr) -> Result<Vec<u8>, String> {
    match text.as_str() {
        Some(s) => Ok(s.as_bytes().to_vec()),
        None => {
            let pos = text
                .chars()
                .position(|c| (0xD800..=0xDFFF).contains(&c))
                .unwrap_or(0);
            let cp = text.chars().nth(pos).unwrap_or(0);
            Err(format!(
                "UnicodeEncodeError: 'utf-8' codec can't encode character '\\u{cp:04x}' in position {pos}: surrogates not allowed"
            ))
        }
    }
}

/// `s.lstrip()` of a loaded string.
pub(super) fn lstrip(text: &PyStr) -> PyStr {
    let mut out = PyStrBuilder::new();
    for cp in crate::python::py_lstrip_code_points(text.chars()) {
        out.push_code_point(cp);
    }
    out.finish()
}

/// `key in obj` for a string key, or the `TypeError` Python raises.
pub(super) fn py_contains(obj: &Node, key: &str) -> Result<bool, String> {
    match obj.value() {
        Value::Map(m) | Value::Set(m) => Ok(m.get_str(key).is_some()),
        Value::Str(s) => Ok(s.to_string_lossy().contains(key)),
        Value::Seq(items) | Value::Tuple(items) => {
            let k = Node::str(key);
            Ok(items.iter().any(|i| py_eq(i, &k)))
        }
        Value::Bytes(_) => Err("TypeError: a bytes-like object is required, not 'str'".into()),
        _ => Err(format!(
            "TypeError: argument of type '{}' is not iterable",
            obj.type_name()
        )),
    }
}

/// `obj[key]` for a string key that `in` found.
pub(super) fn py_getitem(obj: &Node, key: &str) -> Result<Node, String> {
    match obj.value() {
        Value::Map(m) => m
            .get_str(key)
            .cloned()
            .ok_or_else(|| format!("KeyError: '{key}'")),
        Value::Str(_) => Err("TypeError: string indices must be integers, not 'str'".into()),
        Value::Seq(_) | Value::Tuple(_) => Err(format!(
            "TypeError: {} indices must be integers or slices, not str",
            obj.type_name()
        )),
        _ => Err(format!(
            "TypeError: '{}' object is not subscriptable",
            obj.type_name()
        )),
    }
}

/// `util.is_true(val)`.
pub(super) fn is_true(v: &Node) -> bool {
    match v.value() {
        Value::Bool(b) => *b,
        _ => matches!(
            py_strip(&crate::python::py_lower(&py_str(v).to_string_lossy())),
            "true" | "1" | "on" | "yes"
        ),
    }
}

/// `util.translate_bool(val)`.
pub(super) fn translate_bool(v: &Node) -> bool {
    if !v.is_truthy() {
        return false;
    }
    is_true(v)
}

/// `util.get_cfg_option_bool(obj, key, default)`.
pub(super) fn get_cfg_option_bool(obj: &Node, key: &str, default: bool) -> Result<bool, String> {
    if !py_contains(obj, key)? {
        return Ok(default);
    }
    Ok(translate_bool(&py_getitem(obj, key)?))
}

/// `util.get_cfg_by_path(obj, path, default)` (`None`: the default).
pub(super) fn get_cfg_by_path(obj: &Node, path: &[&str]) -> Result<Option<Node>, String> {
    let mut cur = obj.clone();
    for tok in path {
        if !py_contains(&cur, tok)? {
            return Ok(None);
        }
        cur = py_getitem(&cur, tok)?;
    }
    Ok(Some(cur))
}

/// `util.get_cfg_option_list(obj, key, [])`: a list's items, `[]` for
/// `None`, else `[str(value)]`.
pub(super) fn get_cfg_option_list(obj: &Node, key: &str) -> Result<Vec<Node>, String> {
    if !py_contains(obj, key)? {
        return Ok(Vec::new());
    }
    let v = py_getitem(obj, key)?;
    Ok(match v.value() {
        Value::Null => Vec::new(),
        Value::Seq(items) => items.items().to_vec(),
        Value::Str(_) => vec![v.clone()],
        _ => vec![Node::synthetic(Value::Str(py_str(&v)))],
    })
}

/// `int(text, 8)`: optional sign, optional `0o`, underscores between digits.
pub(super) fn int_base8(text: &str) -> Option<i64> {
    let t = py_strip(text);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..)?),
        Some(b'+') => (false, t.get(1..)?),
        _ => (false, t),
    };
    let body = match body.get(..2) {
        Some("0o" | "0O") => body.get(2..)?.strip_prefix('_').unwrap_or(body.get(2..)?),
        _ => body,
    };
    if body.is_empty() || body.starts_with('_') || body.ends_with('_') || body.contains("__") {
        return None;
    }
    let mut v: i64 = 0;
    for c in body.chars().filter(|&c| c != '_') {
        let d = c.to_digit(8)?;
        v = v.checked_mul(8)?.checked_add(i64::from(d))?;
    }
    Some(if neg { -v } else { v })
}

/// `for item in obj`: a list's items, a string's characters, a dict's
/// keys, bytes' integers; a `TypeError` for the rest. A set's order is
/// Python's hash order, which cloudfold cannot know: an error too.
pub(super) fn py_iter(obj: &Node) -> Result<Vec<Node>, String> {
    Ok(match obj.value() {
        Value::Seq(s) | Value::Tuple(s) => s.items().to_vec(),
        Value::Map(m) => m.keys().cloned().collect(),
        Value::Str(s) => s
            .chars()
            .map(|cp| {
                let mut b = PyStrBuilder::new();
                b.push_code_point(cp);
                Node::synthetic(Value::Str(b.finish()))
            })
            .collect(),
        Value::Bytes(b) => b
            .iter()
            .map(|&x| Node::synthetic(Value::Int(crate::yaml::value::Int::Small(i64::from(x)))))
            .collect(),
        Value::Set(_) => {
            return Err(
                "cloudfold cannot plan this: a set, which Python iterates in hash order".to_owned(),
            );
        }
        _ => {
            return Err(format!(
                "TypeError: '{}' object is not iterable",
                obj.type_name()
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(s: &str) -> Node {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    #[test]
    fn filenames_and_text() {
        assert_eq!(clean_filename("a/b c$ü(1).sh"), "a_bc(1).sh");
        assert_eq!(
            dos2unix(&PyStr::from("a\r\nb\r\nc\r")).to_string(),
            "a\nb\nc\r"
        );
        assert_eq!(dos2unix(&PyStr::from("a\nb\r\n")).to_string(), "a\nb\r\n");
        assert_eq!(lstrip(&PyStr::from("\u{85}\n x ")).to_string(), "x ");
    }

    #[test]
    fn cfg_options() {
        let cfg = load("{a: 'yes', b: [x], c: 'xdeferx', n: ~}");
        assert!(get_cfg_option_bool(&cfg, "a", false).unwrap());
        assert!(!get_cfg_option_bool(&cfg, "z", false).unwrap());
        let c = load("xdeferx");
        assert!(get_cfg_option_bool(&c, "defer", false).is_err());
        assert!(!get_cfg_option_bool(&c, "nope", false).unwrap());
        assert!(get_cfg_option_bool(&load("5"), "defer", false).is_err());
        assert_eq!(get_cfg_option_list(&cfg, "a").unwrap().len(), 1);
        assert!(get_cfg_option_list(&cfg, "n").unwrap().is_empty());
        assert!(get_cfg_by_path(&cfg, &["b", "x"]).is_err());
        assert!(get_cfg_by_path(&cfg, &["q", "x"]).unwrap().is_none());
    }

    #[test]
    fn octal() {
        assert_eq!(int_base8("0755"), Some(0o755));
        assert_eq!(int_base8(" 0o7_55 "), Some(0o755));
        assert_eq!(int_base8("0o_7"), Some(7));
        assert_eq!(int_base8("-10"), Some(-8));
        assert_eq!(int_base8("8"), None);
        assert_eq!(int_base8("7__5"), None);
        assert_eq!(int_base8(""), None);
    }
}
