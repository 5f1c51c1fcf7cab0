//! `MergerStack`: a resolved merge spec — cloud-init's dict/list/str mergers with their options, as engine strategies.

use super::{MergeSpec, Options, SpecName, Version};
use crate::merge::{
    DictMode, DictStrategy, Limits, ListMode, ListStrategy, MergeError, MergeObserver, NewSide,
    NoObserver, Path, PyException, Recurse, Rules, StrMode, StrStrategy, Strategy, TypeClass,
    merge_owned_with, merge_with,
};
use crate::yaml::value::Node;
use std::fmt;

/// The mergers cloud-init constructs from a spec, in order, each reduced to
/// the strategy its options select. Only `dict`, `list` and `str` exist, so
/// a stack never holds an unknown merger.
///
/// Dispatch (cloud-init's `LookupMerger`): the first merger handling the
/// *old* value's type merges; no merger for it → old is kept. The same stack
/// applies at every depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergerStack {
    strategies: Vec<Strategy>,
    limits: Limits,
}

/// Which module a merger name selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MergerKind {
    Dict,
    List,
    Str,
}

fn kind_of(name: &SpecName) -> Result<MergerKind, MergeError> {
    let name = match name {
        SpecName::Str(s) => s,
        SpecName::NotStr(t) => {
            return Err(MergeError::new(
                PyException::AttributeError,
                format!("'{t}' object has no attribute 'startswith'"),
            ));
        }
    };
    let module = if name.starts_with("m_") {
        name.clone()
    } else {
        format!("m_{name}")
    };
    match module.as_str() {
        "m_dict" => Ok(MergerKind::Dict),
        "m_list" => Ok(MergerKind::List),
        "m_str" => Ok(MergerKind::Str),
        _ => Err(MergeError::new(
            PyException::ImportError,
            format!(
                "Could not find merger module named '{module}' with attribute 'Merger' \
                 (searched ['cloudinit.mergers.{module}'])"
            ),
        )),
    }
}

fn strategy_of(kind: MergerKind, o: &Options) -> Result<Strategy, MergeError> {
    Ok(match kind {
        MergerKind::Dict => {
            // `replace` is checked before `no_replace`, so it wins.
            let mode = if o.has("replace")? {
                DictMode::Replace
            } else {
                DictMode::Keep
            };
            Strategy::Dict(DictStrategy {
                mode,
                recurse: Recurse {
                    dict: true,
                    str: o.has("recurse_str")?,
                    list: o.has_any(&["recurse_array", "recurse_list"])?,
                },
                allow_delete: o.has("allow_delete")?,
            })
        }
        MergerKind::List => {
            let mode = if o.has("append")? {
                ListMode::Append
            } else if o.has("prepend")? {
                ListMode::Prepend
            } else if o.has("replace")? {
                ListMode::Overlay
            } else if o.has("no_replace")? {
                ListMode::Keep
            } else {
                ListMode::Overlay
            };
            Strategy::List(ListStrategy {
                mode,
                recurse: Recurse {
                    str: o.has("recurse_str")?,
                    dict: o.has("recurse_dict")?,
                    list: o.has_any(&["recurse_array", "recurse_list"])?,
                },
            })
        }
        MergerKind::Str => Strategy::Str(StrStrategy {
            mode: if o.has("append")? {
                StrMode::Append
            } else {
                StrMode::Replace
            },
        }),
    })
}

const fn dict(mode: DictMode) -> Strategy {
    Strategy::Dict(DictStrategy {
        mode,
        allow_delete: false,
        recurse: Recurse {
            dict: true,
            list: false,
            str: false,
        },
    })
}

const LIST_DEFAULT: Strategy = Strategy::List(ListStrategy {
    mode: ListMode::Overlay,
    recurse: Recurse {
        dict: false,
        list: false,
        str: false,
    },
});

const STR_DEFAULT: Strategy = Strategy::Str(StrStrategy {
    mode: StrMode::Replace,
});

impl MergerStack {
    /// Construct the mergers of `spec` as cloud-init does: first every name
    /// is looked up in order (`AttributeError` for a non-string name,
    /// `ImportError` for an unknown one), then each merger tests its options
    /// (`TypeError` for untestable options).
    pub fn resolve(spec: &MergeSpec) -> Result<MergerStack, MergeError> {
        let kinds = spec
            .entries
            .iter()
            .map(|e| kind_of(&e.name))
            .collect::<Result<Vec<_>, _>>()?;
        let strategies = kinds
            .into_iter()
            .zip(&spec.entries)
            .map(|(k, e)| strategy_of(k, &e.options))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MergerStack::from_strategies(strategies))
    }

    /// Parse and resolve a spec string.
    pub fn parse(text: &str, version: Version) -> Result<MergerStack, MergeError> {
        MergerStack::resolve(&MergeSpec::parse_str(text, version)?)
    }

    /// A stack of these strategies, in dispatch order.
    pub fn from_strategies(strategies: Vec<Strategy>) -> MergerStack {
        MergerStack {
            strategies,
            limits: Limits::default(),
        }
    }

    /// `list()+dict()+str()`: cloud-init's `mergers.default_mergers()`, used
    /// by `mergemanydict` (dict no_replace: the earlier value wins).
    pub fn default_mergers() -> MergerStack {
        MergerStack::from_strategies(vec![LIST_DEFAULT, dict(DictMode::Keep), STR_DEFAULT])
    }

    /// `dict(replace)+list()+str()`: the cloud-config handler's default for a
    /// part that names no mergers.
    pub fn handler_default() -> MergerStack {
        MergerStack::from_strategies(vec![dict(DictMode::Replace), LIST_DEFAULT, STR_DEFAULT])
    }

    /// The same stack with other limits.
    pub fn with_limits(mut self, limits: Limits) -> MergerStack {
        self.limits = limits;
        self
    }

    /// The strategies in dispatch order.
    pub fn strategies(&self) -> &[Strategy] {
        &self.strategies
    }

    /// Merge `new` into `old` (`merger.merge(old, new)`).
    pub fn merge(&self, old: &Node, new: &Node) -> Result<Node, MergeError> {
        merge_with(self, old, new, &self.limits, &mut NoObserver)
    }

    /// [`MergerStack::merge`] consuming `old` (see [`merge_owned_with`]): linear
    /// when folding many parts; on error `old` comes back unchanged.
    pub fn merge_owned(&self, old: Node, new: &Node) -> Result<Node, (MergeError, Node)> {
        merge_owned_with(self, old, new, &self.limits, &mut NoObserver)
    }

    /// [`MergerStack::merge_owned`] reporting every decision to `observer`
    /// (same result; `explain` folds parts with it). Given `&mut new`, the
    /// merge empties it as it goes (see [`merge_owned_with`]).
    pub fn merge_owned_observed<'n>(
        &self,
        old: Node,
        new: impl Into<NewSide<'n>>,
        observer: &mut dyn MergeObserver,
    ) -> Result<Node, (MergeError, Node)> {
        merge_owned_with(self, old, new, &self.limits, observer)
    }

    /// Merge, reporting every decision to `observer`.
    pub fn merge_observed(
        &self,
        old: &Node,
        new: &Node,
        observer: &mut dyn MergeObserver,
    ) -> Result<Node, MergeError> {
        merge_with(self, old, new, &self.limits, observer)
    }
}

impl Rules for MergerStack {
    fn strategy_for(&self, _path: &Path, old: &Node) -> Option<&Strategy> {
        let class = TypeClass::of(old)?;
        self.strategies.iter().find(|s| s.handles() == class)
    }
}

/// The stack as an equivalent canonical spec string
/// (`dict(replace,recurse_list)+list(append)`), effective options only.
impl fmt::Display for MergerStack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.strategies.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            let mut opts: Vec<&str> = Vec::new();
            let name = match s {
                Strategy::Dict(d) => {
                    opts.push(match d.mode {
                        DictMode::Replace => "replace",
                        DictMode::Keep => "no_replace",
                        // Not a cloud-init mode (other dialects' tables).
                        DictMode::Merge => "merge",
                        // Other dialects' modes: never in a resolved stack.
                        DictMode::Symmetric => "symmetric",
                    });
                    if d.allow_delete {
                        opts.push("allow_delete");
                    }
                    push_recurse(&mut opts, &d.recurse, false);
                    "dict"
                }
                Strategy::List(l) => {
                    opts.push(match l.mode {
                        ListMode::Append => "append",
                        ListMode::Prepend => "prepend",
                        ListMode::Overlay => "replace",
                        ListMode::Keep => "no_replace",
                        ListMode::Union => "union",
                        ListMode::ByIdentity { .. } => "by_identity",
                    });
                    push_recurse(&mut opts, &l.recurse, true);
                    "list"
                }
                Strategy::Str(s) => {
                    if s.mode == StrMode::Append {
                        opts.push("append");
                    }
                    "str"
                }
                // Not cloud-init mergers (other dialects' tables).
                Strategy::Replace => "replace",
                Strategy::Conflict => "conflict",
                Strategy::Flatten(_) => "flatten",
                Strategy::Unify(_) => "unify",
                // Not a cloud-init merger; never in a resolved stack.
                Strategy::Layer(_) => "layer",
            };
            write!(f, "{name}({})", opts.join(","))?;
        }
        Ok(())
    }
}

/// The `recurse_*` options `r` sets, in spec order; `recurse_dict` only
/// where the merger has that option (`with_dict`: lists, not dicts).
fn push_recurse(opts: &mut Vec<&str>, r: &Recurse, with_dict: bool) {
    let flags = [
        (with_dict && r.dict, "recurse_dict"),
        (r.list, "recurse_list"),
        (r.str, "recurse_str"),
    ];
    opts.extend(flags.into_iter().filter(|f| f.0).map(|f| f.1));
}
