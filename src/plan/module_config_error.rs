//! `ModuleConfigError`: the exception cloud-init raises reading a module list or the users config.

/// The Python exception cloud-init raises while it reads a module section
/// ([`super::read_section`]) or the users and groups ([`super::normalize_users_groups`]),
/// as it prints it (`TypeError: unhashable type: 'dict'`): compared byte for byte with
/// cloud-init's own.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text}")]
pub struct ModuleConfigError {
    text: String,
}

impl ModuleConfigError {
    /// The exception as Python prints it (`Class: message`).
    pub(crate) fn new(text: String) -> Self {
        ModuleConfigError { text }
    }

    /// The exception's class (`TypeError`): the text before the first `:`.
    pub fn class(&self) -> &str {
        self.text.split(':').next().unwrap_or_default()
    }
}
