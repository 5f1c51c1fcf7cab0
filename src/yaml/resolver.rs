//! Implicit tag resolution of plain scalars, as PyYAML's YAML 1.1 `Resolver`.
//!
//! PyYAML picks candidate resolvers by the scalar's first character and tries
//! them in registration order (bool, float, int, merge, null, timestamp,
//! value, yaml); the first whose regex matches wins, else `str`. The regexes are
//! hand-written matchers here; a Python `$` also matches before one final
//! newline, which matters for quoted scalars tagged `!`.

use super::tag::Tag;
use super::timestamp_fields::{is_implicit_timestamp, strip_dollar_newline};

/// A resolver: the tag and its pattern.
type Candidate = (Tag<'static>, fn(&str) -> bool);

/// The tag PyYAML's resolver gives a scalar that was written plain (or
/// tagged `!`).
// Inlined: most plain scalars (keys, names, commands) start with a
// character no resolver is registered for, and are `str` at once.
#[inline]
pub(crate) fn resolve_plain(value: &str) -> Tag<'static> {
    match value.as_bytes().first() {
        None => Tag::Null,
        Some(&first) if has_resolvers(first) => resolve_candidates(value, first),
        Some(_) => Tag::Str,
    }
}

/// Whether [`resolve_plain`] may resolve `value` to anything but `str`
/// (`false`: it is a `str`), from its first two bytes: a loader's check
/// before the call. A sign starts a float or int only before a digit or
/// `.` (every pattern for them: `[-+]?[0-9]…`, `[-+]?\.(inf|Inf|INF)`), so
/// `-c` or `--force` are `str` at once.
#[inline]
pub(crate) fn may_resolve(value: &str) -> bool {
    let b = value.as_bytes();
    match b.first() {
        None => true,
        Some(b'-' | b'+') => matches!(b.get(1), Some(b'0'..=b'9' | b'.')),
        Some(&c) => RESOLVED_FIRST.get(usize::from(c)).copied().unwrap_or(false),
    }
}

/// [`has_resolvers`] for every byte.
static RESOLVED_FIRST: [bool; 256] = resolved_first();

// Evaluated at compile time: an index out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const fn resolved_first() -> [bool; 256] {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = has_resolvers(c as u8);
        c += 1;
    }
    t
}

/// Whether PyYAML registers a resolver for scalars starting with `c`.
pub(crate) const fn has_resolvers(c: u8) -> bool {
    matches!(
        c,
        b'y' | b'Y'
            | b't'
            | b'T'
            | b'f'
            | b'F'
            | b'o'
            | b'O'
            | b'n'
            | b'N'
            | b'~'
            | b'-'
            | b'+'
            | b'0'..=b'9' | b'.' | b'<' | b'=' | b'!' | b'&' | b'*'
    )
}

/// [`resolve_plain`] for a non-empty `value` starting with `first`.
fn resolve_candidates(value: &str, first: u8) -> Tag<'static> {
    let s = strip_dollar_newline(value);
    let digit = first.is_ascii_digit();
    let candidates: &[Candidate] = match first {
        b'y' | b'Y' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' => &[(Tag::Bool, is_bool)],
        b'n' | b'N' => &[(Tag::Bool, is_bool), (Tag::Null, is_null)],
        b'~' => &[(Tag::Null, is_null)],
        b'-' | b'+' => &[(Tag::Float, is_float), (Tag::Int, is_int)],
        _ if digit => &[
            (Tag::Float, is_float),
            (Tag::Int, is_int),
            (Tag::Timestamp, is_implicit_timestamp),
        ],
        b'.' => &[(Tag::Float, is_float)],
        b'<' => &[(Tag::Merge, |s| s == "<<")],
        b'=' => &[(Tag::Value, |s| s == "=")],
        b'!' | b'&' | b'*' => &[(Tag::Yaml, |s| matches!(s, "!" | "&" | "*"))],
        _ => &[],
    };
    candidates
        .iter()
        .find(|(_, matches)| matches(s))
        .map_or(Tag::Str, |(tag, _)| tag.clone())
}

fn is_bool(s: &str) -> bool {
    matches!(
        s,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

fn is_null(s: &str) -> bool {
    matches!(s, "~" | "null" | "Null" | "NULL" | "")
}

/// Skip bytes matching `pred`; returns the new position.
fn skip(b: &[u8], mut i: usize, pred: impl Fn(u8) -> bool) -> usize {
    while b.get(i).is_some_and(|&c| pred(c)) {
        i += 1;
    }
    i
}

fn digit_or_us(c: u8) -> bool {
    c.is_ascii_digit() || c == b'_'
}

fn sign_len(b: &[u8]) -> usize {
    usize::from(matches!(b.first(), Some(b'-' | b'+')))
}

/// `[eE][-+][0-9]+` to the end.
fn exponent_to_end(b: &[u8], i: usize) -> bool {
    if i == b.len() {
        return true;
    }
    if !matches!(b.get(i), Some(b'e' | b'E')) || !matches!(b.get(i + 1), Some(b'-' | b'+')) {
        return false;
    }
    let j = skip(b, i + 2, |c| c.is_ascii_digit());
    j > i + 2 && j == b.len()
}

/// One or more `:[0-5]?[0-9]` groups from `i`; returns the position after.
fn sexagesimal_groups(b: &[u8], mut i: usize) -> Option<usize> {
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        let d1 = b.get(i + 1).copied().filter(u8::is_ascii_digit)?;
        let two = b.get(i + 2).is_some_and(u8::is_ascii_digit);
        if two {
            if d1 > b'5' {
                return None;
            }
            i += 3;
        } else {
            i += 2;
        }
        groups += 1;
    }
    (groups > 0).then_some(i)
}

/// PyYAML's float pattern:
/// `[-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?`
/// | `\.[0-9][0-9_]*([eE][-+][0-9]+)?`
/// | `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`
/// | `[-+]?\.(inf|Inf|INF)` | `\.(nan|NaN|NAN)`.
fn is_float(s: &str) -> bool {
    let b = s.as_bytes();
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let sl = sign_len(b);
    let rest = b.get(sl..).unwrap_or_default();
    if matches!(rest, b".inf" | b".Inf" | b".INF") {
        return true;
    }
    match rest.first() {
        Some(b'.') if sl == 0 => {
            if !rest.get(1).is_some_and(u8::is_ascii_digit) {
                return false;
            }
            let j = skip(b, 2, digit_or_us);
            exponent_to_end(b, j)
        }
        Some(c) if c.is_ascii_digit() => {
            let j = skip(b, sl + 1, digit_or_us);
            match b.get(j) {
                Some(b'.') => {
                    let k = skip(b, j + 1, digit_or_us);
                    exponent_to_end(b, k)
                }
                Some(b':') => match sexagesimal_groups(b, j) {
                    Some(k) if b.get(k) == Some(&b'.') => skip(b, k + 1, digit_or_us) == b.len(),
                    _ => false,
                },
                _ => false,
            }
        }
        _ => false,
    }
}

/// PyYAML's int pattern:
/// `[-+]?0b[0-1_]+` | `[-+]?0[0-7_]+` | `[-+]?(0|[1-9][0-9_]*)`
/// | `[-+]?0x[0-9a-fA-F_]+` | `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`.
fn is_int(s: &str) -> bool {
    let b = s.as_bytes();
    let sl = sign_len(b);
    let r = b.get(sl..).unwrap_or_default();
    match r {
        [b'0'] => true,
        [b'0', b'b', tail @ ..] => {
            !tail.is_empty() && tail.iter().all(|&c| matches!(c, b'0' | b'1' | b'_'))
        }
        [b'0', b'x', tail @ ..] => {
            !tail.is_empty() && tail.iter().all(|&c| c.is_ascii_hexdigit() || c == b'_')
        }
        [b'0', tail @ ..] => tail.iter().all(|&c| matches!(c, b'0'..=b'7' | b'_')),
        [b'1'..=b'9', ..] => {
            let j = skip(b, sl + 1, digit_or_us);
            j == b.len() || sexagesimal_groups(b, j) == Some(b.len())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Tag<'static> {
        resolve_plain(s)
    }

    #[test]
    fn scalars() {
        for s in ["yes", "No", "ON", "off", "TRUE", "False"] {
            assert_eq!(r(s), Tag::Bool, "{s}");
        }
        for s in ["y", "n", "YeS", "tRue", "o"] {
            assert_eq!(r(s), Tag::Str, "{s}");
        }
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(r(s), Tag::Null, "{s}");
        }
        for s in [
            "0",
            "-0",
            "+12",
            "0755",
            "0_",
            "0b1_0",
            "0x_",
            "0xFF",
            "1_000",
            "1:30",
            "-1:30:59",
            "190:20:30",
        ] {
            assert_eq!(r(s), Tag::Int, "{s}");
        }
        for s in [
            "1.0", "1.", "-1.5e+3", ".5", "._", ".inf", "-.Inf", "+.INF", ".nan", "1_0.0_1",
            "1:30.5", "1:30.", "1.0e-10",
        ] {
            if s == "._" {
                assert_eq!(r(s), Tag::Str, "{s}");
            } else {
                assert_eq!(r(s), Tag::Float, "{s}");
            }
        }
        for s in [
            "1e3", "1.0e3", "-.nan", "0b", "0x", "089", "1:60", "1:123", "0:30", "+.nan", ".",
            "1.0e+", "1.0e+3x", "12:3a",
        ] {
            assert_eq!(r(s), Tag::Str, "{s}");
        }
        assert_eq!(r("0:30.5"), Tag::Float);
        assert_eq!(r("2002-12-14"), Tag::Timestamp);
        assert_eq!(r("<<"), Tag::Merge);
        assert_eq!(r("="), Tag::Value);
        assert_eq!(r("1\n"), Tag::Int);
        assert_eq!(r("\n"), Tag::Str);
        assert_eq!(r("0o17"), Tag::Str);
    }

    /// What `may_resolve` rules out is a `str`: every text of up to 4
    /// characters after a sign over the bytes the patterns use, and every
    /// first byte.
    #[test]
    fn may_resolve_rules_out_only_strs() {
        for c in 0..=255u8 {
            for tail in ["", "1", ".inf", "es", "ull", "<"] {
                let mut s = String::from(char::from(c));
                s.push_str(tail);
                if !may_resolve(&s) {
                    assert_eq!(r(&s), Tag::Str, "{s:?}");
                }
            }
        }
        assert!(may_resolve(""));
        assert!(!may_resolve("-c") && !may_resolve("sh") && !may_resolve("+x"));
        const A: &[u8] = b"01789._:abeEfiInNxX+- \n";
        let mut texts: Vec<Vec<u8>> = vec![b"-".to_vec(), b"+".to_vec()];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for t in &texts {
                let s = std::str::from_utf8(t).unwrap();
                if !may_resolve(s) {
                    assert_eq!(r(s), Tag::Str, "{s:?}");
                }
                for &c in A {
                    let mut u = t.clone();
                    u.push(c);
                    longer.push(u);
                }
            }
            texts = longer;
        }
        for t in ["-.inf", "+.Inf", "-1", "+0x1F", "-1:30", "-1.5e+3"] {
            assert_ne!(r(t), Tag::Str, "{t}");
        }
    }
}
