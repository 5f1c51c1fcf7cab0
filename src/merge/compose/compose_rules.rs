//! `ComposeRules`: compose-go's merge rules (`override.Merge`) as a strategy table keyed by path.

use super::compose_path::{ComposePath, path_matches};
use super::go_text::go_entry;
use super::unicity::{Indexer, unique_indexer};
use crate::merge::{
    DictMode, DictStrategy, FlattenStrategy, ListMode, ListStrategy, MergeError, Path, PathSeg,
    Recurse, Rules, Strategy,
};
use crate::source::Span;
use crate::yaml::value::{Node, PyStr, Value, py_eq};
use std::cell::RefCell;

/// compose-go's special mergers, by path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    /// New replaces old, even a null (`command`, `entrypoint`, `healthcheck.test`).
    Override,
    /// Both sides flattened into `key=value` sequences and appended.
    ToSequence,
    /// `extra_hosts`: flattened, new items equal to old ones dropped.
    ExtraHosts,
    /// Merged only when both name the same `driver` (or one names none).
    Logging,
    /// Replaced, never merged (compose-go merges the override with itself).
    Ulimit,
    /// IPAM pools merged by subnet.
    Ipam,
}

const SPECIALS: &[(&str, Special)] = &[
    ("networks.*.ipam.config", Special::Ipam),
    ("networks.*.labels", Special::ToSequence),
    ("volumes.*.labels", Special::ToSequence),
    ("services.*.annotations", Special::ToSequence),
    ("services.*.build.args", Special::ToSequence),
    ("services.*.build.additional_contexts", Special::ToSequence),
    ("services.*.build.extra_hosts", Special::ExtraHosts),
    ("services.*.build.labels", Special::ToSequence),
    ("services.*.command", Special::Override),
    ("services.*.deploy.labels", Special::ToSequence),
    ("services.*.dns", Special::ToSequence),
    ("services.*.dns_opt", Special::ToSequence),
    ("services.*.dns_search", Special::ToSequence),
    ("services.*.entrypoint", Special::Override),
    ("services.*.env_file", Special::ToSequence),
    ("services.*.label_file", Special::ToSequence),
    ("services.*.environment", Special::ToSequence),
    ("services.*.extra_hosts", Special::ExtraHosts),
    ("services.*.healthcheck.test", Special::Override),
    ("services.*.labels", Special::ToSequence),
    ("services.*.volumes.*.volume.labels", Special::ToSequence),
    ("services.*.logging", Special::Logging),
    ("services.*.sysctls", Special::ToSequence),
    ("services.*.tmpfs", Special::ToSequence),
    ("services.*.ulimits.*", Special::Ulimit),
];

/// A type mismatch the merge stopped at: where, and both values' spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// compose-go's path (`services.web.ports`).
    pub path: String,
    /// The earlier value.
    pub old: Span,
    /// The later value.
    pub new: Span,
}

/// The strategy table of one merge step (one more file into the model).
#[derive(Debug, Default)]
pub struct ComposeRules {
    /// Paths the file being merged tags `!override`.
    overrides: Vec<ComposePath>,
    /// The conflict that failed the merge, if one did.
    conflict: RefCell<Option<Conflict>>,
}

const MERGE_MAPPING: Strategy = Strategy::Dict(DictStrategy {
    mode: DictMode::Merge,
    allow_delete: false,
    recurse: Recurse {
        dict: false,
        list: false,
        str: false,
    },
});

impl ComposeRules {
    /// Rules for merging a file whose `!override` paths are `overrides`.
    pub fn new(overrides: Vec<ComposePath>) -> Self {
        ComposeRules {
            overrides,
            conflict: RefCell::new(None),
        }
    }

    /// The conflict recorded by the last failed merge.
    pub fn take_conflict(&self) -> Option<Conflict> {
        self.conflict.borrow_mut().take()
    }

    fn special(path: &Path) -> Option<Special> {
        SPECIALS
            .iter()
            .find(|(p, _)| path_matches(path, p))
            .map(|(_, s)| *s)
    }

    fn conflict(&self, path: &Path, old: &Node, new: &Node) -> Option<Strategy> {
        *self.conflict.borrow_mut() = Some(Conflict {
            path: ComposePath::of(path).to_string(),
            old: old.span(),
            new: new.span(),
        });
        Some(Strategy::Conflict)
    }
}

fn is_x_key(path: &Path) -> bool {
    matches!(path.segments().last(), Some(PathSeg::Key(k)) if k.as_str().is_some_and(|s| s.starts_with("x-")))
}

impl Rules for ComposeRules {
    fn strategy_for(&self, _path: &Path, _old: &Node) -> Option<&Strategy> {
        // Every decision needs new as well: see `strategy_for_new`.
        None
    }

    fn uses_path(&self) -> bool {
        true
    }

    fn strategy_for_new(&self, path: &Path, old: &Node, new: &Node) -> Option<Strategy> {
        // `x-` extensions are set, never merged, at any depth.
        if is_x_key(path) {
            return Some(Strategy::Replace);
        }
        if !self.overrides.is_empty() && self.overrides.contains(&ComposePath::of(path)) {
            return Some(Strategy::Replace);
        }
        match Self::special(path) {
            Some(Special::Override | Special::Ulimit) => return Some(Strategy::Replace),
            Some(Special::ToSequence) => {
                return Some(Strategy::Flatten(FlattenStrategy {
                    unique: unique_indexer(path).is_some(),
                }));
            }
            Some(Special::ExtraHosts) => {
                return Some(Strategy::Flatten(FlattenStrategy { unique: true }));
            }
            Some(Special::Logging) => {
                let driver = |n: &Node| n.as_map().and_then(|m| m.get_str("driver")).cloned();
                if let (Some(od), Some(nd)) = (driver(old), driver(new))
                    && new.as_map().is_some()
                    && !py_eq(&od, &nd)
                {
                    return Some(Strategy::Replace);
                }
            }
            Some(Special::Ipam) => {
                if let (Value::Seq(_), Value::Seq(_)) = (old.value(), new.value()) {
                    return Some(Strategy::List(ListStrategy {
                        mode: ListMode::Union,
                        recurse: Recurse {
                            dict: true,
                            list: false,
                            str: false,
                        },
                    }));
                }
            }
            None => {}
        }
        if new.is_null() {
            return None;
        }
        match (old.value(), new.value()) {
            (Value::Map(_), Value::Map(_)) => Some(MERGE_MAPPING),
            (Value::Map(_), _) => self.conflict(path, old, new),
            (Value::Seq(_), Value::Seq(_)) => Some(Strategy::List(ListStrategy {
                mode: if unique_indexer(path).is_some() {
                    ListMode::Union
                } else {
                    ListMode::Append
                },
                recurse: Recurse::default(),
            })),
            (Value::Seq(_), _) => self.conflict(path, old, new),
            _ => Some(Strategy::Replace),
        }
    }

    fn item_key(&self, path: &Path, item: &Node) -> Result<Option<String>, MergeError> {
        let indexer = match Self::special(path) {
            Some(Special::ExtraHosts) => Some(Indexer::Whole),
            Some(Special::Ipam) => Some(Indexer::Subnet),
            _ => unique_indexer(path),
        };
        let Some(indexer) = indexer else {
            return Ok(None);
        };
        indexer
            .key(item, &ComposePath::of(path).to_string())
            .map_err(MergeError::type_error)
    }

    fn flatten_entry(&self, key: &Node, value: &Node) -> PyStr {
        go_entry(key, value)
    }
}
