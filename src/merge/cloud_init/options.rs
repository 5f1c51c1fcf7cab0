//! `Options`: a merger's raw options and how cloud-init tests them (`"replace" in opts`).

use crate::merge::MergeError;
use std::fmt;

/// The options given to one merger, as cloud-init holds them.
///
/// cloud-init tests an option with Python's `in`, so what a test means
/// depends on the container: membership in a list (the string form, list
/// entries, a mapping's keys), a *substring* test when a YAML `settings:` is a
/// plain string (`settings: no_replace` contains `replace`), or a `TypeError`
/// for containers `in` cannot search (null, numbers, bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Options {
    /// Exact membership. Only string items can ever match; others are
    /// dropped. Unknown options are kept and match nothing.
    List(Vec<String>),
    /// Substring tests on one string.
    Substring(String),
    /// Any test raises `TypeError` (`settings` was of this Python type).
    Untestable(&'static str),
}

impl Default for Options {
    fn default() -> Self {
        Options::List(Vec::new())
    }
}

impl Options {
    /// Python's `option in opts`.
    pub fn has(&self, option: &str) -> Result<bool, MergeError> {
        match self {
            Options::List(items) => Ok(items.iter().any(|o| o == option)),
            Options::Substring(s) => Ok(s.contains(option)),
            Options::Untestable("bytes") => Err(MergeError::type_error(
                "a bytes-like object is required, not 'str'",
            )),
            Options::Untestable(t) => Err(MergeError::type_error(format!(
                "argument of type '{t}' is not iterable"
            ))),
        }
    }

    /// Whether any of `options` is present.
    pub fn has_any(&self, options: &[&str]) -> Result<bool, MergeError> {
        for o in options {
            if self.has(o)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Options::List(items) => f.write_str(&items.join(",")),
            Options::Substring(s) => write!(f, "<substrings of {s:?}>"),
            Options::Untestable(t) => write!(f, "<{t}>"),
        }
    }
}
