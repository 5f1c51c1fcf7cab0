//! `Change` and `Step`: one merger decision as `explain` reports it, and who took it.

use crate::merge::KeepReason;

/// What a part's merge did at one place of the config.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    /// A key the config did not have yet.
    Added,
    /// The old value was replaced (dict replace mode, `str()` replace, a
    /// non-list given to `list()`).
    Replaced,
    /// List index overlay (`list()` / `list(replace)`): this item was laid
    /// over the old item at its index.
    Overlaid,
    /// The list's items were overlaid index by index: new's first
    /// `min(old_len, new_len)` items replaced old's; new's items beyond
    /// `old_len` were dropped (truncated), old's beyond `new_len` kept.
    Truncated {
        /// Items the list had.
        old_len: usize,
        /// Items the part gave.
        new_len: usize,
    },
    /// Items appended to a list (`list(append)`).
    Appended,
    /// Items put before a list's items (`list(prepend)`).
    Prepended,
    /// A string appended to the old string (`str(append)`).
    StrAppended,
    /// Two mappings merged key by key (the keys below say how).
    Merged,
    /// The old value won; the part's value was dropped.
    KeptOld(KeepReason),
    /// The key was deleted (`allow_delete` and a null value).
    Deleted,
    /// Changed by a JSON patch part (`text/cloud-config-jsonp`).
    Patched,
}

impl Change {
    /// A stable machine name (the JSON format's `change`).
    pub fn code(&self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Replaced => "replaced",
            Change::Overlaid => "overlaid",
            Change::Truncated { .. } => "truncated",
            Change::Appended => "appended",
            Change::Prepended => "prepended",
            Change::StrAppended => "str_appended",
            Change::Merged => "merged",
            Change::KeptOld(_) => "kept_old",
            Change::Deleted => "deleted",
            Change::Patched => "patched",
        }
    }

    /// Why old was kept, as a short machine name (`kept_old` only).
    pub fn reason_code(&self) -> Option<&'static str> {
        match self {
            Change::KeptOld(r) => Some(match r {
                KeepReason::NoStrategy => "no_merger",
                KeepReason::NewIgnored => "not_a_mapping",
                KeepReason::NotRecursed => "no_replace",
                KeepReason::NoReplace => "list_no_replace",
                KeepReason::Outranked => "outranked",
                KeepReason::Equal => "equal",
            }),
            _ => None,
        }
    }

    /// Words for people.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        // Writing into a `String` cannot fail.
        let _ = self.write_describe(&mut s);
        s
    }

    /// [`Change::describe`] written to `w` (the text view writes one per
    /// entry: a huge list's million, without a `String` each).
    pub(crate) fn write_describe(&self, w: &mut impl std::fmt::Write) -> std::fmt::Result {
        match self {
            Change::Truncated { old_len, new_len } if new_len > old_len => write!(
                w,
                "overlaid by index ({} of {new_len} items dropped)",
                new_len - old_len
            ),
            Change::Truncated { .. } => w.write_str("overlaid by index"),
            Change::KeptOld(r) => write!(w, "kept old ({})", keep_words(*r)),
            Change::StrAppended => w.write_str("str append"),
            other => w.write_str(other.code()),
        }
    }

    /// Whether this decision put a value where it is (rather than changing
    /// what is there or leaving it).
    pub fn places(&self) -> bool {
        matches!(self, Change::Added | Change::Replaced | Change::Overlaid)
    }
}

/// Why the old value won, in words.
pub fn keep_words(r: KeepReason) -> &'static str {
    match r {
        KeepReason::NoStrategy => "no merger for its type",
        KeepReason::NewIgnored => "the new value is not a mapping",
        KeepReason::NotRecursed => "dict(no_replace)",
        KeepReason::NoReplace => "list(no_replace)",
        // Symmetric dialects only; cloud-init's mergers never decide these.
        KeepReason::Outranked => "the old value has a higher priority",
        KeepReason::Equal => "equal values",
    }
}

/// One decision at one place, by one part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The part (1-based number in handler order).
    pub part: usize,
    /// What it did.
    pub change: Change,
    /// For a replacement: the part the replaced value came from.
    pub replaced_part: Option<usize>,
    /// The value came in as part of an enclosing value (a key of an added
    /// mapping, an item of an added list): the step is the enclosing one's.
    pub inherited: bool,
}
