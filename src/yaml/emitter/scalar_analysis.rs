//! `ScalarAnalysis`: which quoting styles can write a scalar's text faithfully.

use super::text_unit::TextUnit;
use crate::byte_scan::has_byte;

/// Line breaks as the YAML 1.1 reader sees them (`\r` is escaped instead).
pub(super) fn is_break(c: u32) -> bool {
    matches!(c, 0x0A | 0x85 | 0x2028 | 0x2029)
}

/// Whitespace for the "preceded/followed by whitespace" indicator rules.
fn is_blank_or_break(c: u32) -> bool {
    matches!(c, 0x00 | 0x20 | 0x09 | 0x0D | 0x0A | 0x85 | 0x2028 | 0x2029)
}

/// Non-ASCII characters a YAML stream may hold unescaped (BOM excluded).
/// U+10FFFF is left out, as PyYAML does.
pub(super) fn is_unicode_printable(c: u32) -> bool {
    (c == 0x85
        || (0xA0..=0xD7FF).contains(&c)
        || (0xE000..=0xFFFD).contains(&c)
        || (0x1_0000..0x10_FFFF).contains(&c))
        && c != 0xFEFF
}

/// Whether all eight bytes of `w` are in `lo..=0x7E` (`lo` at most 0x80)
/// and none is `a` or `b` (exact SWAR tests for "some byte is below /
/// above / equal to").
#[inline]
pub(super) fn ascii_chunk(w: u64, lo: u8, a: u8, b: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = w.wrapping_sub(ONES * u64::from(lo)) & !w & HIGH != 0;
    let above_tilde = (w.wrapping_add(ONES) | w) & HIGH != 0;
    !(below || above_tilde || has_byte(w, a) || has_byte(w, b))
}

/// Whether all eight bytes of `w` are printable ASCII or space and none is
/// ':' or '#'.
#[inline]
fn plain_chunk(w: u64) -> bool {
    ascii_chunk(w, 0x20, b':', b'#')
}

/// Whether `text` is sure to be written plain when dumped as an untagged
/// `str` in block context, whatever the dump's options: one line of
/// printable ASCII without `:` or `#`, no space last, and a first character
/// that is no indicator or space and starts no implicit resolver's pattern
/// (or only the bool and null words', none over five characters). Its
/// analysis is then [`ScalarAnalysis::PLAIN`] and it loads back as a `str`.
/// A loader decides this once per text so that a dump need not analyse it
/// (a false "no" only costs the analysis).
#[inline]
pub(crate) fn plain_safe_str(text: &[u8]) -> bool {
    plain_safe_ends(text) && every_word(text, plain_chunk)
}

/// [`plain_safe_str`] for a text known to be printable ASCII on one line
/// (a loader's whole text is): only `:` and `#` are looked for.
#[inline]
pub(crate) fn plain_safe_printable(text: &[u8]) -> bool {
    plain_safe_ends(text) && every_word(text, |w| !(has_byte(w, b':') || has_byte(w, b'#')))
}

/// Whether `ok` holds for every eight bytes of `text` (non-empty), read as
/// one or two words (overlapping, or bytes of the text repeated) when short.
#[inline(always)]
fn every_word(text: &[u8], ok: impl Fn(u64) -> bool) -> bool {
    let word = |c: Option<&[u8; 8]>| c.is_some_and(|c| ok(u64::from_le_bytes(*c)));
    let half = |c: Option<&[u8; 4]>| c.map_or(0, |c| u64::from(u32::from_le_bytes(*c)));
    match text.len() {
        0 => false,
        n @ 1..4 => {
            let at = |i: usize| text.get(i).copied().unwrap_or(0);
            let (a, b, c) = (at(0), at(n / 2), at(n - 1));
            ok(u64::from_le_bytes([a, b, c, a, a, a, a, a]))
        }
        4..8 => ok(half(text.first_chunk()) | half(text.last_chunk()) << 32),
        8..=16 => word(text.first_chunk()) && word(text.last_chunk()),
        _ => {
            let (chunks, _) = text.as_chunks::<8>();
            chunks.iter().all(|c| ok(u64::from_le_bytes(*c))) && word(text.last_chunk())
        }
    }
}

/// [`plain_safe_str`] for a text known to be printable ASCII without `:`
/// or `#` (a loader's scan found none): its first and last characters and
/// length decide.
#[inline]
pub(crate) fn plain_safe_ends(text: &[u8]) -> bool {
    let (Some(&first), Some(&last)) = (text.first(), text.last()) else {
        return false;
    };
    let min_len = PLAIN_FIRST.get(usize::from(first)).copied().unwrap_or(0);
    min_len != 0 && text.len() >= usize::from(min_len) && last != b' '
}

/// For each first character, the shortest text [`plain_safe_str`] accepts
/// starting with it: 1, or 6 for the bool and null words' first letters
/// (none over five characters), 0 for none.
static PLAIN_FIRST: [u8; 256] = plain_first_lengths();

// Evaluated at compile time: an index out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const fn plain_first_lengths() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut c = b'!';
    while c < 0x7F {
        // The first characters PyYAML's implicit resolvers are registered for
        // (its `!`, `&` and `*` are indicators, left at 0 just below).
        let resolver = crate::yaml::resolver::has_resolvers(c);
        if !crate::yaml::scanner::is_indicator(c) {
            if !resolver {
                t[c as usize] = 1;
            } else if c >= b'A' {
                t[c as usize] = 6;
            }
        }
        c += 1;
    }
    t
}

/// What the text of a scalar allows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct ScalarAnalysis {
    /// The text is empty.
    pub empty: bool,
    /// The text holds a line break.
    pub multiline: bool,
    /// Plain style is possible in block context.
    pub allow_block_plain: bool,
    /// Single quotes are possible.
    pub allow_single_quoted: bool,
    /// A block scalar (`|`) is possible.
    pub allow_block: bool,
}

impl ScalarAnalysis {
    /// The analysis of every text [`plain_safe_str`] accepts.
    pub(super) const PLAIN: ScalarAnalysis = ScalarAnalysis {
        empty: false,
        multiline: false,
        allow_block_plain: true,
        allow_single_quoted: true,
        allow_block: true,
    };

    /// Analyse `text` (code points). `allow_unicode` lets printable non-ASCII
    /// stay unescaped; `escape_nel` treats U+0085 as needing an escape anyway.
    pub(super) fn of<T: TextUnit>(
        text: &[T],
        allow_unicode: bool,
        escape_nel: bool,
    ) -> ScalarAnalysis {
        T::as_ascii(text)
            .and_then(Self::of_ascii)
            .unwrap_or_else(|| Self::of_general(text, allow_unicode, escape_nel))
    }

    /// [`Self::of`] for ASCII text in one pass (`None` at a non-ASCII byte).
    ///
    /// With ASCII only, every rule of the general analysis is about a
    /// character and its neighbours: a break is only "\n", whitespace for the
    /// indicator rules is NUL, space, tab, CR or "\n", and anything outside
    /// "\n" and 0x20..=0x7E is special whatever the options say.
    pub(super) fn of_ascii(text: &[u8]) -> Option<ScalarAnalysis> {
        let (&first, rest) = text.split_first()?;
        let last = text.last().copied().unwrap_or(first);
        let blank = |c: u8| matches!(c, 0x00 | 0x20 | 0x09 | 0x0D | 0x0A);
        let followed_by_ws = |next: Option<&u8>| next.is_none_or(|&c| blank(c));
        let mut indicators = text.starts_with(b"---")
            || text.starts_with(b"...")
            // The scanner's indicators; `?`, `:` and `-` only before whitespace.
            || match first {
                b'?' | b':' | b'-' => followed_by_ws(rest.first()),
                c => crate::yaml::scanner::is_indicator(c),
            };
        let mut line_breaks = first == b'\n';
        let mut special = !(first == b'\n' || (0x20..=0x7E).contains(&first));
        if first >= 0x80 {
            return None;
        }
        // A break next to a space, on either side.
        let mut break_space = first == b'\n' && rest.first() == Some(&b' ');
        let mut space_break = false;
        let mut i = 1;
        while i < text.len() {
            // Eight ordinary characters at a time: printable ASCII or space,
            // no ':' or '#' (the common case; nothing to record).
            while let Some(chunk) = text.get(i..i + 8).and_then(|c| <[u8; 8]>::try_from(c).ok())
                && plain_chunk(u64::from_le_bytes(chunk))
            {
                i += 8;
            }
            // Fewer than eight left: when the eight that end the text are
            // ordinary (some seen already), nothing is left to record.
            if text.len() - i < 8
                && let Some(tail) = text.last_chunk::<8>()
                && plain_chunk(u64::from_le_bytes(*tail))
            {
                break;
            }
            let Some(&c) = text.get(i) else {
                break;
            };
            let prev = text.get(i - 1).copied().unwrap_or(first);
            match c {
                b'\n' => {
                    line_breaks = true;
                    space_break |= prev == b' ';
                    break_space |= text.get(i + 1) == Some(&b' ');
                }
                b':' => indicators |= followed_by_ws(text.get(i + 1)),
                b'#' => indicators |= blank(prev),
                0x20..=0x7E => {}
                0x80.. => return None,
                _ => special = true,
            }
            i += 1;
        }
        let leading_space = first == b' ';
        let leading_break = first == b'\n';
        let trailing_space = last == b' ';
        let trailing_break = last == b'\n';
        Some(Self::verdict(
            line_breaks,
            indicators,
            special,
            leading_space || leading_break || trailing_space || trailing_break,
            trailing_space,
            break_space,
            space_break,
        ))
    }

    /// The general analysis over code points (the reference for
    /// [`Self::of_ascii`]).
    pub(super) fn of_general<T: TextUnit>(
        text: &[T],
        allow_unicode: bool,
        escape_nel: bool,
    ) -> ScalarAnalysis {
        if text.is_empty() {
            return ScalarAnalysis {
                empty: true,
                multiline: false,
                allow_block_plain: true,
                allow_single_quoted: true,
                allow_block: false,
            };
        }
        let n = text.len();
        // A document marker at the start would end the document if written plain.
        let at = |i: usize| text.get(i).map(|&c| c.into());
        let mut block_indicators = matches!(
            (at(0), at(1), at(2)),
            (Some(0x2D), Some(0x2D), Some(0x2D)) | (Some(0x2E), Some(0x2E), Some(0x2E))
        );
        let mut line_breaks = false;
        let mut special = false;
        let (mut leading_space, mut leading_break) = (false, false);
        let (mut trailing_space, mut trailing_break) = (false, false);
        let (mut break_space, mut space_break) = (false, false);
        let (mut prev_space, mut prev_break) = (false, false);
        let followed_by_ws = |i: usize| at(i + 1).is_none_or(is_blank_or_break);
        let mut preceded_by_ws = true;

        let mut i = 0;
        while let Some(&c) = text.get(i) {
            let c: u32 = c.into();
            if i == 0 {
                match c {
                    // # , [ ] { } & * ! | > ' " % @ `
                    0x23 | 0x2C | 0x5B | 0x5D | 0x7B | 0x7D | 0x26 | 0x2A | 0x21 | 0x7C | 0x3E
                    | 0x27 | 0x22 | 0x25 | 0x40 | 0x60 => block_indicators = true,
                    // ? : -
                    0x3F | 0x3A | 0x2D if followed_by_ws(i) => block_indicators = true,
                    _ => {}
                }
            } else if (c == 0x3A && followed_by_ws(i)) || (c == 0x23 && preceded_by_ws) {
                block_indicators = true;
            }
            if is_break(c) {
                line_breaks = true;
            }
            if !(c == 0x0A || (0x20..=0x7E).contains(&c)) {
                let printable = is_unicode_printable(c) && !(escape_nel && c == 0x85);
                if !(printable && allow_unicode) {
                    special = true;
                }
            }
            if c == 0x20 {
                leading_space |= i == 0;
                trailing_space |= i == n - 1;
                break_space |= prev_break;
                prev_space = true;
                prev_break = false;
            } else if is_break(c) {
                leading_break |= i == 0;
                trailing_break |= i == n - 1;
                space_break |= prev_space;
                prev_space = false;
                prev_break = true;
            } else {
                prev_space = false;
                prev_break = false;
            }
            preceded_by_ws = is_blank_or_break(c);
            i += 1;
            // Fast path past the first position: printable ASCII that is no
            // indicator, and inner spaces, only update the neighbour flags.
            while let Some(&c) = text.get(i) {
                match c.into() {
                    0x3A | 0x23 => break,
                    0x21..=0x7E => {
                        prev_space = false;
                        prev_break = false;
                        preceded_by_ws = false;
                    }
                    0x20 if i + 1 < n => {
                        break_space |= prev_break;
                        prev_space = true;
                        prev_break = false;
                        preceded_by_ws = true;
                    }
                    _ => break,
                }
                i += 1;
            }
        }

        Self::verdict(
            line_breaks,
            block_indicators,
            special,
            leading_space || leading_break || trailing_space || trailing_break,
            trailing_space,
            break_space,
            space_break,
        )
    }

    /// The styles the observations allow (for non-empty text).
    #[allow(clippy::fn_params_excessive_bools)]
    fn verdict(
        line_breaks: bool,
        block_indicators: bool,
        special: bool,
        space_or_break_at_ends: bool,
        trailing_space: bool,
        break_space: bool,
        space_break: bool,
    ) -> ScalarAnalysis {
        let mut a = ScalarAnalysis {
            empty: false,
            multiline: line_breaks,
            allow_block_plain: true,
            allow_single_quoted: true,
            allow_block: true,
        };
        if space_or_break_at_ends {
            a.allow_block_plain = false;
        }
        if trailing_space {
            a.allow_block = false;
        }
        if break_space {
            a.allow_block_plain = false;
            a.allow_single_quoted = false;
        }
        if space_break || special {
            a.allow_block_plain = false;
            a.allow_single_quoted = false;
            a.allow_block = false;
        }
        if line_breaks || block_indicators {
            a.allow_block_plain = false;
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::super::implicit_resolver::resolves_to_str;
    use super::{ScalarAnalysis, plain_safe_ends, plain_safe_printable, plain_safe_str};

    /// Bytes the rules single out, plus ordinary ones.
    const ALPHABET: &[u8] = b" \n:#-.?a'\"\t\r\0\x7f\x01!|>%@`,[]{}&*~0";

    fn check(text: &[u8]) {
        let fast = ScalarAnalysis::of_ascii(text);
        let cps: Vec<u32> = text.iter().map(|&b| u32::from(b)).collect();
        for (u, nel) in [(false, false), (true, true), (true, false)] {
            let general = ScalarAnalysis::of_general(text, u, nel);
            assert_eq!(general, ScalarAnalysis::of_general(&cps, u, nel));
            if !text.is_empty() {
                assert_eq!(fast, Some(general), "{text:?}");
            }
            assert_eq!(ScalarAnalysis::of(text, u, nel), general, "{text:?}");
        }
    }

    /// Every text of up to 4 bytes over an alphabet of the bytes the rules
    /// single out, and longer ones: an accepted text analyses as `PLAIN`
    /// and loads back as a `str` written plain.
    #[test]
    fn plain_safe_texts_are_written_plain() {
        const A: &[u8] = b"atnoyYF0-.:# /~<?@=+\n'\x7f\x1f!";
        let check = |t: &[u8]| {
            let clean = t
                .iter()
                .all(|&c| (0x20..0x7F).contains(&c) && c != b':' && c != b'#');
            if clean {
                assert_eq!(plain_safe_ends(t), plain_safe_str(t), "{t:?}");
            }
            if t.iter().all(|&c| (0x20..0x7F).contains(&c)) {
                assert_eq!(plain_safe_printable(t), plain_safe_str(t), "{t:?}");
            }
            if plain_safe_str(t) {
                assert_eq!(
                    ScalarAnalysis::of_ascii(t),
                    Some(ScalarAnalysis::PLAIN),
                    "{t:?}"
                );
                assert!(resolves_to_str(t), "{t:?}");
            }
        };
        let mut accepted = 0;
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for t in &texts {
                for &c in A {
                    let mut u = t.clone();
                    u.push(c);
                    check(&u);
                    accepted += usize::from(plain_safe_str(&u));
                    longer.push(u);
                }
            }
            texts = longer;
        }
        assert!(accepted > 10_000, "{accepted}");
        // Every first byte, at every length about the word sizes.
        for first in 0..=255u8 {
            for len in 1..=20 {
                let mut t = vec![b'a'; len];
                if let Some(x) = t.first_mut() {
                    *x = first;
                }
                check(&t);
            }
        }
        // Longer texts: every byte of the alphabet at every position of
        // texts either side of the word sizes.
        for len in [5, 6, 7, 8, 9, 15, 16, 17, 24, 31, 40] {
            let base: Vec<u8> = (0..len).map(|i| b'a' + (i % 8) as u8).collect();
            assert!(plain_safe_str(&base), "{len}");
            for pos in 0..len {
                for &c in A.iter().chain(b"\x80\xff\x00\t") {
                    let mut t = base.clone();
                    if let Some(x) = t.get_mut(pos) {
                        *x = c;
                    }
                    check(&t);
                }
            }
        }
        for (t, plain) in [
            (&b"nginx"[..], false),
            (b"root:root", false),
            (b"-c", false),
            (b"0.pool", false),
            (b"...x", false),
            (b"a #b", false),
            (b"y", false),
            (b"", false),
            (b"yes", false),
            (b"~", false),
            (b"echo delta-12-0", true),
            (b"/etc/x.conf", true),
            (b"touch /tmp/a", true),
            (b"sh", true),
            (b"path", true),
            (b"~/x/yz", true),
        ] {
            assert_eq!(plain_safe_str(t), plain, "{t:?}");
        }
    }

    #[test]
    fn ascii_fast_path_agrees_with_the_general_analysis() {
        // Every text of up to 3 characters over the alphabet…
        let a = ALPHABET;
        check(b"");
        for &x in a {
            check(&[x]);
            for &y in a {
                check(&[x, y]);
                for &z in a {
                    check(&[x, y, z]);
                }
            }
        }
        // …and many longer ones.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let len = (next() % 40) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next();
                    if r % 3 == 0 {
                        b'a' + (r >> 8) as u8 % 26
                    } else {
                        a.get((r >> 8) as usize % a.len()).copied().unwrap_or(b'a')
                    }
                })
                .collect();
            check(&text);
        }
        assert_eq!(ScalarAnalysis::of_ascii("é".as_bytes()), None);
        assert_eq!(ScalarAnalysis::of_ascii(b"ab\xC3\xA9"), None);
        assert_eq!(
            ScalarAnalysis::of_ascii(b"abcdefghij\xC3\xA9klmnopqrstuvw"),
            None
        );
        assert_eq!(
            ScalarAnalysis::of_ascii(b"abcdefghijklmnopqrstuvw\x80"),
            None
        );
        // Each special byte inside and at the edges of eight-byte chunks.
        for pos in 0..20 {
            for &b in ALPHABET.iter().chain(b"\x1f\x7e\x20\x7f") {
                let mut t = b"0123456789abcdefghij".to_vec();
                if let Some(x) = t.get_mut(pos) {
                    *x = b;
                }
                check(&t);
            }
        }
    }
}
