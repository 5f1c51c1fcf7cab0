//! `IsoImage`: reads the root directory of an ISO 9660 image — Rock Ridge names first, then
//! Joliet, then plain ISO names (the order Linux's isofs prefers) — and the files in it. Written
//! for seeds (ours, genisoimage's, xorriso's); reads any image's root directory, with bounds on
//! everything it follows (descriptors, directory size, `CE` continuation hops).

use super::SeedError;
use std::io::{Read, Seek, SeekFrom};

const SECTOR: u64 = 2048;
/// Volume descriptors read at most (a real image has 2-4).
const MAX_DESCRIPTORS: u64 = 64;
/// Largest root directory read (a seed's fits in one sector).
const MAX_DIR_BYTES: u32 = 1 << 20;
/// `CE` continuation areas followed per directory record.
const MAX_CONTINUATIONS: usize = 16;

/// A file in an image's root directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageFile {
    /// Its name as Linux would show it (Rock Ridge, else Joliet, else the ISO name).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Where its data starts (bytes from the image's start).
    pub offset: u64,
}

/// Which names an ISO image's root directory was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsoNames {
    /// Rock Ridge `NM` entries in the primary tree.
    RockRidge,
    /// The Joliet supplementary tree.
    Joliet,
    /// Plain ISO 9660 identifiers (lower-cased, version and trailing dot dropped).
    Iso9660,
}

/// An opened ISO 9660 image.
#[derive(Debug)]
pub struct IsoImage<R> {
    reader: R,
    /// The image's length in bytes (no file may reach past it).
    len: u64,
    /// The primary volume identifier (trailing spaces dropped).
    pub volume_id: String,
    /// The Joliet volume identifier, if there is a Joliet tree.
    pub joliet_volume_id: Option<String>,
    /// Whether the primary tree has Rock Ridge (`SP` in the root's `.` record).
    pub rock_ridge: bool,
    /// Which names [`IsoImage::files`] carry.
    pub names: IsoNames,
    /// The files in the root directory.
    pub files: Vec<ImageFile>,
}

fn damaged(what: impl Into<String>) -> SeedError {
    SeedError::Image(what.into())
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn read_at<R: Read + Seek>(r: &mut R, offset: u64, len: usize) -> Result<Vec<u8>, SeedError> {
    let mut buf = vec![0; len];
    r.seek(SeekFrom::Start(offset))
        .and_then(|_| r.read_exact(&mut buf))
        .map_err(|e| damaged(format!("cannot read {len} bytes at offset {offset}: {e}")))?;
    Ok(buf)
}

/// A directory record's fields.
struct Record<'a> {
    extent: u32,
    size: u32,
    flags: u8,
    name: &'a [u8],
    system_use: &'a [u8],
}

/// The records of a directory's bytes (`.` and `..` included), in order.
fn records(dir: &[u8]) -> Result<Vec<Record<'_>>, SeedError> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos < dir.len() {
        let len = usize::from(*dir.get(pos).unwrap_or(&0));
        if len == 0 {
            // The rest of this sector is unused: records never cross a sector boundary.
            pos = (pos / 2048 + 1) * 2048;
            continue;
        }
        let rec = dir
            .get(pos..pos + len)
            .filter(|_| len >= 34 && pos % 2048 + len <= 2048)
            .ok_or_else(|| damaged(format!("bad directory record at byte {pos}")))?;
        let name_len = usize::from(*rec.get(32).unwrap_or(&0));
        let name = rec
            .get(33..33 + name_len)
            .ok_or_else(|| damaged(format!("directory record at byte {pos}: name overruns it")))?;
        let su_start = 33 + name_len + usize::from(name_len.is_multiple_of(2));
        out.push(Record {
            extent: le32(rec, 2).unwrap_or(0),
            size: le32(rec, 10).unwrap_or(0),
            flags: *rec.get(25).unwrap_or(&0),
            name,
            system_use: rec.get(su_start..).unwrap_or_default(),
        });
        pos += len;
    }
    Ok(out)
}

/// A SUSP entry: signature and data.
type SuspEntry<'a> = ([u8; 2], &'a [u8]);
/// A `CE` entry: block, offset and length of the continuation area.
type Continuation = (u32, u32, u32);

/// SUSP entries of one area, and the `CE` continuation if any.
fn susp_entries(area: &[u8]) -> (Vec<SuspEntry<'_>>, Option<Continuation>) {
    let mut out = Vec::new();
    let mut ce = None;
    let mut pos = 0usize;
    while let Some(head) = area.get(pos..pos + 4) {
        let sig = [
            head.first().copied().unwrap_or(0),
            head.get(1).copied().unwrap_or(0),
        ];
        let len = usize::from(head.get(2).copied().unwrap_or(0));
        let Some(entry) = area.get(pos..pos + len).filter(|_| len >= 4) else {
            break;
        };
        let data = entry.get(4..).unwrap_or_default();
        match &sig {
            b"ST" => break,
            b"CE" => {
                ce = Some((
                    le32(data, 0).unwrap_or(0),
                    le32(data, 8).unwrap_or(0),
                    le32(data, 16).unwrap_or(0),
                ))
            }
            _ => out.push((sig, data)),
        }
        pos += len;
    }
    (out, ce)
}

/// The Rock Ridge name of a record (its `NM` entries, following `CE` areas), if it has one.
fn rock_ridge_name<R: Read + Seek>(
    r: &mut R,
    system_use: &[u8],
    skip: usize,
) -> Result<Option<Vec<u8>>, SeedError> {
    let mut name: Option<Vec<u8>> = None;
    let mut area = system_use.get(skip..).unwrap_or_default().to_vec();
    for _ in 0..=MAX_CONTINUATIONS {
        let (entries, ce) = susp_entries(&area);
        for (sig, data) in entries {
            if &sig == b"NM" {
                let flags = data.first().copied().unwrap_or(0);
                // CURRENT/PARENT name `.`/`..`: never a file's.
                if flags & 0x06 == 0 {
                    name.get_or_insert_with(Vec::new)
                        .extend_from_slice(data.get(1..).unwrap_or_default());
                }
            }
        }
        let Some((block, offset, len)) = ce else {
            return Ok(name);
        };
        if len > SECTOR as u32 || u64::from(offset) + u64::from(len) > SECTOR {
            return Err(damaged("a Rock Ridge continuation area crosses its sector"));
        }
        area = read_at(
            r,
            u64::from(block) * SECTOR + u64::from(offset),
            len as usize,
        )?;
    }
    Err(damaged("too many Rock Ridge continuation areas"))
}

/// A plain ISO 9660 identifier as Linux shows it: `USER_DAT.;1` -> `user_dat`.
fn iso_display_name(id: &[u8]) -> String {
    let base = id.split(|&b| b == b';').next().unwrap_or_default();
    let base = base.strip_suffix(b".").unwrap_or(base);
    String::from_utf8_lossy(base).to_ascii_lowercase()
}

/// A Joliet identifier (UCS-2 big-endian), version dropped.
fn joliet_name(id: &[u8]) -> String {
    let units: Vec<u16> = id
        .chunks_exact(2)
        .map(|c| {
            u16::from_be_bytes([
                c.first().copied().unwrap_or(0),
                c.get(1).copied().unwrap_or(0),
            ])
        })
        .collect();
    let s = String::from_utf16_lossy(&units);
    match s.rsplit_once(';') {
        Some((base, v)) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            base.to_owned()
        }
        _ => s,
    }
}

fn trimmed(b: &[u8]) -> String {
    String::from_utf8_lossy(b)
        .trim_end_matches([' ', '\0'])
        .to_owned()
}

/// A root directory record's extent and size, from a volume descriptor.
fn root_of(vd: &[u8]) -> Result<(u32, u32), SeedError> {
    let root = vd
        .get(156..190)
        .ok_or_else(|| damaged("short volume descriptor"))?;
    let (extent, size) = (le32(root, 2).unwrap_or(0), le32(root, 10).unwrap_or(0));
    if size == 0 || size > MAX_DIR_BYTES {
        return Err(damaged(format!("root directory of {size} bytes")));
    }
    Ok((extent, size))
}

/// True when `head` (the image's first 34 KiB or more) has an ISO 9660 volume descriptor.
pub(super) fn looks_like_iso(head: &[u8]) -> bool {
    head.get(32769..32774) == Some(b"CD001")
}

impl<R: Read + Seek> IsoImage<R> {
    /// Read the volume descriptors and the root directory.
    pub fn open(mut reader: R) -> Result<IsoImage<R>, SeedError> {
        let len = reader
            .seek(SeekFrom::End(0))
            .map_err(|e| damaged(format!("cannot seek: {e}")))?;
        let mut primary = None;
        let mut joliet = None;
        for i in 16..16 + MAX_DESCRIPTORS {
            let vd = read_at(&mut reader, i * SECTOR, SECTOR as usize)?;
            if vd.get(1..6) != Some(b"CD001") {
                return Err(damaged(format!("sector {i}: not a volume descriptor")));
            }
            match vd.first() {
                Some(1) if primary.is_none() => primary = Some(vd),
                Some(2) if joliet.is_none() => {
                    let esc = vd.get(88..120).unwrap_or_default();
                    let ucs2 = [b"%/@", b"%/C", b"%/E"]
                        .iter()
                        .any(|e| esc.windows(3).any(|w| w == *e));
                    if ucs2 {
                        joliet = Some(vd);
                    }
                }
                Some(255) => break,
                _ => {}
            }
        }
        let primary = primary.ok_or_else(|| damaged("no primary volume descriptor"))?;
        if primary.get(128..130) != Some(&[0x00, 0x08]) {
            return Err(damaged(
                "logical blocks other than 2048 bytes are not supported",
            ));
        }
        let volume_id = trimmed(primary.get(40..72).unwrap_or_default());
        let joliet_volume_id = joliet.as_ref().map(|j| {
            joliet_name(j.get(40..72).unwrap_or_default())
                .trim_end()
                .to_owned()
        });
        let (extent, size) = root_of(&primary)?;
        let dir = read_at(&mut reader, u64::from(extent) * SECTOR, size as usize)?;
        let recs = records(&dir)?;
        // SUSP is in use when the root's `.` record starts with `SP` (BE EF); LEN_SKP applies after.
        let sp = recs
            .first()
            .map(|r| susp_entries(r.system_use).0)
            .unwrap_or_default();
        let skip = sp
            .first()
            .filter(|(s, d)| s == b"SP" && d.get(..2) == Some(&[0xBE, 0xEF]))
            .map(|(_, d)| usize::from(d.get(2).copied().unwrap_or(0)));
        let mut files = Vec::new();
        let mut any_rr = false;
        let mut primary_files = Vec::new();
        for rec in recs.iter().filter(|r| r.name != [0] && r.name != [1]) {
            let rr = match skip {
                Some(skip) => rock_ridge_name(&mut reader, rec.system_use, skip)?,
                None => None,
            };
            any_rr |= rr.is_some();
            primary_files.push((rec, rr));
        }
        let names = if any_rr {
            IsoNames::RockRidge
        } else if joliet.is_some() {
            IsoNames::Joliet
        } else {
            IsoNames::Iso9660
        };
        if names == IsoNames::Joliet {
            let (extent, size) = root_of(joliet.as_deref().unwrap_or_default())?;
            let jdir = read_at(&mut reader, u64::from(extent) * SECTOR, size as usize)?;
            for rec in records(&jdir)?
                .iter()
                .filter(|r| r.name != [0] && r.name != [1])
            {
                push_file(&mut files, rec, joliet_name(rec.name))?;
            }
        } else {
            for (rec, rr) in primary_files {
                let name = match rr {
                    Some(n) => String::from_utf8_lossy(&n).into_owned(),
                    None => iso_display_name(rec.name),
                };
                push_file(&mut files, rec, name)?;
            }
        }
        Ok(IsoImage {
            reader,
            len,
            volume_id,
            joliet_volume_id,
            rock_ridge: skip.is_some(),
            names,
            files,
        })
    }

    /// The content of the file called `name` (exactly), refusing one over `limit` bytes.
    pub fn read(&mut self, name: &str, limit: u64) -> Result<Option<Vec<u8>>, SeedError> {
        let Some(f) = self.files.iter().find(|f| f.name == name).cloned() else {
            return Ok(None);
        };
        if f.size > limit {
            return Err(SeedError::Limit {
                name: f.name,
                size: f.size,
                limit,
            });
        }
        // Checked before the buffer is made: a damaged record's size allocates nothing.
        if f.size > 0 && f.offset.saturating_add(f.size) > self.len {
            return Err(damaged(format!(
                "{}: its data reaches past the image's end",
                f.name
            )));
        }
        read_at(
            &mut self.reader,
            f.offset,
            usize::try_from(f.size).unwrap_or(usize::MAX),
        )
        .map(Some)
    }
}

/// Add a regular file (directories, associated files skipped; multi-extent refused).
fn push_file(files: &mut Vec<ImageFile>, rec: &Record<'_>, name: String) -> Result<(), SeedError> {
    if rec.flags & 0x80 != 0 {
        return Err(damaged(format!(
            "{name}: multi-extent files are not supported"
        )));
    }
    if rec.flags & 0x06 == 0 && !files.iter().any(|f| f.name == name) {
        files.push(ImageFile {
            name,
            size: u64::from(rec.size),
            offset: u64::from(rec.extent) * SECTOR,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::seed::iso_writer::write_iso;
    use std::io::Cursor;

    #[test]
    fn reads_back_what_the_writer_wrote() {
        let ud = vec![7u8; 5000];
        let img = write_iso(
            &[
                ("user-data", &ud),
                ("meta-data", b"instance-id: x\n"),
                ("vendor-data", b""),
            ],
            0,
        )
        .unwrap();
        assert!(looks_like_iso(&img));
        let mut iso = IsoImage::open(Cursor::new(img)).unwrap();
        assert_eq!(iso.volume_id, "cidata");
        assert_eq!(iso.joliet_volume_id.as_deref(), Some("cidata"));
        assert_eq!(iso.names, IsoNames::RockRidge);
        let names: Vec<_> = iso.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["meta-data", "user-data", "vendor-data"]);
        assert_eq!(iso.read("user-data", 1 << 20).unwrap().unwrap(), ud);
        assert_eq!(iso.read("vendor-data", 0).unwrap().unwrap(), b"");
        assert!(iso.read("user-data", 10).is_err());
        assert!(iso.read("network-config", 10).unwrap().is_none());
    }

    #[test]
    fn garbage_is_an_error() {
        let mut img = vec![0u8; 40000];
        img[32769..32774].copy_from_slice(b"CD001");
        assert!(IsoImage::open(Cursor::new(img)).is_err());
        assert!(IsoImage::open(Cursor::new(vec![0u8; 100])).is_err());
    }
}
