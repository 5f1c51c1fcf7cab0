//! `Tag`: a node's resolved tag, with the tags SafeLoader knows as variants.

use std::borrow::Cow;

/// The `tag:yaml.org,2002:` prefix that `!!` expands to.
pub(crate) const YAML_PREFIX: &str = "tag:yaml.org,2002:";

/// A resolved tag. Known tags are variants so dispatch is a `match`;
/// anything else keeps its text for the "could not determine a constructor"
/// message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tag<'a> {
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
    Binary,
    Str,
    Seq,
    Map,
    Set,
    Omap,
    Pairs,
    /// `<<`: only meaningful as a mapping key (merge); no constructor.
    Merge,
    /// `=`: no constructor; turned into `Str` when used as a mapping key.
    Value,
    /// `!`, `&` or `*` resolved implicitly (only reachable for quoted
    /// scalars tagged `!`); no constructor.
    Yaml,
    /// `tag:yaml.org,2002:python/unicode` (cloud-init 22.4 accepts it as str).
    PythonUnicode,
    /// Any other tag, as written after handle expansion.
    Other(Cow<'a, str>),
}

impl<'a> Tag<'a> {
    /// Classify an explicit tag.
    pub(crate) fn from_explicit(tag: Cow<'a, str>) -> Tag<'a> {
        let Some(suffix) = tag.strip_prefix(YAML_PREFIX) else {
            return Tag::Other(tag);
        };
        match suffix {
            "null" => Tag::Null,
            "bool" => Tag::Bool,
            "int" => Tag::Int,
            "float" => Tag::Float,
            "timestamp" => Tag::Timestamp,
            "binary" => Tag::Binary,
            "str" => Tag::Str,
            "seq" => Tag::Seq,
            "map" => Tag::Map,
            "set" => Tag::Set,
            "omap" => Tag::Omap,
            "pairs" => Tag::Pairs,
            "merge" => Tag::Merge,
            "value" => Tag::Value,
            "python/unicode" => Tag::PythonUnicode,
            "yaml" => Tag::Yaml,
            _ => Tag::Other(tag),
        }
    }

    /// The full tag text (for messages).
    pub(crate) fn full_name(&self) -> Cow<'_, str> {
        let suffix = match self {
            Tag::Null => "null",
            Tag::Bool => "bool",
            Tag::Int => "int",
            Tag::Float => "float",
            Tag::Timestamp => "timestamp",
            Tag::Binary => "binary",
            Tag::Str => "str",
            Tag::Seq => "seq",
            Tag::Map => "map",
            Tag::Set => "set",
            Tag::Omap => "omap",
            Tag::Pairs => "pairs",
            Tag::Merge => "merge",
            Tag::Value => "value",
            Tag::PythonUnicode => "python/unicode",
            Tag::Yaml => "yaml",
            Tag::Other(t) => return Cow::Borrowed(t),
        };
        Cow::Owned(format!("{YAML_PREFIX}{suffix}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify() {
        assert_eq!(Tag::from_explicit("tag:yaml.org,2002:int".into()), Tag::Int);
        let other = Tag::from_explicit("!foo".into());
        assert_eq!(other.full_name(), "!foo");
        assert_eq!(Tag::Merge.full_name(), "tag:yaml.org,2002:merge");
    }
}
