//! `Slot`: what the merges did at one logical position of the config, and below it, part by part.

use super::change::{Change, Step};
use super::recorder::{Recorded, ValueInfo};
use crate::merge::{Decision, PathSeg};
use crate::source::{SourceId, Span};
use crate::yaml::value::{Key, Node, Value};
use indexmap::IndexMap;
use std::collections::BTreeMap;

/// List items placed together by one append or prepend.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub start: usize,
    pub len: usize,
    pub part: usize,
    pub change: Change,
    /// The items are characters (or byte values) of a string the part gave.
    pub element: bool,
}

/// The history of one position. Positions are logical paths in the config
/// as it is after each part; a prepend shifts the recorded items.
#[derive(Clone, Debug, Default)]
pub(crate) struct Slot {
    pub steps: Vec<Step>,
    pub runs: Vec<Run>,
    pub keys: IndexMap<Key, Slot>,
    pub items: BTreeMap<usize, Slot>,
    /// For a string built by `str(append)`: the strings concatenated, in order.
    pub concat: Vec<Span>,
    /// This value is a character (or byte value) of a string a part gave.
    pub element: bool,
    /// The last overlay of this list took its items from a string.
    overlay_from_chars: bool,
}

impl Slot {
    fn reset(&mut self) {
        *self = Slot::default();
    }

    fn push(&mut self, step: Step) {
        // A dict merger recursing into a value whose own merger then decides
        // (appends, keeps old) is one decision for the reader: the inner one.
        if step.change != Change::Merged
            && self
                .steps
                .last()
                .is_some_and(|s| s.change == Change::Merged && s.part == step.part)
        {
            self.steps.pop();
        }
        self.steps.push(step);
    }

    fn child(&mut self, seg: &PathSeg) -> &mut Slot {
        match seg {
            PathSeg::Key(k) => self.keys.entry(Key(k.clone())).or_default(),
            PathSeg::Index(i) => self.items.entry(*i).or_default(),
        }
    }

    fn at(&mut self, path: &[PathSeg]) -> &mut Slot {
        let mut slot = self;
        for seg in path {
            slot = slot.child(seg);
        }
        slot
    }

    /// The child slot for a key of the map at this position.
    pub(super) fn key(&self, k: &Node) -> Option<&Slot> {
        self.keys.get(&Key(k.clone()))
    }

    /// For each of a list's first `len` items, the run it belongs to: the
    /// first one recorded that holds its index. One pass over the runs, not
    /// a search of them per item: a list that 5000 parts appended to has
    /// 5000 runs, and searching them for each of its items was quadratic.
    pub(super) fn runs_by_item(&self, len: usize) -> Vec<Option<&Run>> {
        if self.runs.is_empty() {
            return Vec::new();
        }
        let mut by_item = vec![None; len];
        // Latest first, so that an earlier run holding the same index wins.
        for r in self.runs.iter().rev() {
            let end = r.start.saturating_add(r.len).min(len);
            for cell in by_item.get_mut(r.start.min(end)..end).into_iter().flatten() {
                *cell = Some(r);
            }
        }
        by_item
    }

    /// The step that put the value here, if recorded here.
    pub(super) fn placing(&self) -> Option<(usize, &Step)> {
        self.steps
            .iter()
            .enumerate()
            .rev()
            .find(|(_, s)| s.change.places())
    }

    /// Apply one recorded decision of part `part` (1-based).
    pub(super) fn apply(&mut self, part: usize, ev: &Recorded) {
        let step = |change: Change| Step {
            part,
            change,
            replaced_part: None,
            inherited: false,
        };
        let (parent_path, last) = match ev.path.split_last() {
            Some((last, parent)) => (parent, Some(last)),
            None => (&[][..], None),
        };
        if ev.decision == Decision::Deleted {
            if let Some(PathSeg::Key(k)) = last {
                self.at(parent_path).keys.shift_remove(&Key(k.clone()));
            }
            return;
        }
        let parent = self.at(parent_path);
        let from_chars = parent.overlay_from_chars;
        let slot = match last {
            Some(seg) => parent.child(seg),
            None => parent,
        };
        match ev.decision {
            Decision::Added => {
                slot.reset();
                slot.push(step(Change::Added));
            }
            Decision::Replaced => {
                let overlay = matches!(last, Some(PathSeg::Index(_)));
                slot.reset();
                slot.element = overlay && from_chars;
                slot.push(Step {
                    replaced_part: ev.old.as_ref().and_then(|o| part_of(o.span.source)),
                    ..step(if overlay {
                        Change::Overlaid
                    } else {
                        Change::Replaced
                    })
                });
            }
            Decision::Recursed => slot.push(step(Change::Merged)),
            Decision::Appended => {
                let (old, new) = (ev.old.as_ref(), ev.new.as_ref());
                if old.is_some_and(|o| o.is_str) {
                    if slot.concat.is_empty() {
                        slot.concat.extend(old.map(|o| o.span));
                    }
                    slot.concat.extend(new.map(|n| n.span));
                    slot.push(step(Change::StrAppended));
                } else {
                    slot.runs.push(Run {
                        start: old.map_or(0, |o| o.len),
                        len: new.map_or(0, |n| n.len),
                        part,
                        change: Change::Appended,
                        element: new.is_some_and(ValueInfo::derived_items),
                    });
                    slot.push(step(Change::Appended));
                }
            }
            Decision::Prepended => {
                let new = ev.new.as_ref();
                let n = new.map_or(0, |n| n.len);
                let shifted: BTreeMap<usize, Slot> = std::mem::take(&mut slot.items)
                    .into_iter()
                    .map(|(i, s)| (i.saturating_add(n), s))
                    .collect();
                slot.items = shifted;
                for r in &mut slot.runs {
                    r.start = r.start.saturating_add(n);
                }
                slot.runs.push(Run {
                    start: 0,
                    len: n,
                    part,
                    change: Change::Prepended,
                    element: new.is_some_and(ValueInfo::derived_items),
                });
                slot.push(step(Change::Prepended));
            }
            Decision::OverlaidTruncated { old_len, new_len } => {
                slot.overlay_from_chars = ev.new.as_ref().is_some_and(ValueInfo::derived_items);
                slot.push(step(Change::Truncated { old_len, new_len }));
            }
            Decision::KeptOld(r) => slot.push(step(Change::KeptOld(r))),
            Decision::Deleted | Decision::Conflict => {}
        }
    }

    /// A JSON patch part changed the config at `tokens` (a JSON pointer):
    /// what was recorded there is stale, and so are a list's item records
    /// when an index is inserted or removed. Values the patch brought are
    /// recognised by their span later.
    pub(super) fn patched(&mut self, tokens: &[String]) {
        let Some((last, parents)) = tokens.split_last() else {
            self.reset();
            return;
        };
        let mut slot = self;
        for t in parents {
            let key = Key(Node::synthetic(Value::Str(t.as_str().into())));
            let found = slot.keys.contains_key(&key);
            let index = t
                .parse::<usize>()
                .ok()
                .filter(|i| slot.items.contains_key(i));
            slot = match (found, index) {
                (true, _) => match slot.keys.get_mut(&key) {
                    Some(s) => s,
                    None => return,
                },
                (false, Some(i)) => match slot.items.get_mut(&i) {
                    Some(s) => s,
                    None => return,
                },
                (false, None) => {
                    // Unknown below here: forget it all.
                    slot.keys.clear();
                    slot.items.clear();
                    slot.runs.clear();
                    return;
                }
            };
        }
        let key = Key(Node::synthetic(Value::Str(last.as_str().into())));
        if slot.keys.shift_remove(&key).is_none() {
            slot.items.clear();
            slot.runs.clear();
        }
    }
}

/// The 1-based part number a span's source stands for.
pub(crate) fn part_of(source: SourceId) -> Option<usize> {
    if source == SourceId::UNKNOWN {
        None
    } else {
        usize::try_from(source.0).ok().map(|i| i + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(start: usize, len: usize, part: usize) -> Run {
        Run {
            start,
            len,
            part,
            change: Change::Appended,
            element: false,
        }
    }

    /// Runs as appends, prepends, truncations and patches leave them:
    /// overlapping, out of order, past the list's end, empty.
    #[test]
    fn each_item_gets_the_first_run_that_holds_it() {
        let layouts: [&[(usize, usize)]; 6] = [
            &[],
            &[(0, 3), (3, 2), (5, 4)],
            &[(2, 3), (0, 2)],
            &[(0, 5), (1, 2), (3, 9)],
            &[(4, 0), (10, 3), (usize::MAX - 1, 5)],
            &[(1, 1), (0, 1), (1, 1), (0, 8)],
        ];
        for layout in layouts {
            let slot = Slot {
                runs: layout
                    .iter()
                    .enumerate()
                    .map(|(part, &(start, len))| run(start, len, part + 1))
                    .collect(),
                ..Slot::default()
            };
            for len in [0, 1, 4, 12] {
                let by_item = slot.runs_by_item(len);
                for i in 0..len {
                    // The search each item's run was found by before.
                    let searched = slot
                        .runs
                        .iter()
                        .find(|r| i >= r.start && i - r.start < r.len)
                        .map(|r| r.part);
                    let got = by_item.get(i).copied().flatten().map(|r| r.part);
                    assert_eq!(got, searched, "{layout:?}, item {i} of {len}");
                }
            }
        }
    }
}
