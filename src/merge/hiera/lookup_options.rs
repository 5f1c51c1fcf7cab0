//! `LookupOptions`: the merged `lookup_options` hash, split into literal keys and `^` regexp patterns.

use super::{HieraError, MergeBehavior};
use crate::merge::RubyRegexp;
use crate::yaml::value::{Node, Value, py_repr};
use indexmap::IndexMap;

/// Per-key options from the data. A literal key beats every pattern; else
/// the first pattern (in the merged hash's order, which puts the lowest
/// level's keys first) that matches the key wins.
#[derive(Clone, Debug, Default)]
pub struct LookupOptions {
    literal: IndexMap<String, Node>,
    patterns: Vec<(RubyRegexp, Node)>,
}

impl LookupOptions {
    /// Compile the merged `lookup_options` value (`None` when no level has one).
    pub fn compile(merged: Option<&Node>) -> Result<LookupOptions, HieraError> {
        let mut out = LookupOptions::default();
        let Some(node) = merged else {
            return Ok(out);
        };
        let Some(map) = node.as_map() else {
            if node.is_null() {
                return Ok(out);
            }
            return Err(HieraError::new(
                "hiera-lookup-options",
                "value of lookup_options must be a hash",
            )
            .with_operands([node.span()]));
        };
        for (k, v) in map.iter() {
            let Value::Str(ks) = k.value() else {
                return Err(HieraError::new(
                    "hiera-lookup-options",
                    format!("lookup_options key {} is not a String", py_repr(k)),
                )
                .with_operands([k.span()]));
            };
            let ks = ks.to_string_lossy().into_owned();
            if ks.starts_with('^') {
                let re = RubyRegexp::new(&ks).map_err(|e| {
                    HieraError::new(
                        "hiera-lookup-options",
                        format!("lookup_options pattern /{ks}/: {e}"),
                    )
                    .with_operands([k.span()])
                })?;
                out.patterns.push((re, v.clone()));
            } else {
                out.literal.insert(ks, v.clone());
            }
        }
        Ok(out)
    }

    /// The options value that applies to `key`. A null literal entry does
    /// not count (patterns are tried then); the first matching pattern
    /// decides even when its value is null (no options).
    pub fn for_key(&self, key: &str) -> Option<&Node> {
        if let Some(v) = self.literal.get(key).filter(|v| !v.is_null()) {
            return Some(v);
        }
        self.patterns
            .iter()
            .find(|(re, _)| re.is_match(key))
            .map(|(_, v)| v)
            .filter(|v| !v.is_null())
    }

    /// The merge behaviour the options give `key`; `None` for `first`.
    pub fn merge_for(&self, key: &str) -> Result<Option<MergeBehavior>, HieraError> {
        let Some(opts) = self.for_key(key) else {
            return Ok(None);
        };
        // `options['merge']` on whatever the entry is: a String answers
        // "merge" if it contains it, other non-hashes raise.
        match opts.value() {
            Value::Map(m) => match m.get_str("merge") {
                Some(merge) => MergeBehavior::from_value(merge),
                None => Ok(None),
            },
            Value::Str(s) if s.to_string_lossy().contains("merge") => Err(HieraError::new(
                "hiera-strategy",
                "Unknown merge strategy: 'merge'",
            )
            .with_operands([opts.span()])),
            Value::Str(_) => Ok(None),
            _ => Err(HieraError::new(
                "hiera-lookup-options",
                format!(
                    "lookup_options for '{key}' must be a hash, not {}",
                    super::data_type::puppet_type_name(opts)
                ),
            )
            .with_operands([opts.span()])),
        }
    }

    /// Which entry gives `key` its options: `lookup_options.KEY` or
    /// `lookup_options./PATTERN/`.
    pub fn source_for(&self, key: &str) -> Option<String> {
        if self.literal.get(key).is_some_and(|v| !v.is_null()) {
            return Some(format!("lookup_options.{key}"));
        }
        self.patterns
            .iter()
            .find(|(re, _)| re.is_match(key))
            .map(|(re, _)| format!("lookup_options./{}/", re.source()))
    }

    /// The patterns in the order they are tried.
    pub fn patterns(&self) -> impl Iterator<Item = &str> {
        self.patterns.iter().map(|(re, _)| re.source())
    }
}
