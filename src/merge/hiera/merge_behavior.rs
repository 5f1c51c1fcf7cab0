//! `MergeBehavior`: a Hiera merge strategy with its options, parsed from `lookup_options` or given on the command line.

use super::HieraError;
use crate::merge::ruby::ruby_to_s;
use crate::merge::{DeepOptions, DictMode, DictStrategy, LayerStrategy, Recurse, Strategy};
use crate::yaml::value::{Node, Value, py_repr};
use std::fmt;

/// Hiera's merge strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HieraStrategy {
    /// The highest-priority value (`first`, also spelled `default`).
    #[default]
    First,
    /// Flattened, de-duplicated array, highest priority first.
    Unique,
    /// Top-level hash merge, higher priority wins.
    Hash,
    /// Recursive merge (`deep_merge`).
    Deep,
    /// `deep` with the operands swapped: lower priority wins (`reverse_deep`).
    ReverseDeep,
}

/// A strategy and its deep-merge options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeBehavior {
    /// The strategy.
    pub strategy: HieraStrategy,
    /// Knockout prefix (deep only).
    pub knockout_prefix: Option<String>,
    /// Sort merged arrays (deep only).
    pub sort_merged_arrays: bool,
    /// Merge arrays of hashes by index (deep only).
    pub merge_hash_arrays: bool,
}

impl MergeBehavior {
    /// A strategy without options.
    pub fn new(strategy: HieraStrategy) -> Self {
        MergeBehavior {
            strategy,
            knockout_prefix: None,
            sort_merged_arrays: false,
            merge_hash_arrays: false,
        }
    }

    /// `first`, what a key without merge options gets.
    pub fn first() -> Self {
        MergeBehavior::new(HieraStrategy::First)
    }

    /// A strategy by name (`first`, `default`, `unique`, `hash`, `deep`,
    /// `unconstrained_deep`, `reverse_deep`).
    pub fn by_name(name: &str) -> Option<HieraStrategy> {
        Some(match name {
            "first" | "default" => HieraStrategy::First,
            "unique" => HieraStrategy::Unique,
            "hash" => HieraStrategy::Hash,
            "deep" | "unconstrained_deep" => HieraStrategy::Deep,
            "reverse_deep" => HieraStrategy::ReverseDeep,
            _ => return None,
        })
    }

    /// The merge as `lookup_options` give it (a `merge:` value), checked as
    /// puppet checks it; `None` (null or false) means `first`.
    pub fn from_value(merge: &Node) -> Result<Option<MergeBehavior>, HieraError> {
        let unknown = |what: String| {
            HieraError::new(
                "hiera-strategy",
                format!("Unknown merge strategy: '{what}'"),
            )
            .with_operands([merge.span()])
        };
        match merge.value() {
            Value::Null | Value::Bool(false) => Ok(None),
            Value::Str(s) => {
                let name = s.to_string_lossy();
                MergeBehavior::by_name(&name)
                    .map(|st| Some(MergeBehavior::new(st)))
                    .ok_or_else(|| unknown(name.into_owned()))
            }
            Value::Map(m) => {
                let Some(strategy) = m.get_str("strategy").filter(|v| !v.is_null()) else {
                    return Err(HieraError::new(
                        "hiera-strategy",
                        "The hash given as 'merge' must contain the name of a strategy in string \
                         form for the key 'strategy'",
                    )
                    .with_operands([merge.span()]));
                };
                let Some(name) = strategy.as_str() else {
                    return Err(unknown(ruby_to_s(strategy)));
                };
                let st = MergeBehavior::by_name(name).ok_or_else(|| unknown(name.to_owned()))?;
                // `unconstrained_deep` and `reverse_deep` take any options and
                // hand them to deep_merge as they are; `deep` checks them.
                let unconstrained = matches!(name, "unconstrained_deep" | "reverse_deep");
                let mut b = MergeBehavior::new(st);
                if m.len() == 1 {
                    return Ok(Some(b));
                }
                let bad = |why: String| {
                    HieraError::new("hiera-strategy", format!("The merge options {why}"))
                        .with_operands([merge.span()])
                };
                let deep_like = matches!(st, HieraStrategy::Deep | HieraStrategy::ReverseDeep);
                for (k, v) in m.iter() {
                    let Some(k) = k.as_str() else {
                        return Err(bad(format!(
                            "has a key that is not a String: {}",
                            py_repr(k)
                        )));
                    };
                    // deep_merge reads its flags as `options[:x] || false`.
                    let boolean = || match v.value() {
                        Value::Null => Ok(false),
                        Value::Bool(b) => Ok(*b),
                        _ if unconstrained => Ok(!matches!(v.value(), Value::Bool(false))),
                        _ => Err(bad(format!("entry '{k}' expects a Boolean value"))),
                    };
                    match k {
                        "strategy" => {}
                        "" if unconstrained => {
                            return Err(bad("has an empty key".into()));
                        }
                        "knockout_prefix" if deep_like => match v.value() {
                            Value::Null => {}
                            Value::Str(s) => b.knockout_prefix = Some(s.to_string_lossy().into()),
                            _ => {
                                return Err(bad(
                                    "entry 'knockout_prefix' expects a String value".into()
                                ));
                            }
                        },
                        "sort_merged_arrays" if deep_like => b.sort_merged_arrays = boolean()?,
                        "merge_hash_arrays" if deep_like => b.merge_hash_arrays = boolean()?,
                        "merge_debug" if deep_like => {
                            boolean()?;
                        }
                        "preserve_unmergeables"
                        | "overwrite_arrays"
                        | "unpack_arrays"
                        | "extend_existing_arrays"
                        | "debug_indent"
                            if unconstrained =>
                        {
                            return Err(bad(format!(
                                "of {name}: '{k}' is not supported by cloudfold"
                            )));
                        }
                        // deep_merge ignores options it does not know.
                        _ if unconstrained => {}
                        _ => return Err(bad(format!("has no parameter named '{k}'"))),
                    }
                }
                Ok(Some(b))
            }
            _ => Err(unknown(ruby_to_s(merge))),
        }
    }

    /// Whether any deep-only option is set.
    pub fn has_deep_options(&self) -> bool {
        self.knockout_prefix.is_some() || self.sort_merged_arrays || self.merge_hash_arrays
    }

    /// The engine strategy merging a higher value into a lower one.
    pub(super) fn engine_strategy(&self) -> Strategy {
        match self.strategy {
            HieraStrategy::First => Strategy::Layer(LayerStrategy::Replace),
            HieraStrategy::Unique => Strategy::Layer(LayerStrategy::Unique),
            // `lower.merge(higher)`: lower's keys in place, higher's values.
            HieraStrategy::Hash => Strategy::Dict(DictStrategy {
                mode: DictMode::Replace,
                allow_delete: false,
                recurse: Recurse::default(),
            }),
            HieraStrategy::Deep | HieraStrategy::ReverseDeep => {
                Strategy::Layer(LayerStrategy::Deep(DeepOptions {
                    knockout: self.knockout_prefix.is_some(),
                    sort_merged_arrays: self.sort_merged_arrays,
                    merge_hash_arrays: self.merge_hash_arrays,
                }))
            }
        }
    }
}

/// The behaviour as `--merge` and its flags would be written.
impl fmt::Display for MergeBehavior {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.strategy {
            HieraStrategy::First => "first",
            HieraStrategy::Unique => "unique",
            HieraStrategy::Hash => "hash",
            HieraStrategy::Deep => "deep",
            HieraStrategy::ReverseDeep => "reverse_deep",
        })?;
        if let Some(p) = &self.knockout_prefix {
            write!(f, " knockout_prefix={p:?}")?;
        }
        if self.sort_merged_arrays {
            f.write_str(" sort_merged_arrays")?;
        }
        if self.merge_hash_arrays {
            f.write_str(" merge_hash_arrays")?;
        }
        Ok(())
    }
}
