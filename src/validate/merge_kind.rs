//! `MergeKind`: merge-spec problems — parts cloud-init drops for their spec, and lint for specs that do not do what they say.

use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// A merge-spec problem (`merge_how`, `merge_type`, `Merge-Type`, `X-Merge-Type`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeKind {
    /// `merge-spec-syntax` (error): the spec string does not parse; cloud-init drops
    /// the part (`merge_how: dict(replace` — no closing parenthesis; `dict` without `()`).
    SpecSyntax {
        /// Part number.
        part: usize,
        /// cloud-init's message.
        message: String,
    },
    /// `merge-unknown-merger` (error): no such merger; cloud-init drops the part
    /// (`merge_how: lists(append)`). Only `dict`, `list` and `str` exist.
    UnknownMerger {
        /// Part number.
        part: usize,
        /// The name as given.
        name: String,
    },
    /// `merge-spec-invalid` (error): a list-form spec cloud-init cannot use
    /// (`merge_how: [{name: dict}]` — no `settings`); the part is dropped.
    SpecInvalid {
        /// Part number.
        part: usize,
        /// The Python exception.
        message: String,
    },
    /// `merge-failed` (error): the merge itself raises (`str(append)` meeting a mapping,
    /// `list(append)` with a number); cloud-init drops the part.
    Failed {
        /// Part number.
        part: usize,
        /// The Python exception.
        message: String,
    },
    /// `merge-unknown-option` (warning): an option the merger never tests;
    /// cloud-init ignores it silently. One warning per merger, on its first unknown
    /// option, counting the others and naming them in notes
    /// (`merge_how: dict(no_replace,recurse_lists)+list(apend,prepnd)`).
    UnknownOption {
        /// The merger.
        merger: String,
        /// The first unknown option as given.
        option: String,
        /// How many other unknown options the merger is given.
        more: usize,
    },
    /// `merge-option-no-effect` (warning): a real option that changes nothing here
    /// (`dict(replace,recurse_list)`: replace never recurses;
    /// `list(append,recurse_dict)`: append never merges items).
    OptionNoEffect {
        /// The merger.
        merger: String,
        /// The option.
        option: String,
        /// Why.
        reason: &'static str,
    },
    /// `merge-settings-substring` (warning): list-form `settings` given as one string,
    /// so options are tested as substrings (`{name: dict, settings: no_replace}`
    /// contains `replace`: the dict merger replaces).
    SettingsSubstring {
        /// The merger.
        merger: String,
        /// The options the substring tests find.
        found: Vec<&'static str>,
    },
    /// `merge-merger-shadowed` (warning): a second merger for the same type; only the
    /// first is used. One warning per type, on the first ignored merger, counting the
    /// others (`dict(no_replace,recurse_list)+list(append)+dict(replace)+dict()`:
    /// `dict(replace)` and 1 later `dict` merger).
    MergerShadowed {
        /// The first ignored merger.
        merger: String,
        /// Its type (`dict`, `list` or `str`).
        name: &'static str,
        /// How many later mergers of that type are ignored too.
        more: usize,
    },
    /// `merge-merger-unreachable` (warning): `dict(replace)` never recurses, so a
    /// `list` or `str` merger after it is never used (`dict(replace)+list(append)`:
    /// lists are replaced, not appended).
    MergerUnreachable {
        /// The unused merger.
        merger: String,
    },
    /// `merge-no-dict-merger` (warning): the spec has no dict merger, so the part's
    /// mapping changes nothing (`merge_how: list(append)`).
    NoDictMerger {
        /// Part number.
        part: usize,
    },
    /// `merge-list-replaced` (warning): a part without a merge directive replaces a
    /// list an earlier part set — the "my runcmd vanished" trap
    /// (part 1 `merge_how: dict(recurse_list)+list(append)` with `runcmd: [a]`,
    /// part 2 `runcmd: [b]` with no merge directive).
    ListReplaced {
        /// The key's path.
        path: String,
        /// The replacing part.
        part: usize,
        /// The parts whose items are lost.
        earlier: Vec<usize>,
        /// How many items are lost.
        lost: usize,
    },
    /// `merge-list-truncated` (warning): `list()`/`list(replace)` overlays index by
    /// index and drops the new items beyond the old list's length
    /// (`[a]` then `[b, c]` gives `[b]`).
    ListTruncated {
        /// The list's path.
        path: String,
        /// The part.
        part: usize,
        /// Items dropped.
        dropped: usize,
    },
    /// `merge-value-ignored` (warning): `dict(no_replace)` without `recurse_list` keeps
    /// the old list and silently ignores the part's list (`merge_how:
    /// dict(no_replace)+list(append)` with `runcmd:` set before).
    ValueIgnored {
        /// The key's path.
        path: String,
        /// The part.
        part: usize,
        /// The ignored value's type.
        found: &'static str,
    },
}

impl fmt::Display for MergeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeKind::SpecSyntax { part, message } => {
                write!(f, "part {part} has a malformed merge spec: {message}")
            }
            MergeKind::UnknownMerger { part, name } => write!(
                f,
                "part {part} names merger `{name}`, which does not exist: cloud-init drops the part"
            ),
            MergeKind::SpecInvalid { part, message } => write!(
                f,
                "part {part} has a merge spec cloud-init cannot use ({message}): the part is dropped"
            ),
            MergeKind::Failed { part, message } => {
                write!(
                    f,
                    "merging part {part} fails ({message}): the part is dropped"
                )
            }
            MergeKind::UnknownOption {
                merger,
                option,
                more,
            } => match more {
                0 => write!(
                    f,
                    "`{merger}` has no option `{option}`: cloud-init ignores it silently"
                ),
                1 => write!(
                    f,
                    "`{merger}` has no option `{option}`, nor 1 other given: cloud-init ignores them silently"
                ),
                n => write!(
                    f,
                    "`{merger}` has no option `{option}`, nor {n} others given: cloud-init ignores them silently"
                ),
            },
            MergeKind::OptionNoEffect {
                merger,
                option,
                reason,
            } => write!(f, "option `{option}` of `{merger}` has no effect: {reason}"),
            MergeKind::SettingsSubstring { merger, found } => {
                let found = if found.is_empty() {
                    "none".to_owned()
                } else {
                    found.join(", ")
                };
                write!(
                    f,
                    "the settings of `{merger}` are one string, so cloud-init tests options as substrings of it (found: {found})"
                )
            }
            MergeKind::MergerShadowed { merger, name, more } => {
                let (others, verb) = match more {
                    0 => (String::new(), "is"),
                    1 => (format!(" and 1 later `{name}` merger"), "are"),
                    n => (format!(" and {n} later `{name}` mergers"), "are"),
                };
                write!(
                    f,
                    "`{merger}`{others} {verb} never used: an earlier merger handles the same type"
                )
            }
            MergeKind::MergerUnreachable { merger } => write!(
                f,
                "`{merger}` is never used: `dict(replace)` replaces values without recursing into them"
            ),
            MergeKind::NoDictMerger { part } => write!(
                f,
                "the merge spec of part {part} has no dict merger: the part changes nothing"
            ),
            MergeKind::ListReplaced {
                path,
                part,
                earlier,
                lost,
            } => {
                let parts: Vec<String> = earlier.iter().map(|p| format!("part {p}")).collect();
                write!(
                    f,
                    "part {part} replaces the list {path} from {}: {lost} item{} lost",
                    parts.join(", "),
                    if *lost == 1 { " is" } else { "s are" }
                )
            }
            MergeKind::ListTruncated {
                path,
                part,
                dropped,
            } => write!(
                f,
                "part {part} overlays the list {path} index by index: its last {dropped} item{} dropped",
                if *dropped == 1 { " is" } else { "s are" }
            ),
            MergeKind::ValueIgnored { path, part, found } => write!(
                f,
                "the {found} {path} of part {part} is ignored: the earlier value is kept"
            ),
        }
    }
}

impl DiagnosticKind for MergeKind {
    fn code(&self) -> &'static str {
        match self {
            MergeKind::SpecSyntax { .. } => "merge-spec-syntax",
            MergeKind::UnknownMerger { .. } => "merge-unknown-merger",
            MergeKind::SpecInvalid { .. } => "merge-spec-invalid",
            MergeKind::Failed { .. } => "merge-failed",
            MergeKind::UnknownOption { .. } => "merge-unknown-option",
            MergeKind::OptionNoEffect { .. } => "merge-option-no-effect",
            MergeKind::SettingsSubstring { .. } => "merge-settings-substring",
            MergeKind::MergerShadowed { .. } => "merge-merger-shadowed",
            MergeKind::MergerUnreachable { .. } => "merge-merger-unreachable",
            MergeKind::NoDictMerger { .. } => "merge-no-dict-merger",
            MergeKind::ListReplaced { .. } => "merge-list-replaced",
            MergeKind::ListTruncated { .. } => "merge-list-truncated",
            MergeKind::ValueIgnored { .. } => "merge-value-ignored",
        }
    }

    fn severity(&self) -> Severity {
        match self {
            MergeKind::SpecSyntax { .. }
            | MergeKind::UnknownMerger { .. }
            | MergeKind::SpecInvalid { .. }
            | MergeKind::Failed { .. } => Severity::Error,
            _ => Severity::Warning,
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            MergeKind::SpecSyntax { .. } => Some(
                "write mergers as `name(option,...)` joined by `+`, e.g. `dict(no_replace,recurse_list)+list(append)`".into(),
            ),
            MergeKind::ListReplaced { .. } => Some(
                "to keep the earlier items, give this part `merge_how: dict(no_replace,recurse_list)+list(append)` (or a Merge-Type header)".into(),
            ),
            MergeKind::ListTruncated { .. } => {
                Some("use `list(append)` to add items, or `dict(replace)` to replace the list".into())
            }
            MergeKind::ValueIgnored { .. } => {
                Some("add `recurse_list` to the dict merger: `dict(no_replace,recurse_list)`".into())
            }
            MergeKind::MergerUnreachable { .. } => Some(
                "use `dict(no_replace,recurse_list)+list(append)` to append lists".into(),
            ),
            MergeKind::NoDictMerger { .. } => Some(
                "add a dict merger, e.g. `dict(no_replace,recurse_list)+list(append)`".into(),
            ),
            _ => None,
        }
    }
}
