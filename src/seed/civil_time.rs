//! `CivilTime`: a UTC calendar time from a Unix timestamp, for the dates ISO 9660 and FAT store.

/// A UTC date and time of day (proleptic Gregorian calendar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CivilTime {
    /// Full year.
    pub year: i64,
    /// 1-12.
    pub month: u8,
    /// 1-31.
    pub day: u8,
    /// 0-23.
    pub hour: u8,
    /// 0-59.
    pub minute: u8,
    /// 0-59.
    pub second: u8,
}

/// The default timestamp of every file and volume date: 1980-01-01T00:00:00Z, the earliest
/// time FAT can store (so ISO and FAT images of the same files agree).
pub const DEFAULT_EPOCH: i64 = 315_532_800;

impl CivilTime {
    /// The calendar time of `secs` seconds after 1970-01-01T00:00:00Z (days-from-civil
    /// inverted, after Howard Hinnant's algorithm: exact for every i64 day count used here).
    pub fn from_unix(secs: i64) -> CivilTime {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        // Every value is in range by construction; `try_from` keeps the cast lint-free.
        let small = |v: i64| u8::try_from(v).unwrap_or(0);
        CivilTime {
            year,
            month: small(month),
            day: small(day),
            hour: small(rem / 3600),
            minute: small(rem % 3600 / 60),
            second: small(rem % 60),
        }
    }

    /// `secs` clamped to the years `lo..=hi` (the first or last second of the range).
    pub fn from_unix_clamped(secs: i64, lo: i64, hi: i64) -> CivilTime {
        let t = CivilTime::from_unix(secs);
        if t.year < lo {
            CivilTime {
                year: lo,
                month: 1,
                day: 1,
                hour: 0,
                minute: 0,
                second: 0,
            }
        } else if t.year > hi {
            CivilTime {
                year: hi,
                month: 12,
                day: 31,
                hour: 23,
                minute: 59,
                second: 59,
            }
        } else {
            t
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        let t = CivilTime::from_unix(0);
        assert_eq!((t.year, t.month, t.day, t.hour), (1970, 1, 1, 0));
        let t = CivilTime::from_unix(DEFAULT_EPOCH);
        assert_eq!((t.year, t.month, t.day), (1980, 1, 1));
        // 2024-02-29T12:34:56Z
        let t = CivilTime::from_unix(1_709_210_096);
        assert_eq!(
            (t.year, t.month, t.day, t.hour, t.minute, t.second),
            (2024, 2, 29, 12, 34, 56)
        );
        let t = CivilTime::from_unix(-1);
        assert_eq!((t.year, t.month, t.day, t.second), (1969, 12, 31, 59));
    }

    #[test]
    fn clamped() {
        assert_eq!(CivilTime::from_unix_clamped(0, 1980, 2107).year, 1980);
        assert_eq!(
            CivilTime::from_unix_clamped(i64::MAX / 2, 1980, 2107).month,
            12
        );
    }
}
