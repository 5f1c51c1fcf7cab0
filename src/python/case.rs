//! Python's `str` case methods (`lower`, `upper`, `title`, `capitalize`, `swapcase`, `casefold`, `islower`, `isupper`, `istitle`) on CPython 3.11's tables.
//!
//! Rust's `char::to_lowercase` follows a newer Unicode than CPython 3.11's
//! (14.0): 55 code points lower-case differently, so every case operation
//! goes through the generated tables in `case_table` (compared with the real
//! interpreter, code point by code point, in `tests/oracle/python_tables.rs`).

use super::case_table::{
    CASE_IGNORABLE, FOLD_MULTI, FOLD_RUNS, LOWER_MULTI, LOWER_RUNS, LOWERCASE, TITLE_MULTI,
    TITLE_RUNS, TITLECASE, UPPER_MULTI, UPPER_RUNS, UPPERCASE,
};

const CAPITAL_SIGMA: char = '\u{03A3}';

/// Whether `cp` is in one of `runs` (`(first, last, step)`, sorted, disjoint).
fn in_runs(runs: &[(u32, u32, u32)], cp: u32) -> bool {
    let i = runs.partition_point(|r| r.0 <= cp);
    i.checked_sub(1)
        .and_then(|i| runs.get(i))
        .is_some_and(|&(first, last, step)| cp <= last && (cp - first).is_multiple_of(step))
}

/// One code point's mapping through a generated table: pushed to `out`.
fn push_mapped(out: &mut String, c: char, runs: &[(u32, u32, u32, i32)], multi: &[(u32, &str)]) {
    let cp = u32::from(c);
    let i = runs.partition_point(|r| r.0 <= cp);
    if let Some(&(first, last, step, delta)) = i.checked_sub(1).and_then(|i| runs.get(i))
        && cp <= last
        && (cp - first).is_multiple_of(step)
        && let Some(m) = cp.checked_add_signed(delta).and_then(char::from_u32)
    {
        out.push(m);
        return;
    }
    match multi.binary_search_by_key(&cp, |m| m.0) {
        Ok(i) => out.push_str(multi.get(i).map_or("", |m| m.1)),
        Err(_) => out.push(c),
    }
}

/// CPython's `Py_UNICODE_ISLOWER` (the Lowercase property).
fn is_lowercase(c: char) -> bool {
    in_runs(LOWERCASE, u32::from(c))
}

/// CPython's `Py_UNICODE_ISUPPER` (the Uppercase property).
fn is_uppercase(c: char) -> bool {
    in_runs(UPPERCASE, u32::from(c))
}

/// CPython's `Py_UNICODE_ISTITLE` (general category Lt).
fn is_titlecase(c: char) -> bool {
    in_runs(TITLECASE, u32::from(c))
}

/// CPython's `_PyUnicode_IsCased`: Lowercase, Uppercase or Lt.
fn is_cased(c: char) -> bool {
    is_lowercase(c) || is_uppercase(c) || is_titlecase(c)
}

fn is_case_ignorable(c: char) -> bool {
    in_runs(CASE_IGNORABLE, u32::from(c))
}

/// CPython's `handle_capital_sigma`: whether the capital sigma that ends
/// `before` (and is followed by `after`) is word-final, so lowers to `ς`.
fn final_sigma(before: &str, after: &str) -> bool {
    let cased_past_ignorables =
        |mut it: std::str::Chars<'_>, back: bool| -> Option<bool> {
            loop {
                let c = if back { it.next_back()? } else { it.next()? };
                if !is_case_ignorable(c) {
                    return Some(is_cased(c));
                }
            }
        };
    cased_past_ignorables(before.chars(), true) == Some(true)
        && cased_past_ignorables(after.chars(), false) != Some(true)
}

/// CPython's `lower_ucs4`: `c` at byte `at` of `s` lowered (the capital sigma
/// by its context).
fn push_lower_at(out: &mut String, s: &str, at: usize, c: char) {
    if c == CAPITAL_SIGMA {
        let before = s.get(..at).unwrap_or("");
        let after = s.get(at + c.len_utf8()..).unwrap_or("");
        out.push(if final_sigma(before, after) {
            '\u{03C2}'
        } else {
            '\u{03C3}'
        });
    } else {
        push_mapped(out, c, LOWER_RUNS, LOWER_MULTI);
    }
}

fn push_upper(out: &mut String, c: char) {
    push_mapped(out, c, UPPER_RUNS, UPPER_MULTI);
}

fn push_title(out: &mut String, c: char) {
    push_mapped(out, c, TITLE_RUNS, TITLE_MULTI);
}

/// `s.lower()`.
pub fn py_lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(s.len());
    for (at, c) in s.char_indices() {
        push_lower_at(&mut out, s, at, c);
    }
    out
}

/// `a.lower() == b.lower()`.
// Inlined: the callers look header names up against literals, whose
// ASCII test then folds away; the rare non-ASCII case stays out of line.
#[inline]
pub fn py_eq_lower(a: &str, b: &str) -> bool {
    // Equal but for ASCII case: equal lowered, whatever else they hold. A
    // header name is mostly looked up in its usual spelling, which one
    // comparison of bytes finds (the case-blind one goes byte by byte).
    if a == b || a.eq_ignore_ascii_case(b) {
        return true;
    }
    // Otherwise only a non-ASCII character can lower to make them equal:
    // against ASCII `b`, only the Kelvin sign (three bytes lowered to `k`),
    // so `a` must be longer by an even count — a length test, most often,
    // rather than a scan of `a`.
    if b.is_ascii() {
        let longer = a.len() > b.len() && (a.len() - b.len()).is_multiple_of(2);
        if !longer || a.is_ascii() {
            return false;
        }
    }
    eq_lowered(a, b)
}

#[cold]
fn eq_lowered(a: &str, b: &str) -> bool {
    py_lower(a) == py_lower(b)
}

/// `s.upper()`.
pub fn py_upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_upper(&mut out, c);
    }
    out
}

/// `s.casefold()`.
pub fn py_casefold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_mapped(&mut out, c, FOLD_RUNS, FOLD_MULTI);
    }
    out
}

/// `s.title()`: title case after an uncased code point, lower case after a cased one.
pub fn py_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_cased = false;
    for (at, c) in s.char_indices() {
        if prev_cased {
            push_lower_at(&mut out, s, at, c);
        } else {
            push_title(&mut out, c);
        }
        prev_cased = is_cased(c);
    }
    out
}

/// `s.capitalize()`: the first code point title-cased, the rest lowered.
pub fn py_capitalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (at, c) in s.char_indices() {
        if at == 0 {
            push_title(&mut out, c);
        } else {
            push_lower_at(&mut out, s, at, c);
        }
    }
    out
}

/// `s.swapcase()`: upper case lowered, lower case raised, the rest kept.
pub fn py_swapcase(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (at, c) in s.char_indices() {
        if is_uppercase(c) {
            push_lower_at(&mut out, s, at, c);
        } else if is_lowercase(c) {
            push_upper(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// `s.islower()`: some lower-case code point, none upper or title case.
pub fn py_islower(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if is_uppercase(c) || is_titlecase(c) {
            return false;
        }
        cased |= is_lowercase(c);
    }
    cased
}

/// `s.isupper()`: some upper-case code point, none lower or title case.
pub fn py_isupper(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if is_lowercase(c) || is_titlecase(c) {
            return false;
        }
        cased |= is_uppercase(c);
    }
    cased
}

/// `s.istitle()`: upper and title case only after uncased code points, lower
/// case only after cased ones, and at least one cased code point.
pub fn py_istitle(s: &str) -> bool {
    let mut cased = false;
    let mut prev_cased = false;
    for c in s.chars() {
        if is_uppercase(c) || is_titlecase(c) {
            if prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else if is_lowercase(c) {
            if !prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else {
            prev_cased = false;
        }
    }
    cased
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ascii_and_the_kelvin_sign_lower_to_ascii() {
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let lowered = py_lower(&c.to_string());
            if lowered.is_ascii() {
                assert!(c.is_ascii() || c == '\u{212A}', "U+{:04X}", u32::from(c));
            }
        }
    }

    #[test]
    fn eq_lower_is_lower_then_compare() {
        let alphabet = ["k", "K", "\u{212A}", "a", "-", "\u{130}", "i", "\u{3a3}", "\u{3c3}", "\u{e9}"];
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let text = |x: &mut u64| -> String {
            *x ^= *x << 13;
            *x ^= *x >> 7;
            *x ^= *x << 17;
            let len = (*x % 5) as usize;
            (0..len)
                .filter_map(|k| alphabet.get(((*x >> (4 * k + 3)) % alphabet.len() as u64) as usize))
                .copied()
                .collect()
        };
        for _ in 0..40_000 {
            let (a, b) = (text(&mut x), text(&mut x));
            assert_eq!(py_eq_lower(&a, &b), py_lower(&a) == py_lower(&b), "{a:?} {b:?}");
        }
        assert!(py_eq_lower("\u{212A}ey", "key"));
        assert!(!py_eq_lower("\u{212A}e", "key"));
    }

    #[test]
    fn case_follows_python() {
        assert_eq!(py_lower("DICT(No-Replace)"), "dict(no-replace)");
        // The Kelvin sign lower-cases to an ASCII `k`, as in Python.
        assert_eq!(py_lower("\u{212a}"), "k");
        assert!(py_eq_lower("Content-Type", "content-TYPE"));
        assert!(py_eq_lower("\u{212a}", "K"));
        assert!(py_eq_lower("\u{c9}tat", "\u{c9}TAT") && py_eq_lower("\u{c9}", "\u{e9}"));
        assert!(!py_eq_lower("type", "typ") && !py_eq_lower("\u{c9}", "e"));
        // Final sigma by context; a lone one is not final.
        assert_eq!(py_lower("ΟΔΟΣ ΣΑ Σ"), "οδος σα σ");
        assert_eq!(py_upper("stra\u{df}e"), "STRASSE");
        assert_eq!(py_casefold("Stra\u{df}e"), "strasse");
        assert_eq!(py_title("hello wORLD ǆ"), "Hello World ǅ");
        assert_eq!(py_capitalize("\u{df}AB"), "Ssab");
        assert_eq!(py_swapcase("aBǅ"), "Abǅ");
        assert!(py_islower("abc 1") && !py_islower("1"));
        assert!(py_isupper("AB 1") && !py_isupper("Ab"));
        assert!(py_istitle("Hello World") && !py_istitle("HEllo"));
        // U+A7C0 (Unicode 14) lowers to U+A7C1 in Python 3.11; U+A7CB (Unicode
        // 16, unassigned in 14) stays as it is, where Rust's tables lower it.
        assert_eq!(py_lower("\u{a7c0}\u{a7cb}"), "\u{a7c1}\u{a7cb}");
    }
}
