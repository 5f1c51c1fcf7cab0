//! `explain_layers`: for every key and list item of the layered config, the layer and file:line:col that won, what it shadowed, and the traps.

use super::layer_note::{LayerNote, NoteKind, Trap};
use super::layered::{FlatSource, Layered, VendorOutcome};
use super::source_registry::LayerKind;
use crate::source::{SourceId, Span};
use crate::yaml::value::{Node, Value};
use std::collections::HashSet;

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
    /// Whether the merges built the value (a `str(append)` concatenation,
    /// a merged mapping or list): the origin is then where its first
    /// contribution was read, not the value itself.
    pub built: bool,
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

/// The walk would visit more nodes than allowed (a huge config, or an alias bomb).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the layered config has more than {limit} nodes, an alias's value counted at each place it is used (raise the limit with --max-nodes)"
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
    let read = read_ids(l, max_nodes)?;
    let mut w = Walk {
        l,
        read: &read,
        out: &mut entries,
        budget: &mut budget,
        limit: max_nodes,
        in_lists: 0,
    };
    w.walk(&l.config, &mut path, "$".to_owned(), 0)?;
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

/// The identities of every value read from a source (files and parts).
fn read_ids(l: &Layered, limit: usize) -> Result<HashSet<usize>, TooManyNodes> {
    let mut ids = HashSet::new();
    // A payload layer's data is its fold's result: its parts' data is what was read.
    let files = l.flat.iter().filter(|f| {
        !matches!(
            f.layer,
            LayerKind::UserData | LayerKind::VendorData | LayerKind::VendorData2
        )
    });
    // The containers of a payload layer are those its file held (read back).
    for f in l.flat.iter().filter(|f| {
        matches!(
            f.layer,
            LayerKind::UserData | LayerKind::VendorData | LayerKind::VendorData2
        )
    }) {
        let mut stack = vec![&f.data];
        while let Some(n) = stack.pop() {
            match n.value() {
                Value::Map(m) => {
                    ids.insert(n.id());
                    stack.extend(m.iter().map(|(_, v)| v));
                }
                Value::Seq(s) | Value::Tuple(s) => {
                    ids.insert(n.id());
                    stack.extend(s.iter());
                }
                _ => {}
            }
            if ids.len() > limit.saturating_mul(4) {
                return Err(TooManyNodes { limit });
            }
        }
    }
    let mut stack: Vec<&Node> = files.map(|f| &f.data).chain(l.originals.iter()).collect();
    while let Some(n) = stack.pop() {
        if !ids.insert(n.id()) {
            continue;
        }
        if ids.len() > limit.saturating_mul(4) {
            return Err(TooManyNodes { limit });
        }
        match n.value() {
            Value::Map(m) => stack.extend(m.iter().map(|(_, v)| v)),
            Value::Seq(s) | Value::Tuple(s) => stack.extend(s.iter()),
            _ => {}
        }
    }
    Ok(ids)
}

struct Walk<'a> {
    l: &'a Layered,
    read: &'a HashSet<usize>,
    out: &'a mut Vec<LayerEntry>,
    budget: &'a mut usize,
    limit: usize,
    /// How many list items the walk is inside (no shadowing is looked for there).
    in_lists: usize,
}

impl Walk<'_> {
    /// One entry at `path` (`text`): a key's value (`key`) or a list item (`index`).
    fn entry(
        &mut self,
        path: &[Node],
        text: String,
        depth: usize,
        (key, index): (Option<Node>, Option<usize>),
        v: &Node,
    ) -> Result<(), TooManyNodes> {
        // Shadowing is looked for along paths of keys only.
        let keyed = key.is_some() && self.in_lists == 0;
        *self.budget = self
            .budget
            .checked_sub(1)
            .ok_or(TooManyNodes { limit: self.limit })?;
        let shadowed = if keyed {
            shadowed(self.l, path, v)
        } else {
            Vec::new()
        };
        self.out.push(LayerEntry {
            path: text,
            depth,
            key,
            index,
            value: v.clone(),
            origin: origin_of(self.l, v.span()),
            built: !self.read.contains(&v.id()),
            shadowed,
        });
        Ok(())
    }

    fn walk(
        &mut self,
        node: &Node,
        path: &mut Vec<Node>,
        text: String,
        depth: usize,
    ) -> Result<(), TooManyNodes> {
        match node.value() {
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    let key_text = match k.as_str() {
                        Some(s) => format!("{text}.{s}"),
                        None => format!("{text}[{}]", crate::yaml::value::py_repr(k)),
                    };
                    path.push(k.clone());
                    self.entry(path, key_text.clone(), depth, (Some(k.clone()), None), v)?;
                    self.walk(v, path, key_text, depth + 1)?;
                    path.pop();
                }
            }
            Value::Seq(s) | Value::Tuple(s) => {
                for (i, v) in s.iter().enumerate() {
                    let item_text = format!("{text}[{i}]");
                    self.entry(path, item_text.clone(), depth, (None, Some(i)), v)?;
                    path.push(Node::synthetic(Value::Null));
                    self.in_lists += 1;
                    self.walk(v, path, item_text, depth + 1)?;
                    self.in_lists -= 1;
                    path.pop();
                }
            }
            _ => {}
        }
        Ok(())
    }
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

/// The shadowed value an origin names (found again at its path in its source).
fn lookup_origin<'a>(l: &'a Layered, o: &LayerOrigin) -> Option<&'a Node> {
    l.flat
        .iter()
        .filter(|f| f.source == Some(o.source) || f.source.is_none())
        .find_map(|f| {
            let mut found = None;
            let mut stack = vec![&f.data];
            while let Some(n) = stack.pop() {
                let sp = n.span();
                if sp.source == o.source
                    && origin_of(l, sp).is_some_and(|x| x.line == o.line && x.column == o.column)
                {
                    found = Some(n);
                    break;
                }
                match n.value() {
                    Value::Map(m) => stack.extend(m.iter().map(|(_, v)| v)),
                    Value::Seq(s) | Value::Tuple(s) => stack.extend(s.iter()),
                    _ => {}
                }
            }
            found
        })
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
            // The built-in defaults are meant to be replaced; an empty list drops nothing.
            let dropped =
                lookup_origin(l, s).is_some_and(|n| n.as_seq().is_some_and(|q| !q.is_empty()));
            if is_list(&e.value) && s.layer != won.layer && s.layer != LayerKind::Builtin && dropped
            {
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
    // The list trap already says it where it matters.
    let said = notes.iter().any(|n| {
        n.kind == NoteKind::Trap(Trap::ListReplaced) && n.message.contains("cloud-init pops it")
    });
    if said {
        notes.retain(|n| n.kind != NoteKind::Trap(Trap::UserMergeHowIgnored));
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::layers::{LayerInputs, fold_layers};
    use crate::userdata::{NoIncludes, UserDataOptions};

    /// A `str(append)` concatenation is reported as built, not as the value read.
    #[test]
    fn concatenation_is_built() {
        let user = b"Content-Type: multipart/mixed; boundary=XB\nMIME-Version: 1.0\n\n--XB\nContent-Type: text/cloud-config\n\nallow_userdata: 'no'\n--XB\nContent-Type: text/cloud-config\n\nallow_userdata: 'no'\nmerge_type: 'dict(no_replace,recurse_str)+str(append)'\n--XB--\n";
        let inputs = LayerInputs {
            user_data: Some(user.to_vec()),
            ..LayerInputs::default()
        };
        let l = fold_layers(&inputs, &UserDataOptions::default(), &NoIncludes).unwrap();
        let ex = explain_layers(&l, 10_000).unwrap();
        let e = ex
            .entries
            .iter()
            .find(|e| e.path == "$.allow_userdata")
            .unwrap();
        assert_eq!(e.value.as_str(), Some("nono"));
        assert!(e.built, "{:?}", e);
    }
}
