//! `Rule`: what one diagnostic code means, for tools that list a linter's rules (SARIF's `tool.driver.rules`).

use super::Severity;

/// One diagnostic code documented for tools: its usual severity, what it
/// means, and how to fix it (the kind enum's docs, as data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The stable kebab-case code (`part-yaml-invalid`).
    pub code: &'static str,
    /// The severity the kind reports (some configurations promote it).
    pub severity: Severity,
    /// One sentence: what it means.
    pub summary: &'static str,
    /// How to fix it, and an input that triggers it.
    pub help: &'static str,
}

impl Rule {
    /// The rule for `code` in `rules`, with its index.
    pub fn find<'r>(rules: &'r [Rule], code: &str) -> Option<(usize, &'r Rule)> {
        rules.iter().enumerate().find(|(_, r)| r.code == code)
    }
}
