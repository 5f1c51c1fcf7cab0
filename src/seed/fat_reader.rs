//! `FatImage`: reads the root directory of a FAT image (ours, or `mkfs.fat` + `mcopy`'s) and the
//! files in it, with the `fatfs` crate; names match without regard to case, as Linux's vfat does.

use super::SeedError;
use super::iso_reader::ImageFile;
use std::io::{Read, Seek, SeekFrom, Write};

/// Directory entries looked at, at most (a FAT32 root directory is a cluster chain, which a
/// damaged image can make circular).
const MAX_ENTRIES: usize = 4096;

/// A reader as fatfs's storage: fatfs wants `Write` too, and never writes while only reading
/// (it marks the volume dirty on the first write); a write would be refused here.
#[derive(Debug)]
pub struct ReadOnly<R>(pub R);

impl<R: Read> Read for ReadOnly<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}
impl<R: Seek> Seek for ReadOnly<R> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.0.seek(pos)
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
pub fn looks_like_fat(head: &[u8]) -> bool {
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
        // fatfs reads the boot sector from the current position (and asserts it is 0).
        reader.seek(SeekFrom::Start(0)).map_err(damaged)?;
        let fs =
            fatfs::FileSystem::new(ReadOnly(reader), fatfs::FsOptions::new()).map_err(damaged)?;
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
        Ok(FatImage { fs, label, files })
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
