//! `Priority`: Nickel's merge priorities (`default` < any number < `force`), as the symmetric dialects read them from YAML tags.

use super::Decimal;
use std::cmp::Ordering;
use std::fmt;

/// A value's merge priority. The higher erases the lower; equal ones merge.
/// A value without one has `Number(0)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Priority {
    /// `!default` (Nickel `| default`): below every number.
    Default,
    /// `!priority:N` (Nickel `| priority N`), any number, exactly.
    Number(Decimal),
    /// `!force` (Nickel `| force`): above every number.
    Force,
}

impl Priority {
    /// A value with no priority tag.
    pub fn neutral() -> Priority {
        Priority::Number(Decimal::zero())
    }

    /// The priority a tag selects (`!default`, `!force`, `!priority:N`; the
    /// leading `!` is optional); `None` for any other tag.
    pub fn from_tag(tag: &str) -> Option<Priority> {
        let t = tag.strip_prefix('!').unwrap_or(tag);
        match t {
            "default" => Some(Priority::Default),
            "force" => Some(Priority::Force),
            _ => t
                .strip_prefix("priority:")
                .and_then(Decimal::parse)
                .map(Priority::Number),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Priority::Default => 0,
            Priority::Number(_) => 1,
            Priority::Force => 2,
        }
    }
}

impl Ord for Priority {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Priority::Number(a), Priority::Number(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for Priority {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Priority {
    /// Nickel's spelling: `default`, `priority 10`, `force`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Priority::Default => f.write_str("default"),
            Priority::Number(n) => write!(f, "priority {n}"),
            Priority::Force => f.write_str("force"),
        }
    }
}
