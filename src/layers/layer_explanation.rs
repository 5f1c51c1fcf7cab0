//! `explain_layers`: for every key and list item of the layered config, the layer and file:line:col that won, what it shadowed, and the traps.

use super::layer_note::{LayerNote, NoteKind, Trap};
use super::layered::{FlatSource, Layered, VendorOutcome};
use super::source_registry::LayerKind;
use crate::source::{SourceId, Span};
use crate::yaml::value::{Node, Value};

/// Where a value was read: its source and 1-based position there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerOrigin {
    /// The source (an id of [`Layered::sources`]).
    pub source: SourceId,
    /// Its layer.
    pub layer: LayerKind,
    /// Its label (`/etc/cloud/cloud.cfg.d/90_dpkg.cfg`, `user-data part 1 (base.yaml)`).
    pub label: String,
    /// 1-based line in the source's text.
    pub line: u32,
    /// 1-based column (code points).
    pub column: u32,
}

impl std::fmt::Display for LayerOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.label, self.line, self.column)
    }
}

/// One key or list item of the layered config.
#[derive(Clone, Debug)]
pub struct LayerEntry {
    /// Its logical path (`$.runcmd[2]`).
    pub path: String,
    /// Nesting depth (top-level keys: 0).
    pub depth: usize,
    /// The key, for a mapping entry.
    pub key: Option<Node>,
    /// The index, for a list item.
    pub index: Option<usize>,
    /// The value the modules see.
    pub value: Node,
    /// Where the value was read (for a mapping the merges built, the
    /// highest layer's mapping).
    pub origin: Option<LayerOrigin>,
    /// Values at the same path in lower-priority sources that did not make
    /// it into this value.
    pub shadowed: Vec<LayerOrigin>,
}

impl LayerEntry {
    /// Whether the value is a non-empty container, shown with child entries.
    pub fn has_children(&self) -> bool {
        match self.value.value() {
            Value::Map(m) => !m.is_empty(),
            Value::Seq(s) | Value::Tuple(s) => !s.is_empty(),
            _ => false,
        }
    }
}

/// The layered config explained.
#[derive(Clone, Debug)]
pub struct LayerExplanation {
    /// Every key and list item, in document order.
    pub entries: Vec<LayerEntry>,
    /// What cloud-init logs, and the traps, each once.
    pub notes: Vec<LayerNote>,
}

/// The walk would visit more nodes than allowed (an alias bomb).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the layered config expands to more than {limit} nodes when its shared aliases are walked (raise the limit with --max-nodes)"
)]
pub struct TooManyNodes {
    /// The limit.
    pub limit: usize,
}

/// Explain a layered config: see [`LayerExplanation`].
pub fn explain_layers(l: &Layered, max_nodes: usize) -> Result<LayerExplanation, TooManyNodes> {
    let mut entries = Vec::new();
    let mut budget = max_nodes;
    let mut path: Vec<Node> = Vec::new();
    walk(
        l,
        &l.config,
        &mut path,
        "$".to_owned(),
        0,
        &mut entries,
        &mut budget,
        max_nodes,
    )?;
    let mut notes = l.notes.clone();
    traps(l, &entries, &mut notes);
    Ok(LayerExplanation { entries, notes })
}

/// The origin a span names (`None`: built in code, no source).
pub fn origin_of(l: &Layered, span: Span) -> Option<LayerOrigin> {
    let info = l.sources.get(span.source)?;
    let (mut line, mut column) = (span.start.line, span.start.column);
    if line == 0 {
        column += info.shift.1;
    }
    line += info.shift.0;
    Some(LayerOrigin {
        source: span.source,
        layer: info.layer,
        label: info.label.clone(),
        line: line + 1,
        column: column + 1,
    })
}

#[allow(clippy::too_many_arguments)]
fn walk(
    l: &Layered,
    node: &Node,
    path: &mut Vec<Node>,
    text: String,
    depth: usize,
    out: &mut Vec<LayerEntry>,
    budget: &mut usize,
    limit: usize,
) -> Result<(), TooManyNodes> {
    match node.value() {
        Value::Map(m) => {
            for (k, v) in m.iter() {
                *budget = budget.checked_sub(1).ok_or(TooManyNodes { limit })?;
                let key_text = match k.as_str() {
                    Some(s) => format!("{text}.{s}"),
                    None => format!("{text}[{}]", crate::yaml::value::py_repr(k)),
                };
                path.push(k.clone());
                // Shadowing is looked for along paths of keys only.
                let keyed = path.len() == depth + 1;
                let shadowed = if keyed {
                    shadowed(l, path, v)
                } else {
                    Vec::new()
                };
                out.push(LayerEntry {
                    path: key_text.clone(),
                    depth,
                    key: Some(k.clone()),
                    index: None,
                    value: v.clone(),
                    origin: origin_of(l, v.span()),
                    shadowed,
                });
                walk(l, v, path, key_text, depth + 1, out, budget, limit)?;
                path.pop();
            }
        }
        Value::Seq(s) | Value::Tuple(s) => {
            for (i, v) in s.iter().enumerate() {
                *budget = budget.checked_sub(1).ok_or(TooManyNodes { limit })?;
                let item_text = format!("{text}[{i}]");
                out.push(LayerEntry {
                    path: item_text.clone(),
                    depth,
                    key: None,
                    index: Some(i),
                    value: v.clone(),
                    origin: origin_of(l, v.span()),
                    shadowed: Vec::new(),
                });
                // Items are not keyed: below them no shadowing is looked for.
                path.push(Node::synthetic(Value::Null));
                walk(l, v, path, item_text, depth + 1, out, budget, limit)?;
                path.pop();
            }
        }
        _ => {}
    }
    Ok(())
}

/// The value at a path of keys in a source's data.
fn lookup<'a>(data: &'a Node, path: &[Node]) -> Option<&'a Node> {
    let mut cur = data;
    for k in path {
        cur = cur.as_map()?.get(k)?;
    }
    Some(cur)
}

fn same(a: &Node, b: &Node) -> bool {
    Node::ptr_eq(a, b) || (a.span() == b.span() && a.span().source != SourceId::UNKNOWN)
}

/// Whether `lower` made it into `won` (it is it, or its items are among `won`'s).
fn contributed(won: &Node, lower: &Node) -> bool {
    if same(won, lower) {
        return true;
    }
    match (won.value(), lower.value()) {
        (Value::Map(_), Value::Map(_)) => true,
        (Value::Seq(w), Value::Seq(o)) => o.iter().any(|x| w.iter().any(|y| same(x, y))),
        _ => false,
    }
}

fn shadowed(l: &Layered, path: &[Node], won: &Node) -> Vec<LayerOrigin> {
    let won_source = won.span().source;
    l.flat
        .iter()
        .filter_map(|f: &FlatSource| {
            let v = lookup(&f.data, path)?;
            if v.span().source == won_source || contributed(won, v) {
                return None;
            }
            origin_of(l, v.span())
        })
        .collect()
}

/// A conf.d file name's leading number, if it starts with digits.
fn leading_number(label: &str) -> Option<u64> {
    let name = label.rsplit('/').next()?;
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn is_confd(o: &LayerOrigin) -> bool {
    o.layer == LayerKind::EtcCloud
        && !o.label.starts_with("/etc/cloud/cloud.cfg ")
        && o.label != "/etc/cloud/cloud.cfg"
}

fn traps(l: &Layered, entries: &[LayerEntry], notes: &mut Vec<LayerNote>) {
    let user_specs = notes
        .iter()
        .any(|n| n.kind == NoteKind::Trap(Trap::UserMergeHowIgnored));
    for e in entries {
        let Some(won) = &e.origin else { continue };
        for s in &e.shadowed {
            let is_list = |n: &Node| matches!(n.value(), Value::Seq(_));
            if is_list(&e.value) && s.layer != won.layer {
                let mut message = format!(
                    "{} from {won} replaces the list from {s}: layers merge first-wins, so the lower layer's items are dropped",
                    e.path
                );
                if won.layer == LayerKind::UserData && user_specs {
                    message.push_str(" (the merge_how / Merge-Type in user-data applies only between user-data parts: cloud-init pops it before layering)");
                }
                notes.push(LayerNote {
                    kind: NoteKind::Trap(Trap::ListReplaced),
                    source: Some(won.source),
                    about: won.label.clone(),
                    path: Some(e.path.clone()),
                    message,
                });
            }
            if is_confd(won) && is_confd(s) {
                let mut message = format!(
                    "{}: {won} shadows {s}: cloud.cfg.d files are read in reverse sorted order, so the name that sorts last wins",
                    e.path
                );
                if let (Some(a), Some(b)) = (leading_number(&won.label), leading_number(&s.label))
                    && a < b
                {
                    message.push_str(&format!(
                        " (as text \"{}\" sorts after \"{}\" although {a} < {b})",
                        won.label.rsplit('/').next().unwrap_or(""),
                        s.label.rsplit('/').next().unwrap_or("")
                    ));
                }
                notes.push(LayerNote {
                    kind: NoteKind::Trap(Trap::ConfdShadowed),
                    source: Some(won.source),
                    about: won.label.clone(),
                    path: Some(e.path.clone()),
                    message,
                });
            }
        }
    }
    for (outcome, name) in [(&l.vendor, "vendor-data"), (&l.vendor2, "vendor-data2")] {
        if let VendorOutcome::Disabled {
            decided_by: Some(id),
        } = outcome
        {
            let Some(info) = l.sources.get(*id) else {
                continue;
            };
            if matches!(info.layer, LayerKind::UserData | LayerKind::CloudCfgEnv) {
                notes.push(LayerNote {
                    kind: NoteKind::Trap(Trap::VendorDisabledByUser),
                    source: Some(*id),
                    about: info.label.clone(),
                    path: None,
                    message: format!("{} disables {name}: its cloud-config, scripts and boothooks are not consumed", info.label),
                });
            }
        }
    }
}
