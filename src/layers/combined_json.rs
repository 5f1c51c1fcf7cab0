//! `combined_cloud_config_json`: cloud-init 25.1's `/run/cloud-init/combined-cloud-config.json`, byte for byte.

use super::layered::Layered;
use crate::python::{py_json_float, py_json_str_unit};
use crate::userdata::Release;
use crate::yaml::value::{Node, Value};

/// `stages.COMBINED_CLOUD_CONFIG_DOC` (25.1).
pub const COMBINED_CLOUD_CONFIG_DOC: &str = "Aggregated cloud-config created by merging merged_system_cfg (/etc/cloud/cloud.cfg and /etc/cloud/cloud.cfg.d), metadata, vendordata and userdata. The combined_cloud_config represents the aggregated desired configuration acted upon by cloud-init.";

/// `features.get_features()` of Debian's cloud-init 25.1.4 (`cloudinit/features.py`).
pub const FEATURES_25_1: [(&str, FeatureValue); 8] = [
    ("ERROR_ON_USER_DATA_FAILURE", FeatureValue::Bool(true)),
    (
        "ALLOW_EC2_MIRRORS_ON_NON_AWS_INSTANCE_TYPES",
        FeatureValue::Bool(false),
    ),
    ("EXPIRE_APPLIES_TO_HASHED_USERS", FeatureValue::Bool(true)),
    ("NETPLAN_CONFIG_ROOT_READ_ONLY", FeatureValue::Bool(true)),
    (
        "NOCLOUD_SEED_URL_APPEND_FORWARD_SLASH",
        FeatureValue::Bool(true),
    ),
    ("APT_DEB822_SOURCE_LIST_FILE", FeatureValue::Bool(true)),
    ("MANUAL_NETWORK_WAIT", FeatureValue::Bool(true)),
    ("DEPRECATION_INFO_BOUNDARY", FeatureValue::Str("devel")),
];

/// A feature flag's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureValue {
    /// A boolean flag.
    Bool(bool),
    /// A string setting.
    Str(&'static str),
}

/// Why there is no combined-cloud-config.json.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CombinedJsonError {
    /// cloud-init 22.4 writes no such file.
    #[error("cloud-init 22.4 writes no combined-cloud-config.json (it came with 23.1)")]
    Release,
    /// `json.dumps` raises: cloud-init's init stage fails after merging
    /// ("Consuming user data failed!"), before writing the file.
    #[error("cloud-init cannot write combined-cloud-config.json: TypeError: {0}")]
    Unserializable(String),
}

/// The file cloud-init 25.1 writes after consuming user-data and vendor-data:
/// `Init.cfg` with `_doc`, `system_info` and `features` set, as
/// `json.dumps(indent=1, sort_keys=True, separators=(",", ": "))` plus a newline.
pub fn combined_cloud_config_json(l: &Layered) -> Result<String, CombinedJsonError> {
    if l.release == Release::V22_4 {
        return Err(CombinedJsonError::Release);
    }
    let mut entries: Vec<(Key<'_>, Item<'_>)> = Vec::new();
    if let Some(m) = l.init_config.as_map() {
        for (k, v) in m.iter() {
            if matches!(k.as_str(), Some("_doc" | "system_info" | "features")) {
                continue;
            }
            entries.push((Key::Node(k), Item::Node(v)));
        }
    }
    entries.push((Key::Str("_doc"), Item::Str(COMBINED_CLOUD_CONFIG_DOC)));
    entries.push((Key::Str("system_info"), Item::Node(&l.system_info)));
    entries.push((Key::Str("features"), Item::Features));
    let mut out = String::new();
    write_dict(&mut out, entries, 0)?;
    out.push('\n');
    Ok(out)
}

#[derive(Clone, Copy)]
enum Key<'a> {
    Node(&'a Node),
    Str(&'a str),
}

#[derive(Clone, Copy)]
enum Item<'a> {
    Node(&'a Node),
    Str(&'a str),
    Bool(bool),
    Features,
}

/// A key as `json.dumps` sorts and writes it.
enum SortKey {
    Str(String),
    Num(f64, String),
    Null,
}

fn sort_key(k: Key<'_>) -> Result<SortKey, CombinedJsonError> {
    let n = match k {
        Key::Str(s) => return Ok(SortKey::Str(s.to_owned())),
        Key::Node(n) => n,
    };
    Ok(match n.value() {
        Value::Str(s) => SortKey::Str(s.to_string_lossy().into_owned()),
        Value::Bool(b) => SortKey::Num(
            f64::from(u8::from(*b)),
            if *b { "true" } else { "false" }.to_owned(),
        ),
        Value::Int(i) => SortKey::Num(i.to_string().parse().unwrap_or(0.0), i.to_string()),
        Value::Float(f) => SortKey::Num(*f, py_json_float(*f)),
        Value::Null => SortKey::Null,
        _ => {
            return Err(CombinedJsonError::Unserializable(format!(
                "keys must be str, int, float, bool or None, not {}",
                n.type_name()
            )));
        }
    })
}

fn indent(out: &mut String, level: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', level));
}

fn write_dict(
    out: &mut String,
    entries: Vec<(Key<'_>, Item<'_>)>,
    level: usize,
) -> Result<(), CombinedJsonError> {
    if entries.is_empty() {
        out.push_str("{}");
        return Ok(());
    }
    let mut keyed = Vec::with_capacity(entries.len());
    for (k, v) in entries {
        keyed.push((sort_key(k)?, v));
    }
    // sorted(dct.items()): keys of different kinds do not compare.
    if keyed.len() > 1 {
        let str_keys = keyed
            .iter()
            .filter(|(k, _)| matches!(k, SortKey::Str(_)))
            .count();
        let num_keys = keyed
            .iter()
            .filter(|(k, _)| matches!(k, SortKey::Num(..)))
            .count();
        if str_keys != keyed.len() && num_keys != keyed.len() {
            return Err(CombinedJsonError::Unserializable(
                "'<' not supported between instances of keys of different types".to_owned(),
            ));
        }
    }
    keyed.sort_by(|(a, _), (b, _)| match (a, b) {
        (SortKey::Str(x), SortKey::Str(y)) => x.chars().cmp(y.chars()),
        (SortKey::Num(x, _), SortKey::Num(y, _)) => {
            x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal)
        }
        _ => std::cmp::Ordering::Equal,
    });
    out.push('{');
    for (i, (k, v)) in keyed.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        indent(out, level + 1);
        let text = match k {
            SortKey::Str(s) => s,
            SortKey::Num(_, t) => t,
            SortKey::Null => "null".to_owned(),
        };
        write_str(out, &text);
        out.push_str(": ");
        write_item(out, v, level + 1)?;
    }
    indent(out, level);
    out.push('}');
    Ok(())
}

fn write_item(out: &mut String, v: Item<'_>, level: usize) -> Result<(), CombinedJsonError> {
    match v {
        Item::Str(s) => {
            write_str(out, s);
            Ok(())
        }
        Item::Bool(b) => {
            out.push_str(if b { "true" } else { "false" });
            Ok(())
        }
        Item::Features => {
            let entries = FEATURES_25_1
                .iter()
                .map(|(k, v)| {
                    (
                        Key::Str(k),
                        match v {
                            FeatureValue::Bool(b) => Item::Bool(*b),
                            FeatureValue::Str(s) => Item::Str(s),
                        },
                    )
                })
                .collect();
            write_dict(out, entries, level)
        }
        Item::Node(n) => write_node(out, n, level),
    }
}

fn write_node(out: &mut String, n: &Node, level: usize) -> Result<(), CombinedJsonError> {
    match n.value() {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&py_json_float(*f)),
        Value::Str(s) => write_py_str(out, s),
        Value::Bytes(b) => {
            use base64::Engine;
            let text = format!(
                "ci-b64:{}",
                base64::engine::general_purpose::STANDARD.encode(b)
            );
            write_str(out, &text);
        }
        Value::Date(_) => write_str(
            out,
            "Warning: redacted unserializable type <class 'datetime.date'>",
        ),
        Value::DateTime(_) => write_str(
            out,
            "Warning: redacted unserializable type <class 'datetime.datetime'>",
        ),
        Value::Set(_) => write_str(out, "Warning: redacted unserializable type <class 'set'>"),
        Value::Seq(s) | Value::Tuple(s) => {
            if s.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            out.push('[');
            for (i, item) in s.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, level + 1);
                write_node(out, item, level + 1)?;
            }
            indent(out, level);
            out.push(']');
        }
        Value::Map(m) => {
            let entries = m
                .iter()
                .map(|(k, v)| (Key::Node(k), Item::Node(v)))
                .collect();
            write_dict(out, entries, level)?;
        }
    }
    Ok(())
}

/// A Python `str` with `ensure_ascii` escapes (lone surrogates included).
fn write_py_str(out: &mut String, s: &crate::yaml::value::PyStr) {
    match s.as_str() {
        Some(t) => write_str(out, t),
        None => {
            out.push('"');
            for c in s.chars() {
                py_json_str_unit(out, c);
            }
            out.push('"');
        }
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        py_json_str_unit(out, u32::from(c));
    }
    out.push('"');
}
