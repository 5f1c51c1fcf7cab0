//! `Version`: the cloud-init release whose wording the merge errors use.

/// cloud-init releases with observable differences in the merge stage.
///
/// Merge *behaviour* is identical since 2013; only messages differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Version {
    /// 22.4.2 (Debian bookworm): "Matcher identifer …".
    V22_4,
    /// 25.1 and later (HEAD): "Matcher identifier …".
    #[default]
    V25_1,
}

impl Version {
    /// The `ValueError` message for a malformed merge-spec token.
    pub fn bad_token_message(self, token: &str) -> String {
        let word = match self {
            Version::V22_4 => "identifer",
            Version::V25_1 => "identifier",
        };
        format!("Matcher {word} '{token}' is not in the right format")
    }
}
