//! `SeedImage`: a seed image of either kind (ISO 9660 or FAT) opened for reading, found by its
//! signature; what `parts`, `render` and `validate` read a seed's `user-data` through.

use super::SeedError;
use super::fat_reader::{FatImage, looks_like_fat};
use super::iso_reader::{ImageFile, IsoImage, looks_like_iso};
use std::io::{Read, Seek};

/// Bytes of an input's start that [`ImageKind::sniff`] needs to tell an ISO (its first volume
/// descriptor is at 32 KiB).
pub const SNIFF_LEN: usize = 32774;

/// The kinds of seed image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// ISO 9660 (with or without Joliet and Rock Ridge).
    Iso,
    /// FAT12/16/32.
    Fat,
}

impl ImageKind {
    /// The kind of image `head` (an input's first [`SNIFF_LEN`] bytes, or all of a shorter one)
    /// starts, if any: user-data is text, gzip or MIME, none of which has these signatures.
    pub fn sniff(head: &[u8]) -> Option<ImageKind> {
        if looks_like_iso(head) {
            Some(ImageKind::Iso)
        } else if looks_like_fat(head) {
            Some(ImageKind::Fat)
        } else {
            None
        }
    }

    /// `iso9660` or `vfat`, as blkid names the type.
    pub fn name(self) -> &'static str {
        match self {
            ImageKind::Iso => "iso9660",
            ImageKind::Fat => "vfat",
        }
    }
}

#[derive(Debug)]
enum Opened<R: Read + Seek> {
    Iso(IsoImage<R>),
    Fat(FatImage<R>),
}

/// An opened seed image.
#[derive(Debug)]
pub struct SeedImage<R: Read + Seek> {
    image: Opened<R>,
}

impl<R: Read + Seek> SeedImage<R> {
    /// Open `reader` as an image of `kind`.
    pub fn open(reader: R, kind: ImageKind) -> Result<SeedImage<R>, SeedError> {
        let image = match kind {
            ImageKind::Iso => Opened::Iso(IsoImage::open(reader)?),
            ImageKind::Fat => Opened::Fat(FatImage::open(reader)?),
        };
        Ok(SeedImage { image })
    }

    /// The image's kind.
    pub fn kind(&self) -> ImageKind {
        match self.image {
            Opened::Iso(_) => ImageKind::Iso,
            Opened::Fat(_) => ImageKind::Fat,
        }
    }

    /// The volume label (ISO volume identifier, FAT label).
    pub fn label(&self) -> &str {
        match &self.image {
            Opened::Iso(i) => &i.volume_id,
            Opened::Fat(f) => &f.label,
        }
    }

    /// The files in the root directory.
    pub fn files(&self) -> &[ImageFile] {
        match &self.image {
            Opened::Iso(i) => &i.files,
            Opened::Fat(f) => &f.files,
        }
    }

    /// The content of the file `name` (as Linux would match it: exactly on ISO, any case on FAT),
    /// or `None`; a file over `limit` bytes is refused.
    pub fn read(&mut self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, SeedError> {
        match &mut self.image {
            Opened::Iso(i) => i.read(name, limit),
            Opened::Fat(f) => f.read(name, limit),
        }
    }
}
