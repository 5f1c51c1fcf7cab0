//! `ListRule`: how the keyed cloud-config dialect combines one list across fragments.

/// How two fragments' lists at the same place combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListRule {
    /// Commands: every item appended in fragment order, repeats kept.
    Append,
    /// A set of values (packages, keys, servers): appended, items equal to
    /// one already there dropped.
    Union,
    /// Objects identified by these fields (a tuple of their values when
    /// several; a missing field counts as null): items with the same
    /// identity merge, the others are appended.
    ByKey(&'static [&'static str]),
    /// Positional entries identified by the item at this index
    /// (`mounts` by mount point).
    ByIndex(usize),
    /// `users`: a string item is a user name, a mapping item is identified
    /// by its `name`.
    ByUserName,
    /// `packages`: a string item is a package name, a `[name, version]`
    /// item is identified by its name (one package, one version).
    ByPackageName,
    /// `groups`: a string item is a group name, a one-key mapping item
    /// (`{admins: [alice]}`) by its key.
    ByGroupName,
    /// Positional (an argv, a `[name, version]` pair): the whole list must
    /// be equal in every fragment, else it is a conflict.
    Atomic,
}

impl ListRule {
    /// The README's wording.
    pub fn describe(&self) -> String {
        match self {
            ListRule::Append => "append (repeats kept)".into(),
            ListRule::Union => "append, de-duplicated".into(),
            ListRule::ByKey(keys) => format!(
                "merge items by {}",
                keys.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            ListRule::ByIndex(i) => format!("merge items by item [{i}]"),
            ListRule::ByUserName => "merge by user name (`name`, or the string)".into(),
            ListRule::ByPackageName => {
                "merge by package name (the string, or `[name, version]`'s first item)".into()
            }
            ListRule::ByGroupName => {
                "merge by group name (the string, or the mapping's key)".into()
            }
            ListRule::Atomic => "must be equal (positional)".into(),
        }
    }
}
