//! `Hierarchy`: data layers as Hiera consults them, and the lookup of each top-level key.

use super::data_type::{
    is_data, is_scalar_or_data_array, is_string_data_hash, loadable_by_puppet, puppet_type_name,
};
use super::key_rules::KeyRules;
use super::lookup_key::{Segment, split_key};
use super::{HieraError, HieraStrategy, HieraWarning, LookupOptions, MergeBehavior};
use crate::merge::{Knockout, Limits, MergeObserver, NoObserver, merge_with, strict_union};
use crate::source::Span;
use crate::yaml::value::{Entries, Node, Seq, Value, insert};
use std::cell::RefCell;
use std::collections::HashMap;

/// The reserved key holding per-key merge options; never output.
pub const LOOKUP_OPTIONS: &str = "lookup_options";

/// One data file: a name for messages and its loaded root (`None` when empty).
#[derive(Clone, Debug)]
pub struct HieraLayer {
    /// How diagnostics name the layer (the file name).
    pub name: String,
    /// The loaded document.
    pub root: Option<Node>,
}

/// A looked-up key.
#[derive(Clone, Debug)]
pub struct KeyMerge {
    /// The key as written in the data.
    pub key: Node,
    /// The merged value.
    pub value: Node,
    /// The behaviour used.
    pub behavior: MergeBehavior,
    /// Where the behaviour came from: `None` for the command line or the
    /// default, else the `lookup_options` entry (a key or a pattern).
    pub behavior_source: Option<String>,
    /// Indexes (into the layers, lowest first) of the layers holding the
    /// key, highest priority first: the ones merged (`first` uses only the first).
    pub found_in: Vec<usize>,
}

/// Every key merged.
#[derive(Clone, Debug, Default)]
pub struct HieraMerged {
    /// The keys, in order of first appearance from the lowest layer up.
    pub keys: Vec<KeyMerge>,
    /// Warnings (layers ignored, keys puppet cannot look up).
    pub warnings: Vec<HieraWarning>,
}

impl HieraMerged {
    /// The result as one mapping.
    pub fn to_node(&self) -> Node {
        let mut entries = Entries::with_capacity(self.keys.len());
        for k in &self.keys {
            insert(&mut entries, k.key.clone(), k.value.clone());
        }
        Node::synthetic(Value::Map(crate::yaml::value::Map::new(entries)))
    }
}

/// Layers (lowest priority first) ready for lookups.
#[derive(Clone, Debug)]
pub struct Hierarchy {
    layers: Vec<HieraLayer>,
    /// Per layer (same order): its root mapping, or `None` when ignored.
    roots: Vec<Option<Node>>,
    /// Each string key: the layers (lowest first) whose root has it. A
    /// lookup per key that scanned every layer made merging n files that
    /// each add their own keys quadratic (10,000 fragments: 15 s).
    index: HashMap<String, Vec<usize>>,
    warnings: Vec<HieraWarning>,
    /// A layer puppet could not load fails every lookup.
    load_error: Option<HieraError>,
    options: Result<LookupOptions, HieraError>,
    limits: Limits,
    /// Keys being looked up through `%{lookup(...)}` (recursion guard).
    active: RefCell<Vec<String>>,
}

impl Hierarchy {
    /// Read the layers: a root that is not a mapping is ignored with a
    /// warning (as puppet does); `lookup_options` are merged (`hash`, from
    /// the highest level down) and compiled.
    pub fn new(layers: Vec<HieraLayer>) -> Hierarchy {
        let mut warnings = Vec::new();
        let mut load_error = None;
        let mut roots = Vec::with_capacity(layers.len());
        for layer in &layers {
            let root = match &layer.root {
                Some(r) if r.as_map().is_some() => {
                    if let Err(what) = loadable_by_puppet(r) {
                        load_error.get_or_insert_with(|| {
                            HieraError::new(
                                "hiera-data",
                                format!(
                                    "{}: puppet's YAML loader refuses a {what} value",
                                    layer.name
                                ),
                            )
                            .with_operands([r.span()])
                        });
                    }
                    Some(r.clone())
                }
                Some(r) if matches!(r.value(), Value::Bool(false) | Value::Null) => None,
                Some(r) => {
                    warnings.push(HieraWarning {
                        code: "hiera-layer-ignored",
                        message: format!(
                            "{}: file does not contain a valid yaml hash; ignored (as puppet does)",
                            layer.name
                        ),
                        at: Some(r.span()),
                    });
                    None
                }
                None => None,
            };
            roots.push(root);
        }
        let mut index: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, root) in roots.iter().enumerate() {
            for (k, _) in root
                .iter()
                .filter_map(|r| r.as_map())
                .flat_map(|m| m.iter())
            {
                if let Some(k) = k.as_str() {
                    index.entry(k.to_owned()).or_default().push(i);
                }
            }
        }
        let mut h = Hierarchy {
            layers,
            roots,
            index,
            warnings,
            load_error,
            options: Ok(LookupOptions::default()),
            limits: Limits::default(),
            active: RefCell::new(Vec::new()),
        };
        h.options = h.merged_lookup_options();
        h
    }

    /// Warnings about the layers.
    pub fn warnings(&self) -> &[HieraWarning] {
        &self.warnings
    }

    /// The layers, lowest first.
    pub fn layers(&self) -> &[HieraLayer] {
        &self.layers
    }

    /// The compiled `lookup_options` (or why every lookup fails).
    pub fn lookup_options(&self) -> Result<&LookupOptions, &HieraError> {
        self.options.as_ref()
    }

    /// Values of `key`, highest priority first, with their layer index.
    fn found(&self, key: &str) -> Vec<(usize, Node)> {
        let layers = self.index.get(key).map_or(&[][..], Vec::as_slice);
        layers
            .iter()
            .rev()
            .filter_map(|&i| {
                let v = self.root_map(i)?.get_str(key)?;
                Some((i, v.clone()))
            })
            .collect()
    }

    /// Layer `i`'s root mapping.
    fn root_map(&self, i: usize) -> Option<&crate::yaml::value::Map> {
        self.roots.get(i)?.as_ref()?.as_map()
    }

    fn merged_lookup_options(&self) -> Result<LookupOptions, HieraError> {
        if let Some(e) = &self.load_error {
            return Err(e.clone());
        }
        let found = self.found(LOOKUP_OPTIONS);
        let behavior = MergeBehavior::new(HieraStrategy::Hash);
        let merged = self.fold(&found, &behavior, &mut NoObserver)?;
        LookupOptions::compile(merged.as_ref())
    }

    /// All top-level keys a lookup can find (strings other than
    /// `lookup_options`), in order of first appearance from the lowest layer.
    pub fn keys(&self) -> Vec<Node> {
        let mut seen: Entries = Entries::default();
        for root in self.roots.iter().flatten() {
            if let Some(m) = root.as_map() {
                for (k, _) in m.iter() {
                    if k.as_str().is_some_and(|s| s != LOOKUP_OPTIONS) {
                        insert(&mut seen, k.clone(), Node::synthetic(Value::Null));
                    }
                }
            }
        }
        seen.into_iter().map(|(k, _)| k.0).collect()
    }

    /// Keys that puppet can never look up (not strings); reported, not merged.
    pub fn unreachable_keys(&self) -> Vec<Node> {
        let mut out = Vec::new();
        for root in self.roots.iter().flatten() {
            if let Some(m) = root.as_map() {
                out.extend(
                    m.iter()
                        .filter(|(k, _)| k.as_str().is_none())
                        .map(|(k, _)| k.clone()),
                );
            }
        }
        out
    }

    /// `puppet lookup KEY [--merge …]`: `cli` overrides `lookup_options`.
    /// `Ok(None)` when no layer has the key.
    pub fn lookup(
        &self,
        key: &str,
        cli: Option<&MergeBehavior>,
    ) -> Result<Option<KeyMerge>, HieraError> {
        self.lookup_observed(key, cli, &mut NoObserver)
    }

    /// [`Hierarchy::lookup`], reporting the engine's decisions.
    pub fn lookup_observed(
        &self,
        key: &str,
        cli: Option<&MergeBehavior>,
        observer: &mut dyn MergeObserver,
    ) -> Result<Option<KeyMerge>, HieraError> {
        // Interpolation may look keys up again: one already being looked up
        // is a cycle.
        if self.active.borrow().iter().any(|k| k == key) || self.active.borrow().len() > 64 {
            let mut chain = self.active.borrow().clone();
            chain.push(key.to_owned());
            return Err(HieraError::new(
                "hiera-interpolation",
                format!("Recursive lookup detected in [{}]", chain.join(", ")),
            )
            .for_key(key));
        }
        self.active.borrow_mut().push(key.to_owned());
        let r = self.lookup_active(key, cli, observer);
        self.active.borrow_mut().pop();
        r
    }

    fn lookup_active(
        &self,
        key: &str,
        cli: Option<&MergeBehavior>,
        observer: &mut dyn MergeObserver,
    ) -> Result<Option<KeyMerge>, HieraError> {
        // A dotted key is its first segment, looked up and merged, then
        // dug into (as puppet's LookupKey does).
        let Some(segments) = split_key(key) else {
            return Err(HieraError::new(
                "hiera-key",
                format!("Syntax error in key: '{key}'"),
            ));
        };
        let mut segments = segments.into_iter();
        let root_key = match segments.next() {
            Some(Segment::Name(n)) => n,
            Some(Segment::Index(i)) => i.to_string(),
            None => key.to_owned(),
        };
        let Some(mut found) = self.lookup_root(&root_key, cli, observer)? else {
            return Ok(None);
        };
        for seg in segments {
            let next = match (found.value.value(), &seg) {
                (Value::Null, _) => None,
                (Value::Map(m), Segment::Name(n)) => m.get_str(n).cloned(),
                (Value::Map(_), Segment::Index(_)) => None,
                (Value::Seq(s), Segment::Index(i)) => usize::try_from(*i)
                    .ok()
                    .and_then(|i| s.items().get(i).cloned()),
                _ => {
                    return Err(HieraError::new(
                        "hiera-dig",
                        format!(
                            "Got {} when a hash-like object was expected to access value using \
                             {seg:?} from key '{key}'",
                            puppet_type_name(&found.value)
                        ),
                    )
                    .for_key(key)
                    .with_operands([found.value.span()]));
                }
            };
            match next {
                Some(v) => found.value = v,
                None => return Ok(None),
            }
        }
        Ok(Some(found))
    }

    fn lookup_root(
        &self,
        key: &str,
        cli: Option<&MergeBehavior>,
        observer: &mut dyn MergeObserver,
    ) -> Result<Option<KeyMerge>, HieraError> {
        let options = self.options.as_ref().map_err(|e| e.clone().for_key(key))?;
        let (behavior, behavior_source) = match cli {
            Some(b) => (b.clone(), None),
            None => match options.merge_for(key).map_err(|e| e.for_key(key))? {
                Some(b) => (b, options.source_for(key)),
                None => (MergeBehavior::first(), None),
            },
        };
        let mut found = self.found(key);
        // Each level read is interpolated (`first` reads only the first).
        let reads = match behavior.strategy {
            HieraStrategy::First => 1,
            _ => found.len(),
        };
        for (_, v) in found.iter_mut().take(reads) {
            *v = super::interpolation::interpolate(self, v).map_err(|e| e.for_key(key))?;
        }
        let Some((_, first_value)) = found.first() else {
            return Ok(None);
        };
        // As written in the lowest layer that has it.
        let key_node = self
            .index
            .get(key)
            .and_then(|layers| layers.first())
            .and_then(|&i| self.root_map(i))
            .and_then(|m| m.get_key_value(&Node::str(key)).map(|(k, _)| k.clone()))
            .unwrap_or_else(|| Node::str(key));
        let found_in: Vec<usize> = match behavior.strategy {
            HieraStrategy::First => vec![found.first().map_or(0, |f| f.0)],
            _ => found.iter().map(|f| f.0).collect(),
        };
        let value = match behavior.strategy {
            HieraStrategy::First => first_value.clone(),
            _ => self
                .fold(&found, &behavior, observer)
                .map_err(|e| e.for_key(key))?
                .unwrap_or_else(|| first_value.clone()),
        };
        Ok(Some(KeyMerge {
            key: key_node,
            value,
            behavior,
            behavior_source,
            found_in,
        }))
    }

    /// A lookup made by `%{lookup('key')}` / `%{alias('key')}`: merge
    /// behaviour from `lookup_options` (a key looked up inside its own
    /// lookup fails, see [`Hierarchy::lookup_observed`]).
    pub(super) fn sub_lookup(&self, key: &str) -> Result<Option<Node>, HieraError> {
        Ok(self.lookup(key, None)?.map(|m| m.value))
    }

    /// Every key merged; the first failing key fails the whole.
    pub fn merge_all(&self, cli: Option<&MergeBehavior>) -> Result<HieraMerged, HieraError> {
        let mut out = HieraMerged {
            keys: Vec::new(),
            warnings: self.warnings.clone(),
        };
        for k in self.unreachable_keys() {
            out.warnings.push(HieraWarning {
                code: "hiera-key-unreachable",
                message: format!(
                    "key {} is not a string: puppet lookup cannot find it; left out",
                    crate::yaml::value::py_repr(&k)
                ),
                at: Some(k.span()),
            });
        }
        for key in self.keys() {
            let Some(name) = key.as_str() else { continue };
            if split_key(name) != Some(vec![Segment::Name(name.to_owned())]) {
                out.warnings.push(HieraWarning {
                    code: "hiera-key-unreachable",
                    message: format!(
                        "key '{name}' has a dot or quote: puppet lookup reads it as a path, \
                         not as this key; left out"
                    ),
                    at: Some(key.span()),
                });
                continue;
            }
            if let Some(m) = self.lookup(name, cli)? {
                out.keys.push(m);
            }
        }
        Ok(out)
    }

    /// Fold the values found (highest first) as Hiera's merge strategies
    /// reduce hierarchy levels: the highest value converted, then each
    /// lower value merged under it.
    fn fold(
        &self,
        found: &[(usize, Node)],
        behavior: &MergeBehavior,
        observer: &mut dyn MergeObserver,
    ) -> Result<Option<Node>, HieraError> {
        let Some(((_, top), rest)) = found.split_first() else {
            return Ok(None);
        };
        let unique = behavior.strategy == HieraStrategy::Unique;
        if rest.is_empty() {
            // One level: no merge at all; `unique` still makes a list.
            return Ok(Some(if unique {
                flatten(&unique_single(top))
            } else {
                top.clone()
            }));
        }
        let knockout = match &behavior.knockout_prefix {
            Some(p) => Some(
                Knockout::new(p)
                    .map_err(|m| HieraError::new("hiera-knockout-prefix", m.to_string()))?,
            ),
            None => None,
        };
        let rules = KeyRules {
            strategy: behavior.engine_strategy(),
            knockout,
        };
        let mut acc = if unique {
            flatten(&unique_single(top))
        } else {
            top.clone()
        };
        for (_, lower) in rest {
            let lower = if unique {
                unique_single(lower)
            } else {
                lower.clone()
            };
            self.check_operands(behavior, &acc, &lower)?;
            let (old, new) = match behavior.strategy {
                HieraStrategy::ReverseDeep => (&acc, &lower),
                _ => (&lower, &acc),
            };
            acc = merge_with(&rules, old, new, &self.limits, observer).map_err(|e| {
                let at = e.at.as_deref().filter(|p| *p != "$");
                let message = match at {
                    Some(p) => format!("{} (at {p})", e.message),
                    None => e.message.clone(),
                };
                let code = if e.message.starts_with("comparison") {
                    "hiera-sort"
                } else {
                    "hiera-merge"
                };
                HieraError::new(code, message).with_operands([acc.span(), lower.span()])
            })?;
        }
        Ok(Some(acc))
    }

    /// The type assertions of `hash` and `unique` on both values of a merge.
    fn check_operands(
        &self,
        behavior: &MergeBehavior,
        higher: &Node,
        lower: &Node,
    ) -> Result<(), HieraError> {
        let (ok, want): (fn(&Node) -> bool, &str) = match behavior.strategy {
            HieraStrategy::Hash => (is_string_data_hash, "Hash[String, Data]"),
            HieraStrategy::Unique => (is_scalar_or_data_array, "Variant[Scalar, Array[Data]]"),
            _ => return Ok(()),
        };
        let both: [Span; 2] = [higher.span(), lower.span()];
        for (which, v) in [("first", higher), ("second", lower)] {
            let valid = if behavior.strategy == HieraStrategy::Unique && which == "first" {
                // The higher side is already a list.
                is_data(v)
            } else {
                ok(v)
            };
            if !valid {
                return Err(HieraError::new(
                    "hiera-type",
                    format!(
                        "The {which} element of the merge expects a value of type {want}, got {}",
                        puppet_type_name(v)
                    ),
                )
                .with_operands(both));
            }
        }
        Ok(())
    }
}

/// `unique`'s treatment of one level's value: a list loses duplicates.
fn unique_single(v: &Node) -> Node {
    match v.value() {
        Value::Seq(s) => Node::new(Value::Seq(Seq::new(strict_union(s.iter()))), v.span()),
        _ => v.clone(),
    }
}

/// `unique`'s conversion of the first value: flattened into a list.
fn flatten(v: &Node) -> Node {
    fn walk(n: &Node, out: &mut Vec<Node>, depth: usize) {
        match n.value() {
            Value::Seq(s) if depth < crate::merge::MAX_LEVELS => {
                for i in s.iter() {
                    walk(i, out, depth + 1);
                }
            }
            _ => out.push(n.clone()),
        }
    }
    let mut out = Vec::new();
    walk(v, &mut out, 0);
    Node::new(Value::Seq(Seq::new(out)), v.span())
}
