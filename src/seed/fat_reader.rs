//! `FatImage`: reads the root directory of a FAT image (ours, or `mkfs.fat` + `mcopy`'s) and the
//! files in it, with the `fatfs` crate; names match without regard to case, as Linux's vfat does.

use super::SeedError;
use super::iso_reader::ImageFile;
use std::io::{Read, Seek, SeekFrom, Write};

/// Directory entries looked at, at most (a FAT32 root directory is a cluster chain, which a
/// damaged image can make circular).
const MAX_ENTRIES: usize = 4096;

/// A reader as fatfs's storage: fatfs wants `Write` too, and never writes while only reading
/// (it marks the volume dirty on the first write); a write would be refused here. Reads are
/// budgeted: fatfs follows cluster chains without cycle checks (a damaged image's circular
/// directory chain of deleted entries would never end), and every step of such a walk reads.
#[derive(Debug)]
pub(super) struct ReadOnly<R> {
    inner: R,
    budget: u64,
}

impl<R: Read> Read for ReadOnly<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.budget == 0 {
            return Err(std::io::Error::other(
                "read more than twice the image's size: a circular cluster chain?",
            ));
        }
        let n = self.inner.read(buf)?;
        // Each read counts as at least a sector, so a walk of small reads ends soon too.
        self.budget = self.budget.saturating_sub(n.max(512) as u64);
        Ok(n)
    }
}
impl<R: Seek> Seek for ReadOnly<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}
impl<R> Write for ReadOnly<R> {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("the image is read only"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// An opened FAT image.
pub struct FatImage<R: Read + Seek> {
    fs: fatfs::FileSystem<ReadOnly<R>>,
    /// The image's length in bytes.
    len: u64,
    /// The volume label (the root directory's label entry, else the boot sector's), trimmed.
    pub label: String,
    /// The files in the root directory (`offset` unused: 0).
    pub files: Vec<ImageFile>,
}

impl<R: Read + Seek> std::fmt::Debug for FatImage<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FatImage")
            .field("label", &self.label)
            .field("files", &self.files)
            .finish()
    }
}

fn damaged(e: std::io::Error) -> SeedError {
    SeedError::Image(format!("FAT: {e}"))
}

/// True when `head` starts with a FAT boot sector (jump, a sane BPB, the 55 AA signature).
pub(super) fn looks_like_fat(head: &[u8]) -> bool {
    let byte = |i: usize| head.get(i).copied().unwrap_or(0);
    let bps = u16::from_le_bytes([byte(11), byte(12)]);
    let spc = byte(13);
    matches!(byte(0), 0xEB | 0xE9)
        && byte(510) == 0x55
        && byte(511) == 0xAA
        && matches!(bps, 512 | 1024 | 2048 | 4096)
        && spc.is_power_of_two()
        && u16::from_le_bytes([byte(14), byte(15)]) >= 1
        && byte(16) >= 1
}

impl<R: Read + Seek> FatImage<R> {
    /// Mount the image (read only) and list its root directory.
    pub fn open(mut reader: R) -> Result<FatImage<R>, SeedError> {
        let size = reader.seek(SeekFrom::End(0)).map_err(damaged)?;
        // fatfs reads the boot sector from the current position (and asserts it is 0).
        reader.seek(SeekFrom::Start(0)).map_err(damaged)?;
        // Reading every file once reads the image once, plus FAT lookups and directory entries
        // (each counted as a sector: a few MiB for the largest root directory or file).
        let budget = size.saturating_mul(2).saturating_add(8 << 20);
        let storage = ReadOnly {
            inner: reader,
            budget,
        };
        let fs = fatfs::FileSystem::new(storage, fatfs::FsOptions::new()).map_err(damaged)?;
        let label = match fs.read_volume_label_from_root_dir() {
            Ok(Some(l)) => l,
            _ => fs.volume_label(),
        }
        .trim_end()
        .to_owned();
        let mut files = Vec::new();
        for entry in fs.root_dir().iter().take(MAX_ENTRIES) {
            let entry = entry.map_err(damaged)?;
            if entry.is_file() {
                files.push(ImageFile {
                    name: entry.file_name(),
                    size: entry.len(),
                    offset: 0,
                });
            }
        }
        Ok(FatImage {
            fs,
            len: size,
            label,
            files,
        })
    }

    /// The content of the file called `name` (any case), refusing one over `limit` bytes.
    pub fn read(&mut self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, SeedError> {
        let root = self.fs.root_dir();
        for entry in root.iter().take(MAX_ENTRIES) {
            let entry = entry.map_err(damaged)?;
            if !entry.is_file() || !entry.file_name().eq_ignore_ascii_case(name) {
                continue;
            }
            let size = entry.len();
            if size > self.len {
                return Err(SeedError::Image(format!(
                    "FAT: {name}: {size} bytes, more than the image holds"
                )));
            }
            if size > limit {
                return Err(SeedError::Limit {
                    name: entry.file_name(),
                    size,
                    limit,
                });
            }
            let mut buf = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            entry
                .to_file()
                .take(size)
                .read_to_end(&mut buf)
                .map_err(damaged)?;
            if buf.len() as u64 != size {
                return Err(SeedError::Image(format!(
                    "FAT: {name}: {} of {size} bytes readable",
                    buf.len()
                )));
            }
            return Ok(Some(buf));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use std::io::Cursor;

    fn le(b: &[u8], at: usize, n: usize) -> usize {
        b[at..at + n]
            .iter()
            .rev()
            .fold(0, |a, &x| (a << 8) | usize::from(x))
    }

    /// A FAT32 root directory whose cluster chain points to itself, full of deleted entries:
    /// fatfs would walk it forever; the read budget ends it with an error.
    #[test]
    fn circular_root_directory_ends() {
        let mut disk = Cursor::new(vec![0u8; 34 << 20]);
        let opts = fatfs::FormatVolumeOptions::new()
            .fat_type(fatfs::FatType::Fat32)
            .bytes_per_cluster(512);
        fatfs::format_volume(&mut disk, opts).unwrap();
        let mut img = disk.into_inner();
        let reserved = le(&img, 14, 2);
        let fats = le(&img, 16, 1);
        let fat_sectors = le(&img, 36, 4);
        let root = le(&img, 44, 4);
        let fat = reserved * 512;
        img[fat + 4 * root..fat + 4 * root + 4].copy_from_slice(&(root as u32).to_le_bytes());
        let data = (reserved + fats * fat_sectors + (root - 2)) * 512;
        for e in 0..16 {
            img[data + 32 * e] = 0xE5;
            img[data + 32 * e + 11] = 0x20;
        }
        let err = FatImage::open(Cursor::new(img)).unwrap_err().to_string();
        assert!(err.contains("circular"), "{err}");
    }

    #[test]
    fn reads_our_image_any_case() {
        let img =
            super::super::fat_writer::write_fat(&[("user-data", b"ud"), ("meta-data", b"md")], 0)
                .unwrap();
        assert!(looks_like_fat(&img));
        let mut fat = FatImage::open(Cursor::new(img)).unwrap();
        assert_eq!(fat.label, "CIDATA");
        assert_eq!(fat.read("USER-DATA", 10).unwrap().unwrap(), b"ud");
        assert!(fat.read("user-data", 1).is_err());
        assert!(fat.read("vendor-data", 10).unwrap().is_none());
    }
}
