//! `ValueChange`: one difference between two merged configs, at a logical path, with each side's value.

use crate::explain::Origin;
use crate::layers::LayerOrigin;
use crate::merge::{Path, PathSeg};
use crate::yaml::Node;

/// What changed at a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    /// Only the new config has it.
    Added,
    /// Only the old config has it.
    Removed,
    /// Both have it, with different values.
    Changed,
    /// A list on one side is a tuple on the other (`!!omap`/`!!pairs`
    /// items): `cloud-config.txt` writes both as a YAML list, so modules see
    /// no difference.
    Retyped,
    /// A mapping (or set) holds the same keys in another order: Python
    /// compares dicts without order and `cloud-config.txt` merely lists them
    /// in the new order.
    Reordered,
}

impl ChangeKind {
    /// A stable machine name (`add`, `remove`, `change`, `retype`, `reorder`).
    pub fn code(self) -> &'static str {
        match self {
            ChangeKind::Added => "add",
            ChangeKind::Removed => "remove",
            ChangeKind::Changed => "change",
            ChangeKind::Retyped => "retype",
            ChangeKind::Reordered => "reorder",
        }
    }

    /// The kind seen from the other side (`diff NEW OLD`).
    pub fn mirror(self) -> ChangeKind {
        match self {
            ChangeKind::Added => ChangeKind::Removed,
            ChangeKind::Removed => ChangeKind::Added,
            other => other,
        }
    }
}

/// Where a change is, relative to the container it edits.
#[derive(Clone, Debug)]
pub enum Place {
    /// The config as a whole (one side has none, or its type changed).
    Root,
    /// A mapping entry or a set element, by its key.
    Key(Node),
    /// A list item: its index in the old list, in the new list (`None` on
    /// the side that does not have it).
    Index {
        /// Index in the old list.
        old: Option<usize>,
        /// Index in the new list.
        new: Option<usize>,
    },
    /// The container itself (its type, its key order).
    Container,
}

/// Why a change makes no difference at boot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotAtBoot {
    /// Only the order of a mapping's keys changed.
    KeyOrder,
    /// A tuple became a list or back (written alike in `cloud-config.txt`).
    TupleAsList,
    /// A top-level `merge_how`/`merge_type`: cloud-init pops it when it reads
    /// `cloud-config.txt` back (`util.mergemanydict` →
    /// `mergers.dict_extract_mergers`), so no module sees it.
    MergeKey,
}

impl NotAtBoot {
    /// A stable machine name.
    pub fn code(self) -> &'static str {
        match self {
            NotAtBoot::KeyOrder => "key_order",
            NotAtBoot::TupleAsList => "tuple_as_list",
            NotAtBoot::MergeKey => "merge_key",
        }
    }

    /// Why, in words.
    pub fn words(self) -> &'static str {
        match self {
            NotAtBoot::KeyOrder => {
                "only the key order differs: Python compares dicts without order"
            }
            NotAtBoot::TupleAsList => {
                "a tuple and a list: cloud-config.txt writes both as a YAML list"
            }
            NotAtBoot::MergeKey => {
                "a top-level merge_how/merge_type: cloud-init pops it when it reads cloud-config.txt back, so no module sees it"
            }
        }
    }
}

/// One difference between the old and the new merged config.
#[derive(Clone, Debug)]
pub struct ValueChange {
    /// What changed.
    pub kind: ChangeKind,
    /// Where, in the container edited.
    pub place: Place,
    /// The container edited, on the old side (for `Place::Container`,
    /// the container itself; for `Place::Root`, empty).
    pub old_parent: Vec<PathSeg>,
    /// The container edited, on the new side.
    pub new_parent: Vec<PathSeg>,
    /// The old value (the container, for a retype or a reorder; `None` for
    /// an addition and for set elements).
    pub old: Option<Node>,
    /// The new value.
    pub new: Option<Node>,
    /// The place is a set element (its key is the element; no value).
    pub in_set: bool,
    /// `None`: the modules see this change at boot; otherwise why not.
    pub not_at_boot: Option<NotAtBoot>,
    /// For a reorder: every key of the old mapping, in order.
    pub old_keys: Vec<Node>,
    /// For a reorder: every key of the new mapping, in order.
    pub new_keys: Vec<Node>,
    /// The old container holding the place (`None` at the root).
    pub old_container: Option<Node>,
    /// The new container holding the place.
    pub new_container: Option<Node>,
    /// Where the old value was read.
    pub old_origin: Option<Origin>,
    /// Where the new value was read.
    pub new_origin: Option<Origin>,
    /// With layers ([`super::diff_layered`]): the layer, file and
    /// line:column the old value was read from (`None`: built in code or by
    /// the merges, or no layers).
    pub old_layer: Option<LayerOrigin>,
    /// With layers: where the new value was read.
    pub new_layer: Option<LayerOrigin>,
}

impl ValueChange {
    /// Whether the modules see this change at boot.
    pub fn at_boot(&self) -> bool {
        self.not_at_boot.is_none()
    }

    /// The path on one side as its parent's segments and its last one
    /// (`None`: that side does not have it).
    fn path_parts(&self, old_side: bool) -> Option<(&[PathSeg], Option<PathSeg>)> {
        let parent = if old_side {
            &self.old_parent
        } else {
            &self.new_parent
        };
        let seg = match &self.place {
            Place::Root => {
                let present = if old_side {
                    self.old.is_some()
                } else {
                    self.new.is_some()
                };
                return present.then_some((&[][..], None));
            }
            Place::Container => None,
            Place::Key(k) => {
                let absent = if old_side {
                    self.kind == ChangeKind::Added
                } else {
                    self.kind == ChangeKind::Removed
                };
                if absent {
                    return None;
                }
                Some(PathSeg::Key(k.clone()))
            }
            Place::Index { old, new } => Some(PathSeg::Index(if old_side { *old } else { *new }?)),
        };
        Some((parent, seg))
    }

    fn path_on(&self, old_side: bool) -> Option<Path> {
        let (parent, seg) = self.path_parts(old_side)?;
        let mut segs = parent.to_vec();
        segs.extend(seg);
        Some(Path::from_segments(segs))
    }

    /// Whether the old (or new) side has this place (its path is `Some`).
    pub(crate) fn on_side(&self, old_side: bool) -> bool {
        self.path_parts(old_side).is_some()
    }

    /// Append [`ValueChange::path`] as it displays, without building it.
    pub(crate) fn write_path(&self, out: &mut String) {
        out.push('$');
        if let Some((parent, seg)) = self.path_parts(false).or_else(|| self.path_parts(true)) {
            for s in parent.iter().chain(seg.as_ref()) {
                s.write_to(out);
            }
        }
    }

    /// The path on the old side (`None`: the old config does not have it).
    pub fn old_path(&self) -> Option<Path> {
        self.path_on(true)
    }

    /// The path on the new side (`None`: the new config does not have it).
    pub fn new_path(&self) -> Option<Path> {
        self.path_on(false)
    }

    /// The path to show: the new side's, or the old side's for a removal.
    pub fn path(&self) -> Path {
        self.new_path()
            .or_else(|| self.old_path())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::value::Value;

    fn change(kind: ChangeKind, place: Place, parent: Vec<PathSeg>) -> ValueChange {
        ValueChange {
            kind,
            place,
            old_parent: parent.clone(),
            new_parent: parent,
            old: Some(Node::str("a")),
            new: Some(Node::str("b")),
            in_set: false,
            not_at_boot: None,
            old_keys: Vec::new(),
            new_keys: Vec::new(),
            old_container: None,
            new_container: None,
            old_origin: None,
            new_origin: None,
            old_layer: None,
            new_layer: None,
        }
    }

    #[test]
    fn write_path_writes_what_path_displays() {
        let keys = [
            Node::str("runcmd"),
            Node::str("odd key"),
            Node::str("_x-1"),
            Node::str("1a"),
            Node::str(""),
            Node::synthetic(Value::Int(7.into())),
            Node::synthetic(Value::Bool(true)),
        ];
        let parent: Vec<PathSeg> = keys
            .iter()
            .cloned()
            .map(PathSeg::Key)
            .chain([PathSeg::Index(0), PathSeg::Index(12_345)])
            .collect();
        let places = || {
            keys.iter().cloned().map(Place::Key).chain([
                Place::Root,
                Place::Container,
                Place::Index {
                    old: Some(3),
                    new: None,
                },
                Place::Index {
                    old: None,
                    new: Some(40),
                },
                Place::Index {
                    old: Some(1),
                    new: Some(2),
                },
            ])
        };
        let kinds = [
            ChangeKind::Added,
            ChangeKind::Removed,
            ChangeKind::Changed,
            ChangeKind::Reordered,
        ];
        for kind in kinds {
            for place in places() {
                for p in [Vec::new(), parent.clone()] {
                    let c = change(kind, place.clone(), p);
                    let mut out = String::new();
                    c.write_path(&mut out);
                    assert_eq!(out, c.path().to_string());
                    assert_eq!(c.on_side(true), c.old_path().is_some());
                    assert_eq!(c.on_side(false), c.new_path().is_some());
                }
            }
        }
    }
}
