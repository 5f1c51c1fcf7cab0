//! `make_seed`: a seed's files in the chosen form — image bytes, or the files for a directory.

use super::fat_writer::write_fat;
use super::iso_writer::write_iso;
use super::{SeedError, SeedFiles, SeedFormat, SeedOptions};

/// A made seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seed {
    /// An image file's bytes (`iso`, `vfat`).
    Image(Vec<u8>),
    /// The files of a seed directory (`dir`), name and content.
    Dir(Vec<(&'static str, Vec<u8>)>),
}

/// Make the seed of `files` in the form `opts` asks for. Pure: the same files and options give
/// the same bytes.
pub fn make_seed(files: &SeedFiles, opts: &SeedOptions) -> Result<Seed, SeedError> {
    let entries = files.entries();
    match opts.format {
        SeedFormat::Iso => write_iso(&entries, opts.epoch).map(Seed::Image),
        SeedFormat::Vfat => write_fat(&entries, opts.epoch).map(Seed::Image),
        SeedFormat::Dir => Ok(Seed::Dir(
            entries.into_iter().map(|(n, b)| (n, b.to_vec())).collect(),
        )),
    }
}
