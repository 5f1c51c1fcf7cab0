//! `Date` and `DateTime`: Python's `datetime.date` and `datetime.datetime`.

use std::fmt;

/// A calendar date (`datetime.date`), always valid (year 1..=9999).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    /// 1..=9999.
    pub year: u16,
    /// 1..=12.
    pub month: u8,
    /// 1..=31, valid for the month.
    pub day: u8,
}

impl Date {
    /// A date, or `None` where Python's `datetime.date` raises ValueError.
    pub fn new(year: u32, month: u32, day: u32) -> Option<Date> {
        if !(1..=9999).contains(&year) || !(1..=12).contains(&month) {
            return None;
        }
        if day < 1 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date {
            year: year as u16,
            month: month as u8,
            day: day as u8,
        })
    }

    /// Days since 0001-01-01 (proleptic Gregorian ordinal minus one).
    pub fn days(&self) -> i64 {
        let y = i64::from(self.year) - 1;
        let mut d = y * 365 + y / 4 - y / 100 + y / 400;
        for m in 1..u32::from(self.month) {
            d += i64::from(days_in_month(u32::from(self.year), m));
        }
        d + i64::from(self.day) - 1
    }
}

fn is_leap(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        _ => 28,
    }
}

impl fmt::Display for Date {
    /// `isoformat()`: `2002-12-14`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// A `datetime.datetime`, naive or with a fixed UTC offset.
///
/// Equality is Python's: two aware values are equal when they denote the same
/// instant; an aware and a naive value are never equal.
#[derive(Clone, Copy, Debug)]
pub struct DateTime {
    /// The date part.
    pub date: Date,
    /// 0..=23.
    pub hour: u8,
    /// 0..=59.
    pub minute: u8,
    /// 0..=59.
    pub second: u8,
    /// 0..=999_999.
    pub microsecond: u32,
    /// UTC offset in minutes (strictly within ±24 h), `None` when naive.
    pub offset_minutes: Option<i32>,
}

impl DateTime {
    /// Microseconds since 0001-01-01 00:00 of the local fields.
    fn local_micros(&self) -> i128 {
        let secs = self.date.days() * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second);
        i128::from(secs) * 1_000_000 + i128::from(self.microsecond)
    }

    /// The comparison key: UTC instant for aware values, local fields for naive.
    pub fn instant_key(&self) -> (bool, i128) {
        match self.offset_minutes {
            Some(off) => (true, self.local_micros() - i128::from(off) * 60_000_000),
            None => (false, self.local_micros()),
        }
    }
}

impl PartialEq for DateTime {
    fn eq(&self, other: &Self) -> bool {
        self.instant_key() == other.instant_key()
    }
}

impl Eq for DateTime {}

impl std::hash::Hash for DateTime {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.instant_key().hash(state);
    }
}

impl DateTime {
    /// Python's `isoformat(sep)`: `2001-12-14T21:59:43.100000-05:00`.
    pub fn isoformat(&self, sep: char) -> String {
        let mut s = format!(
            "{}{}{:02}:{:02}:{:02}",
            self.date, sep, self.hour, self.minute, self.second
        );
        if self.microsecond != 0 {
            s.push_str(&format!(".{:06}", self.microsecond));
        }
        if let Some(off) = self.offset_minutes {
            let sign = if off < 0 { '-' } else { '+' };
            let a = off.unsigned_abs();
            s.push_str(&format!("{sign}{:02}:{:02}", a / 60, a % 60));
        }
        s
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.isoformat('T'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_and_format() {
        assert!(Date::new(2002, 2, 29).is_none());
        assert!(Date::new(2000, 2, 29).is_some());
        assert!(Date::new(0, 1, 1).is_none());
        let d = Date::new(2001, 12, 14).unwrap();
        let dt = DateTime {
            date: d,
            hour: 21,
            minute: 59,
            second: 43,
            microsecond: 100_000,
            offset_minutes: Some(-300),
        };
        assert_eq!(dt.isoformat('T'), "2001-12-14T21:59:43.100000-05:00");
        let utc = DateTime {
            date: Date::new(2001, 12, 15).unwrap(),
            hour: 2,
            offset_minutes: Some(0),
            ..dt
        };
        assert_eq!(dt, utc);
        assert_ne!(
            dt,
            DateTime {
                offset_minutes: None,
                ..dt
            }
        );
    }
}
