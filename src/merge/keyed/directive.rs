//! `Directive`: what a tag on a fragment's value asks of the keyed cloud-config dialect.

use crate::merge::Priority;

/// A tag's meaning in the keyed cloud-config dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Directive {
    /// `!default`, `!priority:N`, `!force`: Nickel's priorities.
    Priority(Priority),
    /// `!override`: this value replaces what earlier fragments gave here
    /// (later fragments merge on top of it as usual).
    Override,
    /// `!reset`: the key is removed from what earlier fragments gave, and
    /// this fragment gives nothing there (the value written is ignored).
    Reset,
}

impl Directive {
    /// The directive a tag selects (`!` optional); `None` for other tags.
    pub fn from_tag(tag: &str) -> Option<Directive> {
        match tag.strip_prefix('!').unwrap_or(tag) {
            "override" => Some(Directive::Override),
            "reset" => Some(Directive::Reset),
            _ => Priority::from_tag(tag).map(Directive::Priority),
        }
    }
}
