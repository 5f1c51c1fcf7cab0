//! `ExcludedTypes`: the content types vendor-data's `disabled_handlers` keeps from the handlers.

use crate::yaml::value::{Node, Value};

/// What `content_type in excluded` tests, for each value `disabled_handlers`
/// can have (cloud-init's `handlers.walker_callback`, before any handler).
///
/// The test is Python's `in`: membership for a list, tuple, dict or set, a
/// *substring* test for a string (`disabled_handlers: text/cloud-config`
/// also keeps `text/cloud-config-archive` out), and a `TypeError` for
/// anything else (an int, a bool, bytes, a date).
#[derive(Clone, Debug, Default)]
pub enum ExcludedTypes {
    /// Nothing excluded (`None`, or user-data, which has no such setting).
    #[default]
    Nothing,
    /// The setting's value.
    Setting(Node),
}

/// `content_type in excluded` raised: the walk stops at the first part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("TypeError: {0}")]
pub struct NotIterable(pub String);

impl ExcludedTypes {
    /// From the `disabled_handlers` value (absent or `None`: nothing, as
    /// `_do_handlers` turns `None` into `[]`).
    pub fn from_setting(value: Option<&Node>) -> ExcludedTypes {
        match value {
            None => ExcludedTypes::Nothing,
            Some(v) if v.is_null() => ExcludedTypes::Nothing,
            Some(v) => ExcludedTypes::Setting(v.clone()),
        }
    }

    /// Whether a part of `content_type` is kept from the handlers.
    pub fn excludes(&self, content_type: &str) -> Result<bool, NotIterable> {
        let ExcludedTypes::Setting(v) = self else {
            return Ok(false);
        };
        match v.value() {
            Value::Seq(s) | Value::Tuple(s) => Ok(s.iter().any(|item| {
                item.as_py_str()
                    .is_some_and(|p| p.as_str() == Some(content_type))
            })),
            Value::Map(m) | Value::Set(m) => Ok(m.get_str(content_type).is_some()),
            Value::Str(s) => Ok(match s.as_str() {
                Some(text) => text.contains(content_type),
                // Lone surrogates never match the ASCII of a content type;
                // the rest of the text still can.
                None => s.to_string_lossy().contains(content_type),
            }),
            Value::Bytes(_) => Err(NotIterable(
                "a bytes-like object is required, not 'str'".to_owned(),
            )),
            _ => Err(NotIterable(format!(
                "argument of type '{}' is not iterable",
                v.type_name()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::yaml::{LoadOptions, load};

    fn setting(yaml: &str) -> ExcludedTypes {
        let n = load(yaml, &LoadOptions::default()).unwrap().unwrap();
        ExcludedTypes::from_setting(Some(&n))
    }

    #[test]
    fn python_in_semantics() {
        assert!(
            setting("[text/x-shellscript]")
                .excludes("text/x-shellscript")
                .unwrap()
        );
        assert!(
            !setting("[text/x-shellscript]")
                .excludes("text/jinja2")
                .unwrap()
        );
        assert!(
            setting("text/cloud-config-archive")
                .excludes("text/cloud-config")
                .unwrap()
        );
        assert!(
            setting("{text/cloud-config: 1}")
                .excludes("text/cloud-config")
                .unwrap()
        );
        assert!(!setting("~").excludes("text/cloud-config").unwrap());
        assert_eq!(
            setting("5").excludes("text/cloud-config").unwrap_err().0,
            "argument of type 'int' is not iterable"
        );
    }
}
