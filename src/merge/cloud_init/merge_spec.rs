//! `MergeSpec`: a merge spec as written (`merge_how`, `merge_type`, `Merge-Type`), parsed with cloud-init's quirks but not yet resolved.

use super::{Options, Version};
use crate::merge::{MergeError, PyException};
use crate::python::{py_lower, py_strip};
use crate::yaml::value::{Node, Value};
use std::fmt;

/// A parsed merge spec: merger names with their options, in order.
///
/// Nothing is checked beyond syntax: names may be unknown and options
/// meaningless; [`super::MergerStack::resolve`] decides.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MergeSpec {
    /// The entries in the order given.
    pub entries: Vec<SpecEntry>,
}

/// One `name(options)` of a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecEntry {
    /// The merger name.
    pub name: SpecName,
    /// Its options.
    pub options: Options,
}

/// A merger name as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecName {
    /// A string (normalised as its form prescribes).
    Str(String),
    /// A truthy non-string (`[[5, replace]]`); resolving it fails with an
    /// `AttributeError` (`'int' object has no attribute 'startswith'`).
    NotStr(&'static str),
}

impl MergeSpec {
    /// Whether no merger was given.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// This spec followed by `other` (payload spec, then header spec).
    pub fn then(mut self, other: MergeSpec) -> MergeSpec {
        self.entries.extend(other.entries);
        self
    }

    /// Parse the string form (`dict(replace)+list(append)`).
    ///
    /// Split on `+`; each token is lower-cased, stripped and has every `-`
    /// turned into `_`; empty tokens are skipped. A token must be an
    /// identifier directly followed by `(`…`)`; the text between the first
    /// `(` and the final `)` is split on `,`, each option stripped and empty
    /// ones dropped. Anything else is a `ValueError`.
    pub fn parse_str(text: &str, version: Version) -> Result<MergeSpec, MergeError> {
        let mut entries = Vec::new();
        for raw in text.split('+') {
            let token = py_strip(&py_lower(raw)).replace('-', "_");
            if token.is_empty() {
                continue;
            }
            let Some((name, inner)) = split_token(&token) else {
                return Err(MergeError::new(
                    PyException::ValueError,
                    version.bad_token_message(&token),
                ));
            };
            let options = py_strip(inner)
                .split(',')
                .map(py_strip)
                .filter(|o| !o.is_empty())
                .map(py_lower)
                .collect();
            entries.push(SpecEntry {
                name: SpecName::Str(name.to_owned()),
                options: Options::List(options),
            });
        }
        Ok(MergeSpec { entries })
    }

    /// Interpret the value of a `merge_how`/`merge_type` key.
    ///
    /// A string is the string form. Anything else is iterated the Python way
    /// (a mapping yields its keys) and each element is either a mapping with
    /// `name` (`-`→`_`, stripped, case kept) and `settings` (used as-is), or
    /// indexable: element 0 is the name, the rest the options (a plain string
    /// is indexed by character). Entries whose name is falsy are dropped.
    /// Errors are those Python raises on the way (`TypeError`, `KeyError`,
    /// `AttributeError`, `IndexError`).
    pub fn from_value(value: &Node, version: Version) -> Result<MergeSpec, MergeError> {
        let elements: Vec<Node> = match value.value() {
            Value::Str(s) => return MergeSpec::parse_str(&s.to_string_lossy(), version),
            Value::Seq(s) | Value::Tuple(s) => s.items().to_vec(),
            Value::Map(m) | Value::Set(m) => m.keys().cloned().collect(),
            Value::Bytes(b) => {
                if b.is_empty() {
                    Vec::new()
                } else {
                    // Iterating bytes yields ints, which `m[0]` cannot index.
                    return Err(not_subscriptable("int"));
                }
            }
            _ => {
                return Err(MergeError::type_error(format!(
                    "'{}' object is not iterable",
                    value.type_name()
                )));
            }
        };
        let mut entries = Vec::new();
        for element in &elements {
            if let Some(entry) = entry_from_element(element)? {
                entries.push(entry);
            }
        }
        Ok(MergeSpec { entries })
    }
}

fn not_subscriptable(type_name: &str) -> MergeError {
    MergeError::type_error(format!("'{type_name}' object is not subscriptable"))
}

/// `identifier(` … `)` → (identifier, text between the parentheses), with
/// Python's regex `^[a-zA-Z_][A-Za-z0-9_]*\((.*?)\)$` (`.` excludes `\n`).
fn split_token(token: &str) -> Option<(&str, &str)> {
    let first = token.chars().next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    let name_end = token
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(token.len());
    let rest = token.get(name_end..)?.strip_prefix('(')?;
    let inner = rest.strip_suffix(')')?;
    if inner.contains('\n') {
        return None;
    }
    Some((token.get(..name_end)?, inner))
}

/// Name from element 0 of an indexable entry: dropped when falsy.
fn name_of(node: &Node) -> Option<SpecName> {
    if !node.is_truthy() {
        return None;
    }
    Some(match node.value() {
        Value::Str(s) => SpecName::Str(s.to_string_lossy().into_owned()),
        _ => SpecName::NotStr(node.type_name()),
    })
}

/// The string items (others can never equal an option name).
fn str_items<'a>(it: impl Iterator<Item = &'a Node>) -> Vec<String> {
    it.filter_map(|n| match n.value() {
        Value::Str(s) => Some(s.to_string_lossy().into_owned()),
        _ => None,
    })
    .collect()
}

/// Options from a value used as-is (`settings`, or the tail of an entry).
fn options_of(node: &Node) -> Options {
    match node.value() {
        Value::Str(s) => Options::Substring(s.to_string_lossy().into_owned()),
        Value::Seq(s) | Value::Tuple(s) => Options::List(str_items(s.iter())),
        Value::Map(m) | Value::Set(m) => Options::List(str_items(m.keys())),
        _ => Options::Untestable(node.type_name()),
    }
}

fn entry_from_element(m: &Node) -> Result<Option<SpecEntry>, MergeError> {
    let missing_key = |k: &str| MergeError::new(PyException::KeyError, format!("'{k}'"));
    let (name, options) = match m.value() {
        Value::Map(map) => {
            let name = map.get_str("name").ok_or_else(|| missing_key("name"))?;
            let Value::Str(name) = name.value() else {
                return Err(MergeError::new(
                    PyException::AttributeError,
                    format!("'{}' object has no attribute 'replace'", name.type_name()),
                ));
            };
            let name = name.to_string_lossy().replace('-', "_");
            let name = py_strip(&name).to_owned();
            let settings = map
                .get_str("settings")
                .ok_or_else(|| missing_key("settings"))?;
            let options = options_of(settings);
            if name.is_empty() {
                return Ok(None);
            }
            (SpecName::Str(name), options)
        }
        Value::Seq(s) | Value::Tuple(s) => {
            let Some(first) = s.items().first() else {
                return Err(MergeError::new(
                    PyException::IndexError,
                    format!("{} index out of range", m.type_name()),
                ));
            };
            let options = match s.items().get(1..) {
                Some(rest) if !rest.is_empty() => Options::List(str_items(rest.iter())),
                _ => Options::default(),
            };
            match name_of(first) {
                Some(name) => (name, options),
                None => return Ok(None),
            }
        }
        Value::Str(s) => {
            let text = s.to_string_lossy();
            let mut chars = text.chars();
            let Some(first) = chars.next() else {
                return Err(MergeError::new(
                    PyException::IndexError,
                    "string index out of range",
                ));
            };
            let rest: String = chars.collect();
            let options = if rest.is_empty() {
                Options::default()
            } else {
                Options::Substring(rest)
            };
            (SpecName::Str(first.to_string()), options)
        }
        Value::Bytes(b) => {
            let Some(first) = b.first() else {
                return Err(MergeError::new(
                    PyException::IndexError,
                    "index out of range",
                ));
            };
            if *first == 0 {
                return Ok(None);
            }
            let options = if b.len() >= 2 {
                Options::Untestable("bytes")
            } else {
                Options::default()
            };
            (SpecName::NotStr("int"), options)
        }
        _ => return Err(not_subscriptable(m.type_name())),
    };
    Ok(Some(SpecEntry { name, options }))
}

impl fmt::Display for SpecName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecName::Str(s) => f.write_str(s),
            SpecName::NotStr(t) => write!(f, "<{t}>"),
        }
    }
}

impl fmt::Display for MergeSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{}({})", e.name, e.options)?;
        }
        Ok(())
    }
}
