//! `Knockout`: the knockout prefix of a deep merge, matched as `deep_merge` matches it (`/^prefix/`, unescaped).

use super::{KnockoutError, RubyRegexp};
use crate::yaml::value::{Node, PyStr, Value};

/// A knockout prefix. `deep_merge` interpolates it unescaped into
/// `/^#{prefix}/`, so `.` knocks out every non-empty string; a list item
/// exactly equal to the prefix (compared as a string) clears the lower list.
#[derive(Clone, Debug)]
pub struct Knockout {
    prefix: String,
    re: RubyRegexp,
}

impl Knockout {
    /// A knockout prefix; an empty one is an error (as in `deep_merge`), and
    /// so is one that is not a regexp we can run.
    pub fn new(prefix: &str) -> Result<Knockout, KnockoutError> {
        if prefix.is_empty() {
            return Err(KnockoutError::Empty);
        }
        let re = RubyRegexp::new(&format!("^{prefix}")).map_err(|error| KnockoutError::Regexp {
            prefix: prefix.to_owned(),
            error,
        })?;
        Ok(Knockout {
            prefix: prefix.to_owned(),
            re,
        })
    }

    /// The prefix as given.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Whether `item` is the bare prefix (`source.index(prefix)`).
    pub fn is_bare(&self, item: &Node) -> bool {
        matches!(item.value(), Value::Str(s) if s.as_wtf8() == self.prefix.as_bytes())
    }

    /// A string item's text with every `^prefix` removed, if that changes
    /// it (the item is then a knockout of the returned text).
    pub fn strip(&self, item: &Node) -> Option<PyStr> {
        let Value::Str(s) = item.value() else {
            return None;
        };
        let text = s.to_string_lossy();
        match self.re.remove_all(&text) {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(stripped) if stripped != text => {
                Some(PyStr::from(stripped.as_str()))
            }
            std::borrow::Cow::Owned(_) => None,
        }
    }

    /// Whether a string item matches `/^prefix/` at all (how knockouts are
    /// dropped from a list that replaces a non-list).
    pub fn matches(&self, item: &Node) -> bool {
        matches!(item.value(), Value::Str(s) if self.re.is_match(&s.to_string_lossy()))
    }
}
