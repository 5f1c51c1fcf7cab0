//! `InstanceData`: `instance-data-sensitive.json` loaded as cloud-init loads it, and `convert_jinja_instance_data`.
//!
//! cloud-init's conversion (`handlers/jinja_template.py`, 22.4.2 `:177-209`,
//! 25.1.4 `:189-221`): keys in `sorted()` order; a key matching Jinja's
//! operator regex also gets an alias (each operator token one `_`), a deep
//! copy inserted right after it; a dict under a `v\d+$` key has its entries
//! copied one level up, at any depth; `base64-encoded-keys` (hyphens — the
//! writer spells it with underscores, so real instance data never decodes)
//! names paths whose values are base64-decoded first.

use super::py_object::{BigInt, PyDict, PyList};
use crate::source::SourceId;
use crate::yaml::value::{Int, Node, Value as Yv};
use base64::Engine;
use minijinja::value::Value;
use regex::Regex;
use std::sync::LazyLock;

/// Jinja2's `lexer.operator_re` (longest operators first).
static OPERATOR_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(//|\*\*|==|!=|>=|<=|\+|-|/|\*|%|~|\[|\]|\(|\)|\{|\}|>|<|=|\.|:|\||,|;)").ok()
});

/// `re.match(r"v\d+$", key)`: Python's `\d` is Unicode, and `$` also
/// matches before a final newline.
static VERSION_KEY_RE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\Av\d+\n?\z").ok());

/// Why the instance data cannot be used; cloud-init raises `JinjaLoadError`
/// ("Loading Jinja instance data failed") for each, and `run_part` logs it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceDataError {
    /// Not UTF-8 (`decode_binary` raises `UnicodeDecodeError`).
    #[error("the instance data is not valid UTF-8 (byte {0})")]
    NotUtf8(usize),
    /// Not JSON.
    #[error("the instance data is not JSON: {0}")]
    Json(String),
    /// JSON whose root is not an object (`load_json` raises `TypeError`).
    #[error("the instance data's root is a JSON {0}, not an object")]
    NotAnObject(&'static str),
    /// `base64-encoded-keys` is not a list of strings, or names a value that
    /// does not decode (cloud-init raises while converting).
    #[error("base64-encoded-keys: {0}")]
    Base64(String),
}

/// Instance data as the jinja handler sees it: the JSON object, and its
/// conversion into template variables.
#[derive(Debug, Clone)]
pub struct InstanceData {
    raw: Node,
    vars: Value,
}

impl InstanceData {
    /// `load_json(load_file(path))`, then `convert_jinja_instance_data(...,
    /// decode_paths=data.get("base64-encoded-keys", []), include_key_aliases=True)`.
    pub fn from_json(bytes: &[u8]) -> Result<Self, InstanceDataError> {
        let text =
            std::str::from_utf8(bytes).map_err(|e| InstanceDataError::NotUtf8(e.valid_up_to()))?;
        let raw =
            crate::userdata::py_json::parse_py_json_plain(text.as_bytes(), SourceId(0), 10_000)
                .map_err(|e| InstanceDataError::Json(e.to_string()))?;
        Self::from_node(raw)
    }

    /// From an already-loaded JSON value.
    pub fn from_node(raw: Node) -> Result<Self, InstanceDataError> {
        let Some(map) = raw.as_map() else {
            return Err(InstanceDataError::NotAnObject(json_type(&raw)));
        };
        let decode_paths: Vec<String> = match map.get_str("base64-encoded-keys") {
            None => Vec::new(),
            Some(list) => match list.value() {
                Yv::Seq(items) => items
                    .iter()
                    .map(|p| {
                        p.as_str().map(|s| s.replace('-', "_")).ok_or_else(|| {
                            InstanceDataError::Base64(format!(
                                "a {} in the list, not a string",
                                json_type(p)
                            ))
                        })
                    })
                    .collect::<Result<_, _>>()?,
                _ => {
                    return Err(InstanceDataError::Base64(format!(
                        "a {}, not a list",
                        json_type(list)
                    )));
                }
            },
        };
        let vars = convert(&raw, "", &decode_paths, true)?;
        Ok(InstanceData { raw, vars })
    }

    /// The JSON object as loaded (no aliases, no promotion).
    pub fn raw(&self) -> &Node {
        &self.raw
    }

    /// The converted template variables (a dict).
    pub fn vars(&self) -> &Value {
        &self.vars
    }

    /// `convert_jinja_instance_data(data)` with no aliases and no decoding
    /// (what `cloud-init query` prints), with `extra` keys set first as
    /// `_read_instance_data` does (`userdata`, `vendordata`, …).
    pub fn unaliased(&self, extra: &[(&str, Option<String>)]) -> Value {
        self.converted(extra, false)
    }

    /// [`InstanceData::unaliased`] with key aliases (no decoding), as
    /// `cloud-init query VARNAME` walks it.
    pub fn aliased(&self, extra: &[(&str, Option<String>)]) -> Value {
        self.converted(extra, true)
    }

    fn converted(&self, extra: &[(&str, Option<String>)], aliases: bool) -> Value {
        let mut entries = match self.raw.as_map() {
            Some(m) => m.to_entries(),
            None => return Value::from(()),
        };
        for (k, v) in extra {
            let value = match v {
                Some(t) => Node::str(t),
                None => Node::synthetic(Yv::Null),
            };
            crate::yaml::value::insert(&mut entries, Node::str(k), value);
        }
        let raw = Node::synthetic(Yv::Map(crate::yaml::value::Map::new(entries)));
        convert(&raw, "", &[], aliases).unwrap_or_default()
    }

    /// The converted variables' names, in their (sorted, aliased) order.
    pub fn var_names(&self) -> Vec<String> {
        match self.vars.downcast_object_ref::<PyDict>() {
            Some(d) => d
                .keys()
                .iter()
                .filter_map(|k| k.as_str().map(str::to_owned))
                .collect(),
            None => Vec::new(),
        }
    }
}

fn json_type(n: &Node) -> &'static str {
    match n.value() {
        Yv::Null => "null",
        Yv::Bool(_) => "boolean",
        Yv::Int(_) | Yv::Float(_) => "number",
        Yv::Str(_) => "string",
        Yv::Seq(_) => "array",
        Yv::Map(_) => "object",
        _ => "value",
    }
}

/// `get_jinja_variable_alias`.
pub fn jinja_alias(key: &str) -> Option<String> {
    let re = OPERATOR_RE.as_ref()?;
    let alias = re.replace_all(key, "_");
    (alias != key).then(|| alias.into_owned())
}

/// Whether a key gets its dict promoted one level up (`v1`, `v2`, …).
pub fn is_version_key(key: &str) -> bool {
    VERSION_KEY_RE.as_ref().is_some_and(|re| re.is_match(key))
}

/// A JSON value as a template value (dicts and lists become cloudfold's
/// Python objects so lookups that miss are named).
pub(crate) fn to_value(n: &Node) -> Value {
    match n.value() {
        Yv::Null => Value::from(()),
        Yv::Bool(b) => Value::from(*b),
        Yv::Int(Int::Small(i)) => Value::from(*i),
        Yv::Int(i) => {
            let b = i.to_big();
            match i128::try_from(&b) {
                Ok(v) => Value::from(v),
                Err(_) => Value::from_object(BigInt(b)),
            }
        }
        Yv::Float(f) => Value::from(*f),
        Yv::Str(s) => Value::from(s.to_string_lossy().into_owned()),
        Yv::Seq(items) | Yv::Tuple(items) => PyList::value(items.iter().map(to_value).collect()),
        Yv::Map(m) => {
            PyDict::from_pairs(m.iter().map(|(k, v)| (to_value(k), to_value(v)))).into_value()
        }
        _ => Value::from(crate::yaml::value::py_str(n).to_string_lossy().into_owned()),
    }
}

/// `b64d(value)`: str if the bytes are UTF-8, else bytes.
fn b64d(v: &Node) -> Result<Value, InstanceDataError> {
    let Some(s) = v.as_str() else {
        return Err(InstanceDataError::Base64(format!(
            "a {} is named for decoding, not a string",
            json_type(v)
        )));
    };
    // Python's b64decode discards characters outside the alphabet.
    let clean: String = s
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(
            clean.trim_end_matches('=').to_owned()
                + &"=".repeat((4 - clean.trim_end_matches('=').len() % 4) % 4),
        )
        .map_err(|e| InstanceDataError::Base64(e.to_string()))?;
    match String::from_utf8(bytes) {
        Ok(t) => Ok(Value::from(t)),
        Err(e) => Ok(Value::from_bytes(e.into_bytes())),
    }
}

/// `convert_jinja_instance_data(data, prefix, sep="/", decode_paths,
/// include_key_aliases=True)`.
fn convert(
    data: &Node,
    prefix: &str,
    decode_paths: &[String],
    aliases: bool,
) -> Result<Value, InstanceDataError> {
    let Some(map) = data.as_map() else {
        return Ok(to_value(data));
    };
    let mut items: Vec<(&Node, &Node)> = map.iter().collect();
    // `sorted(data.items())`: JSON keys are all str, compared by code point
    // (PyStr's byte order is code point order).
    items.sort_by(|a, b| match (a.0.as_py_str(), b.0.as_py_str()) {
        (Some(x), Some(y)) => x.as_wtf8().cmp(y.as_wtf8()),
        _ => std::cmp::Ordering::Equal,
    });
    let result = PyDict::default();
    for (k, v) in items {
        let key = k
            .as_py_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let key_path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}/{key}")
        };
        let decoded;
        let mut value_node = v;
        let mut value: Option<Value> = None;
        if decode_paths.contains(&key_path) {
            decoded = b64d(v)?;
            value = Some(decoded);
        }
        let kv = Value::from(key.clone());
        if value.is_none() && value_node.as_map().is_some() {
            let sub = convert(value_node, &key_path, decode_paths, aliases)?;
            if is_version_key(&key)
                && let Some(d) = sub.downcast_object_ref::<PyDict>()
            {
                let promoted = d.pairs();
                result
                    .lock()
                    .insert(super::py_object::DictKey(kv.clone()), sub.clone());
                for (sk, sv) in promoted {
                    result.lock().insert(super::py_object::DictKey(sk), sv);
                }
            } else {
                result
                    .lock()
                    .insert(super::py_object::DictKey(kv.clone()), sub);
            }
        } else {
            let val = match value.take() {
                Some(v) => v,
                None => {
                    value_node = v;
                    to_value(value_node)
                }
            };
            result
                .lock()
                .insert(super::py_object::DictKey(kv.clone()), val);
        }
        if aliases && let Some(alias) = jinja_alias(&key) {
            let copy = result.get(&kv).unwrap_or_default();
            result
                .lock()
                .insert(super::py_object::DictKey(Value::from(alias)), copy);
        }
    }
    Ok(result.into_value())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(json: &str) -> Vec<String> {
        InstanceData::from_json(json.as_bytes())
            .unwrap()
            .var_names()
    }

    #[test]
    fn aliases_follow_jinja_operator_tokens() {
        assert_eq!(jinja_alias("a//b").as_deref(), Some("a_b"));
        assert_eq!(jinja_alias("a**b").as_deref(), Some("a_b"));
        assert_eq!(jinja_alias("a(b)").as_deref(), Some("a_b_"));
        assert_eq!(jinja_alias("a--b").as_deref(), Some("a__b"));
        assert_eq!(jinja_alias("v1.0").as_deref(), Some("v1_0"));
        assert_eq!(jinja_alias("plain"), None);
    }

    #[test]
    fn sorted_with_aliases_after_and_promotion() {
        assert_eq!(
            names(r#"{"z": 1, "v1": {"b": 1, "a-b": 2}, "a-b": 3}"#),
            ["a-b", "a_b", "v1", "a-b", "b", "z"]
                .map(String::from)
                .to_vec()
                .into_iter()
                .collect::<indexmap::IndexSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        );
        assert!(is_version_key("v1"));
        assert!(is_version_key("v12\n"));
        assert!(!is_version_key("v1a"));
        assert!(!is_version_key("xv1"));
    }

    #[test]
    fn root_must_be_an_object() {
        assert_eq!(
            InstanceData::from_json(b"[1]").unwrap_err(),
            InstanceDataError::NotAnObject("array")
        );
    }
}
