//! `SeedOptions`: the form a seed takes (`iso`, `vfat`, `dir`) and the time stamped into it.

use super::civil_time::DEFAULT_EPOCH;

/// The form of a seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeedFormat {
    /// ISO 9660 with Joliet and Rock Ridge, volume id `cidata`.
    #[default]
    Iso,
    /// FAT labelled `CIDATA`.
    Vfat,
    /// The files themselves, for a directory (`ds=nocloud;s=file:///path/`).
    Dir,
}

/// How to make a seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedOptions {
    /// The form.
    pub format: SeedFormat,
    /// Every timestamp in an image (Unix seconds; the CLI passes `SOURCE_DATE_EPOCH`).
    pub epoch: i64,
}

impl Default for SeedOptions {
    fn default() -> Self {
        SeedOptions {
            format: SeedFormat::Iso,
            epoch: DEFAULT_EPOCH,
        }
    }
}
