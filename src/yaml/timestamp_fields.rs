//! `TimestampFields`: the pieces of a YAML timestamp, split as PyYAML's
//! `timestamp_regexp` splits them (hand-written matcher, same language).

/// The groups of PyYAML's constructor `timestamp_regexp`:
/// `YYYY-M[M]-D[D]` optionally followed by `(T|t|[ \t]+)H[H]:MM:SS(.f*)?`
/// and `[ \t]*(Z|[-+]H[H](:MM)?)`. Text slices borrow the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TimestampFields<'a> {
    pub year: &'a str,
    pub month: &'a str,
    pub day: &'a str,
    pub time: Option<TimeFields<'a>>,
}

/// The time part of a timestamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TimeFields<'a> {
    pub hour: &'a str,
    pub minute: &'a str,
    pub second: &'a str,
    /// Digits after `.` (may be empty), `None` without a `.`.
    pub fraction: Option<&'a str>,
    pub tz: Option<Tz<'a>>,
}

/// A time zone designator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tz<'a> {
    /// `Z`.
    Utc,
    /// `+H[H][:MM]` or `-…`.
    Offset {
        negative: bool,
        hour: &'a str,
        minute: Option<&'a str>,
    },
}

/// A cursor over ASCII-structured text.
struct Cur<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Cur<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Between `min` and `max` ASCII digits, greedily (the following
    /// character is never a digit in this grammar, so greedy is exact).
    fn digits(&mut self, min: usize, max: usize) -> Option<&'a str> {
        let start = self.i;
        while self.i - start < max && self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i - start < min {
            return None;
        }
        self.s.get(start..self.i)
    }

    fn all_digits(&mut self) -> &'a str {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.i += 1;
        }
        self.s.get(start..self.i).unwrap_or("")
    }

    fn blanks(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i - start
    }

    fn at_end(&self) -> bool {
        self.i == self.s.len()
    }
}

/// Strip the one trailing `\n` that a Python `$` accepts.
pub(crate) fn strip_dollar_newline(s: &str) -> &str {
    s.strip_suffix('\n').unwrap_or(s)
}

/// Match `timestamp_regexp` (`re.match(...)`, so `$` also matches before a
/// final newline).
pub(crate) fn parse_timestamp(s: &str) -> Option<TimestampFields<'_>> {
    let s = strip_dollar_newline(s);
    let mut c = Cur { s, i: 0 };
    let year = c.digits(4, 4)?;
    if !c.eat(b'-') {
        return None;
    }
    let month = c.digits(1, 2)?;
    if !c.eat(b'-') {
        return None;
    }
    let day = c.digits(1, 2)?;
    if c.at_end() {
        return Some(TimestampFields {
            year,
            month,
            day,
            time: None,
        });
    }
    if !(c.eat(b'T') || c.eat(b't') || c.blanks() > 0) {
        return None;
    }
    let hour = c.digits(1, 2)?;
    if !c.eat(b':') {
        return None;
    }
    let minute = c.digits(2, 2)?;
    if !c.eat(b':') {
        return None;
    }
    let second = c.digits(2, 2)?;
    let fraction = if c.eat(b'.') {
        Some(c.all_digits())
    } else {
        None
    };
    let tz = if c.at_end() {
        None
    } else {
        c.blanks();
        let tz = if c.eat(b'Z') {
            Tz::Utc
        } else {
            let negative = match c.peek() {
                Some(b'-') => true,
                Some(b'+') => false,
                _ => return None,
            };
            c.i += 1;
            let hour = c.digits(1, 2)?;
            let minute = if c.eat(b':') {
                Some(c.digits(2, 2)?)
            } else {
                None
            };
            Tz::Offset {
                negative,
                hour,
                minute,
            }
        };
        Some(tz)
    };
    if !c.at_end() {
        return None;
    }
    Some(TimestampFields {
        year,
        month,
        day,
        time: Some(TimeFields {
            hour,
            minute,
            second,
            fraction,
            tz,
        }),
    })
}

/// The implicit resolver's timestamp pattern: as above, but a date without a
/// time needs two-digit month and day.
pub(crate) fn is_implicit_timestamp(s: &str) -> bool {
    match parse_timestamp(s) {
        Some(f) => f.time.is_some() || (f.month.len() == 2 && f.day.len() == 2),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert!(is_implicit_timestamp("2002-12-14"));
        assert!(!is_implicit_timestamp("2002-1-14"));
        assert!(parse_timestamp("2002-1-14").is_some());
        assert!(is_implicit_timestamp("2001-12-14t21:59:43.10-05:00"));
        assert!(is_implicit_timestamp("2001-12-14 21:59:43.10 -5"));
        assert!(is_implicit_timestamp("2001-12-15 2:59:43.10"));
        assert!(is_implicit_timestamp("2001-12-15 2:59:43.10Z"));
        assert!(is_implicit_timestamp("2001-12-15 2:59:43.Z"));
        assert!(is_implicit_timestamp("2001-12-15\t \t2:59:43 \tZ"));
        assert!(!is_implicit_timestamp("2001-12-15 2:59:43 "));
        assert!(!is_implicit_timestamp("2001-12-15 2:59:43+5:3"));
        assert!(!is_implicit_timestamp("2001-12-15 123:59:43"));
        assert!(is_implicit_timestamp("2001-12-15\n"));
    }
}
