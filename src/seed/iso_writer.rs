//! `IsoWriter`: the ISO 9660 subset a NoCloud seed needs, laid out as `genisoimage -volid cidata
//! -joliet -rock` (what `cloud-localds` runs) lays it out: one root directory holding a few files,
//! with Rock Ridge names (SUSP `SP`/`CE`/`ER`, RRIP `RR`/`PX`/`TF`/`NM`) in the primary tree and a
//! Joliet (UCS-2, level 3) supplementary tree, so every reader sees `user-data` and `meta-data`.
//!
//! Layout, in 2048-byte sectors: 0-15 system area (zeros); 16 primary volume descriptor;
//! 17 Joliet supplementary descriptor; 18 terminator; 19-22 path tables (L and M for each tree,
//! one entry each: the root); 23 primary root directory; 24 Joliet root directory; 25 the `ER`
//! continuation area; then each file's data from a sector boundary, in name order; then 150
//! sectors of zeros, as `genisoimage -pad` adds (Linux read-ahead at the end of a CD).
//! Written here rather than taken from a crate: hadris-iso 2.5 stamps the current time into its
//! volume descriptors (3.0 is a release candidate of eight crates), iso9660 and cdfs only read.

use super::SeedError;
use super::civil_time::CivilTime;

/// Bytes per logical sector.
pub(super) const SECTOR: usize = 2048;
/// The volume identifier NoCloud looks for (blkid reports it as LABEL).
pub const VOLUME_ID: &str = "cidata";
const PAD_SECTORS: usize = 150;
const FIRST_FILE_SECTOR: usize = 26;
const PRIMARY_ROOT: usize = 23;
const JOLIET_ROOT: usize = 24;
const CONTINUATION: usize = 25;
const PATH_TABLES: [usize; 4] = [19, 20, 21, 22];

const ER_ID: &[u8] = b"RRIP_1991A";
const ER_DESCRIPTOR: &[u8] =
    b"THE ROCK RIDGE INTERCHANGE PROTOCOL PROVIDES SUPPORT FOR POSIX FILE SYSTEM SEMANTICS";
const ER_SOURCE: &[u8] = b"PLEASE CONTACT DISC PUBLISHER FOR SPECIFICATION SOURCE.  SEE PUBLISHER IDENTIFIER IN PRIMARY VOLUME DESCRIPTOR FOR CONTACT INFORMATION.";

/// File and directory modes in the image: read-only for root (the seed holds secrets; cloud-init
/// reads it as root).
const FILE_MODE: u32 = 0o100_400;
const DIR_MODE: u32 = 0o040_500;

fn both16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
    out.extend_from_slice(&v.to_be_bytes());
}

fn both32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
    out.extend_from_slice(&v.to_be_bytes());
}

/// `text` padded with spaces (or cut) to `n` bytes.
fn padded(out: &mut Vec<u8>, text: &[u8], n: usize) {
    let t = text.get(..n.min(text.len())).unwrap_or_default();
    out.extend_from_slice(t);
    out.resize(out.len() + n - t.len(), b' ');
}

/// `text` in UCS-2 big-endian padded with U+0020 to `n` bytes (a last odd byte is 0).
fn padded_ucs2(out: &mut Vec<u8>, text: &str, n: usize) {
    let start = out.len();
    for u in text.encode_utf16().take(n / 2) {
        out.extend_from_slice(&u.to_be_bytes());
    }
    while out.len() + 2 <= start + n {
        out.extend_from_slice(&[0, 0x20]);
    }
    out.resize(start + n, 0);
}

fn ucs2(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_be_bytes).collect()
}

/// The 7-byte date of a directory record (years since 1900; UTC).
fn record_date(t: &CivilTime) -> [u8; 7] {
    let year = u8::try_from(t.year - 1900).unwrap_or(0);
    [year, t.month, t.day, t.hour, t.minute, t.second, 0]
}

/// The 17-byte date of a volume descriptor: `YYYYMMDDHHMMSScc` and a zone offset of 0.
fn volume_date(t: &CivilTime) -> Vec<u8> {
    let mut v = format!(
        "{:04}{:02}{:02}{:02}{:02}{:02}00",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
    .into_bytes();
    v.push(0);
    v
}

/// An ISO 9660 level-1 name for a seed file: upper case, `-` as `_`, 8.3, version `;1`
/// (`user-data` -> `USER_DAT.;1`, as genisoimage writes it).
pub(super) fn iso_name(name: &str) -> Vec<u8> {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let d = |c: char| {
        let c = c.to_ascii_uppercase();
        if c.is_ascii_uppercase() || c.is_ascii_digit() {
            c as u8
        } else {
            b'_'
        }
    };
    let mut out: Vec<u8> = stem.chars().take(8).map(d).collect();
    out.push(b'.');
    out.extend(ext.chars().take(3).map(d));
    out.extend_from_slice(b";1");
    out
}

/// One SUSP/RRIP entry: signature, length, version 1, data.
fn susp(out: &mut Vec<u8>, sig: &[u8; 2], data: &[u8]) {
    out.extend_from_slice(sig);
    out.push(u8::try_from(4 + data.len()).unwrap_or(u8::MAX));
    out.push(1);
    out.extend_from_slice(data);
}

fn px(out: &mut Vec<u8>, mode: u32, links: u32) {
    let mut d = Vec::with_capacity(32);
    both32(&mut d, mode);
    both32(&mut d, links);
    both32(&mut d, 0); // uid root
    both32(&mut d, 0); // gid root
    susp(out, b"PX", &d);
}

fn tf(out: &mut Vec<u8>, date: &[u8; 7]) {
    // Modify, access, attributes (flags 0x0E), as genisoimage records them.
    let mut d = vec![0x0E];
    for _ in 0..3 {
        d.extend_from_slice(date);
    }
    susp(out, b"TF", &d);
}

/// RRIP 1.09's `RR` entry: which RRIP entries follow (PX 0x01, NM 0x08, TF 0x80).
fn rr(out: &mut Vec<u8>, flags: u8) {
    susp(out, b"RR", &[flags]);
}

/// A directory record; `name` is the identifier (`[0]` for `.`, `[1]` for `..`).
fn dir_record(
    extent: u32,
    size: u32,
    date: &[u8; 7],
    dir: bool,
    name: &[u8],
    system_use: &[u8],
) -> Vec<u8> {
    let mut r = Vec::with_capacity(64);
    r.push(0); // length, set below
    r.push(0); // extended attribute record length
    both32(&mut r, extent);
    both32(&mut r, size);
    r.extend_from_slice(date);
    r.push(if dir { 0x02 } else { 0x00 });
    r.push(0); // file unit size
    r.push(0); // interleave gap
    both16(&mut r, 1); // volume sequence number
    r.push(u8::try_from(name.len()).unwrap_or(u8::MAX));
    r.extend_from_slice(name);
    if name.len().is_multiple_of(2) {
        r.push(0); // padding field: the system use area starts at an even offset
    }
    r.extend_from_slice(system_use);
    if !r.len().is_multiple_of(2) {
        r.push(0);
    }
    let total = u8::try_from(r.len()).unwrap_or(u8::MAX);
    if let Some(len) = r.first_mut() {
        *len = total;
    }
    r
}

/// A path table with the root only, little- (`L`) or big-endian (`M`).
fn path_table(root: u32, big: bool) -> Vec<u8> {
    let mut t = vec![1, 0];
    if big {
        t.extend_from_slice(&root.to_be_bytes());
        t.extend_from_slice(&1u16.to_be_bytes());
    } else {
        t.extend_from_slice(&root.to_le_bytes());
        t.extend_from_slice(&1u16.to_le_bytes());
    }
    t.extend_from_slice(&[0, 0]); // root's identifier (0) and the padding byte
    t
}

struct Placed<'a> {
    name: &'static str,
    data: &'a [u8],
    extent: u32,
}

fn sectors(bytes: usize) -> usize {
    bytes.div_ceil(SECTOR)
}

fn u32_of(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// A volume descriptor (primary, `joliet` false; or the Joliet supplementary one).
#[allow(clippy::too_many_arguments)]
fn volume_descriptor(
    joliet: bool,
    volume_sectors: u32,
    root_extent: u32,
    tables: (u32, u32),
    date: &CivilTime,
    rec_date: &[u8; 7],
) -> Vec<u8> {
    let text = |out: &mut Vec<u8>, s: &str, n: usize| {
        if joliet {
            padded_ucs2(out, s, n)
        } else {
            padded(out, s.as_bytes(), n)
        }
    };
    let mut v = Vec::with_capacity(SECTOR);
    v.push(if joliet { 2 } else { 1 });
    v.extend_from_slice(b"CD001");
    v.push(1);
    v.push(0);
    text(&mut v, "LINUX", 32); // system identifier
    text(&mut v, VOLUME_ID, 32);
    v.extend_from_slice(&[0; 8]);
    both32(&mut v, volume_sectors);
    let escapes_at = v.len();
    if joliet {
        // UCS-2 level 3.
        v.extend_from_slice(b"%/E");
    }
    v.resize(escapes_at + 32, 0);
    both16(&mut v, 1); // volume set size
    both16(&mut v, 1); // volume sequence number
    both16(&mut v, u16::try_from(SECTOR).unwrap_or(0));
    both32(&mut v, 10); // path table size: the root's entry
    v.extend_from_slice(&tables.0.to_le_bytes());
    v.extend_from_slice(&[0; 4]);
    v.extend_from_slice(&tables.1.to_be_bytes());
    v.extend_from_slice(&[0; 4]);
    v.extend_from_slice(&dir_record(
        root_extent,
        u32_of(SECTOR),
        rec_date,
        true,
        &[0],
        &[],
    ));
    text(&mut v, "", 128); // volume set
    text(&mut v, "", 128); // publisher
    text(&mut v, "", 128); // data preparer
    text(&mut v, "CLOUDFOLD SEED", 128); // application
    for _ in 0..3 {
        text(&mut v, "", 37); // copyright, abstract, bibliographic file
    }
    let d = volume_date(date);
    v.extend_from_slice(&d); // creation
    v.extend_from_slice(&d); // modification
    v.extend_from_slice(b"0000000000000000\0"); // expiration: none
    v.extend_from_slice(&d); // effective
    v.push(1); // file structure version
    v.resize(SECTOR, 0);
    v
}

/// The ISO image of `files` (name, content; names are seed file names, unique), every date set
/// to `epoch` (Unix seconds, clamped to 1900-2155).
pub(super) fn write_iso(files: &[(&'static str, &[u8])], epoch: i64) -> Result<Vec<u8>, SeedError> {
    let date = CivilTime::from_unix_clamped(epoch, 1900, 2155);
    let rec_date = record_date(&date);
    // Files in the order of their ISO names (the directory's order), data in that order too.
    let mut sorted: Vec<(&'static str, &[u8])> = files.to_vec();
    sorted.sort_by_key(|(n, _)| iso_name(n));
    let mut placed = Vec::with_capacity(sorted.len());
    let mut next = FIRST_FILE_SECTOR;
    for (name, data) in sorted {
        if u32::try_from(data.len()).is_err() {
            return Err(SeedError::TooLarge {
                name,
                size: data.len(),
            });
        }
        placed.push(Placed {
            name,
            data,
            extent: u32_of(next),
        });
        next += sectors(data.len());
    }
    let total = next + PAD_SECTORS;
    if u32::try_from(total).is_err() {
        return Err(SeedError::TooLarge {
            name: "image",
            size: total.saturating_mul(SECTOR),
        });
    }

    let er_len = 8 + ER_ID.len() + ER_DESCRIPTOR.len() + ER_SOURCE.len();
    let mut primary_dir = Vec::with_capacity(SECTOR);
    let mut su = Vec::new();
    susp(&mut su, b"SP", &[0xBE, 0xEF, 0]);
    rr(&mut su, 0x81);
    px(&mut su, DIR_MODE, 2);
    tf(&mut su, &rec_date);
    let mut ce = Vec::new();
    both32(&mut ce, u32_of(CONTINUATION));
    both32(&mut ce, 0);
    both32(&mut ce, u32_of(er_len));
    susp(&mut su, b"CE", &ce);
    primary_dir.extend(dir_record(
        u32_of(PRIMARY_ROOT),
        u32_of(SECTOR),
        &rec_date,
        true,
        &[0],
        &su,
    ));
    let mut su = Vec::new();
    rr(&mut su, 0x81);
    px(&mut su, DIR_MODE, 2);
    tf(&mut su, &rec_date);
    primary_dir.extend(dir_record(
        u32_of(PRIMARY_ROOT),
        u32_of(SECTOR),
        &rec_date,
        true,
        &[1],
        &su,
    ));
    for p in &placed {
        let mut su = Vec::new();
        rr(&mut su, 0x89);
        let mut nm = vec![0];
        nm.extend_from_slice(p.name.as_bytes());
        susp(&mut su, b"NM", &nm);
        px(&mut su, FILE_MODE, 1);
        tf(&mut su, &rec_date);
        primary_dir.extend(dir_record(
            p.extent,
            u32_of(p.data.len()),
            &rec_date,
            false,
            &iso_name(p.name),
            &su,
        ));
    }
    let mut joliet_dir = Vec::with_capacity(SECTOR);
    joliet_dir.extend(dir_record(
        u32_of(JOLIET_ROOT),
        u32_of(SECTOR),
        &rec_date,
        true,
        &[0],
        &[],
    ));
    joliet_dir.extend(dir_record(
        u32_of(JOLIET_ROOT),
        u32_of(SECTOR),
        &rec_date,
        true,
        &[1],
        &[],
    ));
    let mut by_joliet: Vec<&Placed> = placed.iter().collect();
    by_joliet.sort_by_key(|p| ucs2(p.name));
    for p in by_joliet {
        joliet_dir.extend(dir_record(
            p.extent,
            u32_of(p.data.len()),
            &rec_date,
            false,
            &ucs2(p.name),
            &[],
        ));
    }
    if primary_dir.len() > SECTOR || joliet_dir.len() > SECTOR {
        return Err(SeedError::Image(
            "too many files for one directory sector".into(),
        ));
    }

    let mut img = Vec::with_capacity(total * SECTOR);
    img.resize(16 * SECTOR, 0);
    let t = PATH_TABLES.map(u32_of);
    img.extend(volume_descriptor(
        false,
        u32_of(total),
        u32_of(PRIMARY_ROOT),
        (t[0], t[1]),
        &date,
        &rec_date,
    ));
    img.extend(volume_descriptor(
        true,
        u32_of(total),
        u32_of(JOLIET_ROOT),
        (t[2], t[3]),
        &date,
        &rec_date,
    ));
    let mut term = vec![255];
    term.extend_from_slice(b"CD001");
    term.push(1);
    term.resize(SECTOR, 0);
    img.extend(term);
    for (i, root) in [PRIMARY_ROOT, PRIMARY_ROOT, JOLIET_ROOT, JOLIET_ROOT]
        .into_iter()
        .enumerate()
    {
        let mut s = path_table(u32_of(root), i % 2 == 1);
        s.resize(SECTOR, 0);
        img.extend(s);
    }
    for mut dir in [primary_dir, joliet_dir] {
        dir.resize(SECTOR, 0);
        img.extend(dir);
    }
    let mut er = vec![
        b'E',
        b'R',
        u8::try_from(er_len).unwrap_or(u8::MAX),
        1,
        u8::try_from(ER_ID.len()).unwrap_or(0),
        u8::try_from(ER_DESCRIPTOR.len()).unwrap_or(0),
        u8::try_from(ER_SOURCE.len()).unwrap_or(0),
        1,
    ];
    er.extend_from_slice(ER_ID);
    er.extend_from_slice(ER_DESCRIPTOR);
    er.extend_from_slice(ER_SOURCE);
    er.resize(SECTOR, 0);
    img.extend(er);
    for p in &placed {
        img.extend_from_slice(p.data);
        img.resize(img.len().div_ceil(SECTOR) * SECTOR, 0);
    }
    img.resize(total * SECTOR, 0);
    Ok(img)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn names() {
        assert_eq!(iso_name("user-data"), b"USER_DAT.;1");
        assert_eq!(iso_name("network-config"), b"NETWORK_.;1");
        assert_eq!(iso_name("a.txt"), b"A.TXT;1");
    }

    #[test]
    fn layout() {
        let img = write_iso(&[("user-data", b"hello"), ("meta-data", b"")], 0).unwrap();
        assert_eq!(img.len() % SECTOR, 0);
        assert_eq!(&img[16 * SECTOR + 1..16 * SECTOR + 6], b"CD001");
        assert_eq!(&img[16 * SECTOR + 40..16 * SECTOR + 46], b"cidata");
        assert_eq!(img[17 * SECTOR], 2);
        assert_eq!(img[18 * SECTOR], 255);
        // meta-data (empty) sorts first and takes no sector; user-data's data is at 26.
        assert_eq!(&img[26 * SECTOR..26 * SECTOR + 5], b"hello");
        assert_eq!(img.len(), (27 + PAD_SECTORS) * SECTOR);
    }
}
