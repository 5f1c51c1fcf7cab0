//! `FatWriter`: a FAT image labelled `CIDATA` holding the seed's files, made with the `fatfs`
//! crate; every timestamp comes from [`FixedClock`] (fatfs's `TimeProvider`), so the same files
//! and epoch give the same bytes.

use super::SeedError;
use super::civil_time::CivilTime;
use crate::content_hash::{FNV_OFFSET, fnv1a};
use std::cell::Cell;
use std::io::{Cursor, Write};

/// The volume label NoCloud finds (`LABEL=CIDATA`; it accepts either case).
pub const FAT_LABEL: &[u8; 11] = b"CIDATA     ";
/// Smallest image: what `cloud-localds --filesystem vfat` makes (`truncate -s 128K`).
const MIN_SIZE: u64 = 128 << 10;
/// Growth steps tried when the estimate was short (each +25 %).
const MAX_TRIES: usize = 8;

thread_local! {
    /// The time [`FixedClock`] reports to fatfs, set for the duration of one [`write_fat`] call.
    /// fatfs wants a `&'static` provider; a thread-local lets each call choose its epoch
    /// without leaking one provider per call (fatfs runs on the caller's thread).
    static NOW: Cell<fatfs::DateTime> = const { Cell::new(dos_time(&CivilTime { year: 1980, month: 1, day: 1, hour: 0, minute: 0, second: 0 })) };
}

const fn dos_time(t: &CivilTime) -> fatfs::DateTime {
    fatfs::DateTime {
        date: fatfs::Date {
            year: t.year as u16,
            month: t.month as u16,
            day: t.day as u16,
        },
        time: fatfs::Time {
            hour: t.hour as u16,
            min: t.minute as u16,
            sec: t.second as u16,
            millis: 0,
        },
    }
}

/// fatfs's clock: the epoch of the [`write_fat`] call running on this thread.
#[derive(Debug)]
struct FixedClock;

impl fatfs::TimeProvider for FixedClock {
    fn get_current_date(&self) -> fatfs::Date {
        NOW.with(|n| n.get().date)
    }
    fn get_current_date_time(&self) -> fatfs::DateTime {
        NOW.with(Cell::get)
    }
}

static CLOCK: FixedClock = FixedClock;

/// Resets the thread's clock when a write ends, even by an error.
struct ClockGuard(fatfs::DateTime);

impl Drop for ClockGuard {
    fn drop(&mut self) {
        NOW.with(|n| n.set(self.0));
    }
}

/// A size that holds `files`: their data rounded to 4 KiB clusters, plus room for the
/// FATs and directory, in 64 KiB steps.
fn estimate(files: &[(&'static str, &[u8])]) -> u64 {
    let data: u64 = files
        .iter()
        .map(|(_, d)| (d.len() as u64).div_ceil(4096) * 4096)
        .sum();
    let want = data + data / 64 + (64 << 10);
    want.div_ceil(64 << 10)
        .saturating_mul(64 << 10)
        .max(MIN_SIZE)
}

fn try_write(files: &[(&'static str, &[u8])], size: u64, serial: u32) -> std::io::Result<Vec<u8>> {
    let len = usize::try_from(size).map_err(|_| std::io::Error::other("image too large"))?;
    let mut disk = Cursor::new(vec![0u8; len]);
    fatfs::format_volume(
        &mut disk,
        fatfs::FormatVolumeOptions::new()
            .volume_label(*FAT_LABEL)
            .volume_id(serial),
    )?;
    disk.set_position(0);
    {
        let opts = fatfs::FsOptions::new()
            .time_provider(&CLOCK)
            .update_accessed_date(false);
        let fs = fatfs::FileSystem::new(&mut disk, opts)?;
        {
            let root = fs.root_dir();
            for (name, data) in files {
                let mut f = root.create_file(name)?;
                f.write_all(data)?;
                f.flush()?;
            }
        }
        fs.unmount()?;
    }
    Ok(disk.into_inner())
}

/// The FAT image of `files` (names unique), timestamps at `epoch` (clamped to 1980-2107, FAT's
/// range); the volume serial number is a hash of the content. fatfs picks FAT12/16/32 by size.
pub(super) fn write_fat(files: &[(&'static str, &[u8])], epoch: i64) -> Result<Vec<u8>, SeedError> {
    let t = CivilTime::from_unix_clamped(epoch, 1980, 2107);
    let _reset = ClockGuard(NOW.with(|n| n.replace(dos_time(&t))));
    let mut h = FNV_OFFSET;
    for (name, data) in files {
        h = fnv1a(h, name.as_bytes());
        h = fnv1a(h, &(data.len() as u64).to_le_bytes());
        h = fnv1a(h, data);
    }
    let serial = u32::try_from(h >> 32).unwrap_or(0);
    let mut size = estimate(files);
    let mut last = None;
    for _ in 0..MAX_TRIES {
        match try_write(files, size, serial) {
            Ok(img) => return Ok(img),
            Err(e) => last = Some(e),
        }
        size = (size + size / 4).div_ceil(64 << 10) * (64 << 10);
    }
    Err(SeedError::Fat(
        last.unwrap_or_else(|| std::io::Error::other("no space")),
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn deterministic_and_sized() {
        let big = vec![0x5a; 2 << 20];
        for files in [
            vec![("user-data", &b""[..]), ("meta-data", b"x")],
            vec![("user-data", &big[..]), ("meta-data", b"x")],
        ] {
            let a = write_fat(&files, 0).unwrap();
            assert_eq!(a, write_fat(&files, 0).unwrap());
            assert_ne!(a, write_fat(&files, 1_700_000_000).unwrap());
            assert!(a.len() as u64 >= MIN_SIZE);
        }
    }
}
