//! `Recorder`: the fold observer `explain` runs render with — each part's data and merge decisions.

use crate::merge::cloud_init::MergerStack;
use crate::merge::{Decision, MergeEvent, MergeObserver, PathSeg};
use crate::source::{SourceId, Span};
use crate::userdata::FoldObserver;
use crate::yaml::value::{Node, Value};

/// What `explain` needs of a value an event names.
#[derive(Clone, Debug)]
pub(crate) struct ValueInfo {
    pub span: Span,
    pub is_str: bool,
    /// Python `len()` of what iterating it yields (items, characters, keys, bytes).
    pub len: usize,
    /// Iterating it yields new values (characters, byte values), not its own nodes.
    derived: bool,
}

impl ValueInfo {
    fn of(n: &Node) -> ValueInfo {
        let (len, derived) = match n.value() {
            Value::Seq(s) | Value::Tuple(s) => (s.len(), false),
            Value::Map(m) | Value::Set(m) => (m.len(), false),
            Value::Str(s) => (s.chars().count(), true),
            Value::Bytes(b) => (b.len(), true),
            _ => (0, false),
        };
        ValueInfo {
            span: n.span(),
            is_str: matches!(n.value(), Value::Str(_)),
            len,
            derived,
        }
    }

    /// Whether a list merge taking items from this value makes new ones.
    pub(super) fn derived_items(&self) -> bool {
        self.derived
    }
}

/// One decision, kept until its part is known to have merged.
#[derive(Clone, Debug)]
pub(crate) struct Recorded {
    pub path: Vec<PathSeg>,
    pub path_text: String,
    pub decision: Decision,
    pub old: Option<ValueInfo>,
    pub new: Option<ValueInfo>,
}

/// One cloud-config part the handler took.
#[derive(Debug)]
pub(crate) struct PartRecord {
    pub source: SourceId,
    /// Its data (kept alive, so node identity tells its values apart).
    pub data: Option<Node>,
    /// Its decisions (empty unless merged).
    pub events: Vec<Recorded>,
    pub merged: bool,
    /// The mergers it was merged with (YAML parts).
    pub mergers: Option<String>,
}

/// Records every cloud-config part's data and decisions.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    current: Option<PartRecord>,
    pub parts: Vec<PartRecord>,
}

impl MergeObserver for Recorder {
    fn event(&mut self, event: &MergeEvent<'_>) {
        if let Some(cur) = &mut self.current {
            cur.events.push(Recorded {
                path: event.path.segments().to_vec(),
                path_text: event.path.to_string(),
                decision: event.decision,
                old: event.old.map(ValueInfo::of),
                new: event.new.map(ValueInfo::of),
            });
        }
    }
}

impl FoldObserver for Recorder {
    fn begin_part(&mut self, source: SourceId) {
        self.current = Some(PartRecord {
            source,
            data: None,
            events: Vec::new(),
            merged: false,
            mergers: None,
        });
    }

    fn part_data(&mut self, _source: SourceId, data: &Node) {
        if let Some(cur) = &mut self.current {
            cur.data = Some(data.clone());
        }
    }

    fn part_mergers(&mut self, _source: SourceId, mergers: &MergerStack) {
        if let Some(cur) = &mut self.current {
            cur.mergers = Some(mergers.to_string());
        }
    }

    fn end_part(&mut self, _source: SourceId, merged: bool) {
        if let Some(mut cur) = self.current.take() {
            cur.merged = merged;
            if !merged {
                cur.events.clear();
            }
            self.parts.push(cur);
        }
    }
}
