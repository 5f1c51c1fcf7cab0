//! `resolves_to_str`: whether an untagged plain scalar would load back as a `str`.
//!
//! These are PyYAML's implicit resolvers (YAML 1.1 bool, float, int, merge,
//! null, timestamp, value), chosen by the first character. A string that
//! matches one of them must be quoted to stay a string.

use super::text_unit::TextUnit;

/// Whether `text` (the code points of a scalar) loads as a `str` when written
/// plain.
pub(super) fn resolves_to_str<T: TextUnit>(text: &[T]) -> bool {
    // Every pattern is ASCII; Python's `$` also matches before one final "\n".
    let body = match text.split_last() {
        Some((&c, rest)) if c.into() == 0x0A => rest,
        _ => text,
    };
    // Only these first characters have resolvers (checked before any copy).
    if text.first().is_some_and(|&c| {
        !matches!(
            c.into(),
            0x30..=0x39
                | 0x2D
                | 0x2B
                | 0x2E
                | 0x7E
                | 0x3C
                | 0x3D
                | 0x79
                | 0x59
                | 0x6E
                | 0x4E
                | 0x74
                | 0x54
                | 0x66
                | 0x46
                | 0x6F
                | 0x4F
        )
    }) {
        return true;
    }
    if text.first().is_some_and(|&c| c.into() >= 0x41) && body.len() > 5 {
        // A letter or `~`: only the bool and null words, none over 5
        // characters.
        return true;
    }
    if let Some(bytes) = T::as_ascii(body) {
        // ASCII text as it is (no copy).
        return !matches_any(text.first().map(|&c| c.into()), bytes);
    }
    if body.iter().any(|&c| c.into() > 0x7F) {
        return true;
    }
    let mut buf = [0u8; 64];
    if body.len() > buf.len() {
        // No implicit pattern matches text this long except digit runs, which
        // are checked on a heap copy (rare).
        let bytes: Vec<u8> = body.iter().map(|&c| c.into() as u8).collect();
        return !matches_any(text.first().map(|&c| c.into()), &bytes);
    }
    for (b, &c) in buf.iter_mut().zip(body) {
        *b = c.into() as u8;
    }
    !matches_any(
        text.first().map(|&c| c.into()),
        buf.get(..body.len()).unwrap_or(&[]),
    )
}

/// Whether `s` matches a resolver registered for `first` (the first code
/// point of the whole value, `None` for the empty string).
fn matches_any(first: Option<u32>, s: &[u8]) -> bool {
    let Some(first) = first else {
        return true; // '' is null
    };
    let Ok(first) = u8::try_from(first) else {
        return false;
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' => {
            is_bool(s) || ((first == b'n' || first == b'N') && is_null(s))
        }
        b'~' => is_null(s),
        b'<' => s == b"<<",
        b'=' => s == b"=",
        b'.' => is_float(s),
        b'-' | b'+' => is_float(s) || is_int(s),
        b'0'..=b'9' => is_float(s) || is_int(s) || is_timestamp(s),
        _ => false,
    }
}

fn is_bool(s: &[u8]) -> bool {
    const WORDS: [&[u8]; 18] = [
        b"yes", b"Yes", b"YES", b"no", b"No", b"NO", b"true", b"True", b"TRUE", b"false", b"False",
        b"FALSE", b"on", b"On", b"ON", b"off", b"Off", b"OFF",
    ];
    WORDS.contains(&s)
}

fn is_null(s: &[u8]) -> bool {
    matches!(s, b"~" | b"null" | b"Null" | b"NULL" | b"")
}

/// A cursor over ASCII bytes for the small hand-written matchers.
struct Cur<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cur<'a> {
    fn new(s: &'a [u8]) -> Self {
        Cur { s, i: 0 }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, f: impl Fn(u8) -> bool) -> bool {
        match self.peek() {
            Some(c) if f(c) => {
                self.i += 1;
                true
            }
            _ => false,
        }
    }
    fn eat_byte(&mut self, b: u8) -> bool {
        self.eat(|c| c == b)
    }
    /// Eat a run of bytes satisfying `f`; returns how many.
    fn eat_while(&mut self, f: impl Fn(u8) -> bool) -> usize {
        let start = self.i;
        while self.eat(&f) {}
        self.i - start
    }
    fn rest(&self) -> &'a [u8] {
        self.s.get(self.i..).unwrap_or(&[])
    }
    fn done(&self) -> bool {
        self.i >= self.s.len()
    }
}

fn digit(c: u8) -> bool {
    c.is_ascii_digit()
}
fn digit_(c: u8) -> bool {
    c.is_ascii_digit() || c == b'_'
}

/// `[eE][-+][0-9]+` (optional) then the end.
fn exponent_then_end(c: &mut Cur) -> bool {
    if c.eat(|b| b == b'e' || b == b'E') {
        return c.eat(|b| b == b'-' || b == b'+') && c.eat_while(digit) > 0 && c.done();
    }
    c.done()
}

/// `(:[0-5]?[0-9])+` followed by `tail` (the rest after the last group).
fn sexagesimal_groups(s: &[u8], tail: impl Fn(&[u8]) -> bool) -> bool {
    // Groups never contain ':' or '_', so split on ':'.
    let mut parts = s.split(|&b| b == b':');
    if parts.next() != Some(&[][..]) {
        return false;
    }
    let groups: Vec<&[u8]> = parts.collect();
    let Some((last, init)) = groups.split_last() else {
        return false;
    };
    let group_ok = |g: &[u8]| match g {
        [a] => digit(*a),
        [a, b] => (b'0'..=b'5').contains(a) && digit(*b),
        _ => false,
    };
    if !init.iter().all(|g| group_ok(g)) {
        return false;
    }
    // The last group is followed by the tail; try the 2- and 1-digit splits.
    let split = |at: usize| {
        last.split_at_checked(at)
            .is_some_and(|(group, rest)| group_ok(group) && tail(rest))
    };
    split(2) || split(1)
}

fn is_float(s: &[u8]) -> bool {
    let mut c = Cur::new(s);
    // \.[0-9][0-9_]*(exp)? | \.(nan|NaN|NAN)
    if c.eat_byte(b'.') {
        if matches!(
            c.rest(),
            b"nan" | b"NaN" | b"NAN" | b"inf" | b"Inf" | b"INF"
        ) {
            return true;
        }
        return c.eat(digit) && {
            c.eat_while(digit_);
            exponent_then_end(&mut c)
        };
    }
    c.eat(|b| b == b'-' || b == b'+');
    if c.eat_byte(b'.') {
        return matches!(c.rest(), b"inf" | b"Inf" | b"INF");
    }
    if !c.eat(digit) {
        return false;
    }
    c.eat_while(digit_);
    match c.peek() {
        // [0-9][0-9_]*\.[0-9_]*(exp)?
        Some(b'.') => {
            c.i += 1;
            c.eat_while(digit_);
            exponent_then_end(&mut c)
        }
        // [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
        Some(b':') => sexagesimal_groups(c.rest(), |t| {
            t.first() == Some(&b'.') && t.iter().skip(1).all(|&b| digit_(b))
        }),
        _ => false,
    }
}

fn is_int(s: &[u8]) -> bool {
    let mut c = Cur::new(s);
    c.eat(|b| b == b'-' || b == b'+');
    let body = c.rest();
    match body {
        [b'0', b'b', rest @ ..] if !rest.is_empty() => {
            rest.iter().all(|&b| b == b'0' || b == b'1' || b == b'_')
        }
        [b'0', b'x', rest @ ..] if !rest.is_empty() => {
            rest.iter().all(|&b| b.is_ascii_hexdigit() || b == b'_')
        }
        [b'0'] => true,
        [b'0', rest @ ..] => rest
            .iter()
            .all(|&b| (b'0'..=b'7').contains(&b) || b == b'_'),
        [b'1'..=b'9', ..] => {
            c.i += 1;
            c.eat_while(digit_);
            c.done() || (c.peek() == Some(b':') && sexagesimal_groups(c.rest(), |t| t.is_empty()))
        }
        _ => false,
    }
}

fn is_timestamp(s: &[u8]) -> bool {
    let mut c = Cur::new(s);
    let digits = |c: &mut Cur, min: usize, max: usize| {
        let start = c.i;
        while c.i - start < max && c.eat(digit) {}
        c.i - start >= min
    };
    if !(digits(&mut c, 4, 4) && c.eat_byte(b'-')) {
        return false;
    }
    let mon = c.i;
    if !(digits(&mut c, 1, 2) && c.eat_byte(b'-')) {
        return false;
    }
    let two_digit_month = c.i - mon == 3;
    let day = c.i;
    if !digits(&mut c, 1, 2) {
        return false;
    }
    if c.done() {
        // Only the date form `YYYY-MM-DD` may stop here.
        return two_digit_month && c.i - day == 2;
    }
    // ([Tt]|[ \t]+)
    if !c.eat(|b| b == b'T' || b == b't') && c.eat_while(|b| b == b' ' || b == b'\t') == 0 {
        return false;
    }
    if !(digits(&mut c, 1, 2)
        && c.eat_byte(b':')
        && digits(&mut c, 2, 2)
        && c.eat_byte(b':')
        && digits(&mut c, 2, 2))
    {
        return false;
    }
    if c.eat_byte(b'.') {
        c.eat_while(digit);
    }
    if c.done() {
        return true;
    }
    // [ \t]*(Z|[-+][0-9][0-9]?(:[0-9][0-9])?)
    c.eat_while(|b| b == b' ' || b == b'\t');
    if c.eat_byte(b'Z') {
        return c.done();
    }
    if !(c.eat(|b| b == b'-' || b == b'+') && digits(&mut c, 1, 2)) {
        return false;
    }
    if c.eat_byte(b':') {
        return digits(&mut c, 2, 2) && c.done();
    }
    c.done()
}

#[cfg(test)]
mod tests {
    use super::resolves_to_str;

    /// Over code points, and over bytes when ASCII (as the emitter calls
    /// it); both must agree.
    fn str_like(s: &str) -> bool {
        let general = resolves_to_str::<u32>(&s.chars().map(u32::from).collect::<Vec<_>>());
        if s.is_ascii() {
            assert_eq!(resolves_to_str::<u8>(s.as_bytes()), general, "{s:?}");
        }
        general
    }

    #[test]
    fn typed_lookalikes() {
        for s in [
            "",
            "~",
            "null",
            "NULL",
            "yes",
            "No",
            "on",
            "OFF",
            "1",
            "-1",
            "+0",
            "0644",
            "0x1F",
            "0b101",
            "1_000",
            "1:30",
            "-1:30:59",
            "1.5",
            "1.",
            ".5e+3",
            "1.0e+3",
            "1:30.5",
            ".inf",
            ".Inf",
            "-.Inf",
            ".NaN",
            "<<",
            "=",
            "2001-12-14",
            "2001-1-1 1:00:00",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43 Z",
            "yes\n",
            "FALSE\n",
            "0_",
        ] {
            assert!(!str_like(s), "{s:?} should not stay a str");
        }
        for s in [
            "a",
            "1e3",
            "0o17",
            "0o17x",
            "-.5",
            "08",
            "0x",
            "1:60",
            "1:",
            ".",
            "-",
            "+.nan",
            "2001-1-1",
            "2001-12-14 ",
            "2001-12-14 21:59:43 ",
            "2001-12-14 21:59:43+0500",
            "y",
            "n",
            "é",
            "1:30\n\n",
            "nulls",
            "\n",
            "yesyes",
            "FALSE_",
            "~~~~~~",
            "trueish",
            "0644 x",
        ] {
            assert!(str_like(s), "{s:?} should stay a str");
        }
    }
}
