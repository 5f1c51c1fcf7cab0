//! `Frequency`: cloud-init's `PER_ALWAYS` / `PER_INSTANCE` / `PER_ONCE` (`settings.FREQUENCIES`).

/// How often a module (or handler) runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Frequency {
    /// `always`: every boot, no semaphore.
    Always,
    /// `once-per-instance`: a semaphore in the instance's `sem/` directory.
    PerInstance,
    /// `once`: a semaphore in `/var/lib/cloud/sem/`, whatever the instance.
    Once,
    /// `""`: an empty frequency in a module list item. `_fixup_modules` keeps
    /// it (only `None` takes the module's own), and the runner treats a false
    /// frequency as no semaphore: the module runs every boot.
    Empty,
}

impl Frequency {
    /// The setting's text.
    pub fn as_str(self) -> &'static str {
        match self {
            Frequency::Always => "always",
            Frequency::PerInstance => "once-per-instance",
            Frequency::Once => "once",
            Frequency::Empty => "",
        }
    }

    /// `freq in FREQUENCIES`.
    pub fn parse(s: &str) -> Option<Frequency> {
        match s {
            "always" => Some(Frequency::Always),
            "once-per-instance" => Some(Frequency::PerInstance),
            "once" => Some(Frequency::Once),
            _ => None,
        }
    }
}

impl std::fmt::Display for Frequency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
