//! `PyStr`: a Python `str`, which may hold lone surrogate code points.

use std::fmt;

/// A Python string: a sequence of Unicode code points, where — unlike Rust's
/// `str` — lone surrogates (U+D800..U+DFFF) are allowed.
///
/// They arise from YAML escapes such as `"\uD83D"` (PyYAML never pairs them)
/// and from bytes decoded with `surrogateescape`. Storage is "generalized
/// UTF-8": every code point, surrogates included, is encoded on its own in the
/// usual 1–4 byte form, so a surrogate pair stays two code points (as in
/// Python) and byte order equals code point order (as Python compares).
///
/// Invariant: the `Wide` form is used only when at least one surrogate is
/// present. Equality, hashing and order are on the bytes, whatever the form.
#[derive(Clone)]
pub struct PyStr(Repr);

/// Longest UTF-8 text kept inline: keys and most values of a cloud-config
/// (package names, short commands, paths) are this short, and then cost no
/// allocation of their own. A `PyStr` is then 32 bytes, and so is a `Value`
/// (a `Map` or `Seq` is 24): with its span and counts a node is one 80-byte
/// allocation. At 54 bytes inline a node was 112 bytes, at 70 it was 128;
/// every command's tree of a long list is that many bytes per item
/// (benches/README.md, 2026-11-28 (morning)).
const INLINE: usize = 30;

#[derive(Clone)]
enum Repr {
    /// Valid UTF-8 of up to [`INLINE`] bytes: length, bytes.
    Inline(u8, [u8; INLINE]),
    /// `Inline` and `Utf8` for a loaded text that a dump is sure to write
    /// plain (see [`PyStr::is_plain_safe`]). Variants rather than a bit:
    /// every `match` on the form has to say what it does with them.
    InlinePlain(u8, [u8; INLINE]),
    Utf8(Box<str>),
    Utf8Plain(Box<str>),
    Wide(Box<[u8]>),
}

/// `dst[..src.len()] = src`, `None` (nothing written) if `src` does not fit.
/// At most two fixed-size copies, which may overlap: a loader stores every
/// short scalar this way, and the `memcpy` call a copy of variable length
/// makes cost more than the copy.
fn copy_inline(dst: &mut [u8; INLINE], src: &[u8]) -> Option<()> {
    /// The first and the last `K` bytes of `src` (`K <= src.len()`).
    fn ends<const K: usize>(dst: &mut [u8], src: &[u8]) -> Option<()> {
        let n = src.len();
        dst.first_chunk_mut::<K>()?
            .copy_from_slice(src.first_chunk::<K>()?);
        dst.get_mut(n.checked_sub(K)?..n)?
            .copy_from_slice(src.last_chunk::<K>()?);
        Some(())
    }
    match src.len() {
        0 => Some(()),
        // First, middle and last byte: every byte of a text this short.
        n @ 1..4 => {
            for i in [0, n / 2, n - 1] {
                *dst.get_mut(i)? = *src.get(i)?;
            }
            Some(())
        }
        4..8 => ends::<4>(dst, src),
        8..16 => ends::<8>(dst, src),
        16..=INLINE => ends::<16>(dst, src),
        _ => None,
    }
}

impl PartialEq for PyStr {
    fn eq(&self, other: &Self) -> bool {
        bytes_eq(self.as_wtf8(), other.as_wtf8())
    }
}

/// `a == b`, short texts (most dict keys) compared in a few word loads
/// rather than by a call to `bcmp`: a merge looks keys up by scanning.
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    // Two loads that overlap when the length is not twice the word size.
    fn ends<const N: usize>(s: &[u8]) -> Option<([u8; N], [u8; N])> {
        let head = s.first_chunk::<N>()?;
        let tail = s.last_chunk::<N>()?;
        Some((*head, *tail))
    }
    match a.len() {
        0 => true,
        // First, middle and last byte: every byte of a text this short.
        n @ 1..4 => [0, n / 2, n - 1].iter().all(|&i| a.get(i) == b.get(i)),
        4..8 => ends::<4>(a) == ends::<4>(b),
        8..=16 => ends::<8>(a) == ends::<8>(b),
        _ => a == b,
    }
}

impl Eq for PyStr {}

impl std::hash::Hash for PyStr {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_wtf8().hash(state);
    }
}

impl PartialOrd for PyStr {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Byte order is code point order (see above), as Python compares.
impl Ord for PyStr {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_wtf8().cmp(other.as_wtf8())
    }
}

impl Repr {
    fn as_bytes(&self) -> &[u8] {
        match self {
            Repr::Inline(n, b) | Repr::InlinePlain(n, b) => {
                b.get(..usize::from(*n)).unwrap_or_default()
            }
            Repr::Utf8(s) | Repr::Utf8Plain(s) => s.as_bytes(),
            Repr::Wide(b) => b,
        }
    }

    /// Valid UTF-8 text: inline when short.
    fn text(s: &str) -> Repr {
        match Self::inline(s) {
            Some(r) => r,
            None => Repr::Utf8(s.into()),
        }
    }

    fn inline(s: &str) -> Option<Repr> {
        let mut b = [0u8; INLINE];
        copy_inline(&mut b, s.as_bytes())?;
        Some(Repr::Inline(s.len() as u8, b))
    }

    /// Valid UTF-8 text already owned: inline when short.
    fn owned(s: String) -> Repr {
        match Self::inline(&s) {
            Some(r) => r,
            None => Repr::Utf8(s.into_boxed_str()),
        }
    }
}

impl PyStr {
    /// The string as `&str`, if it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            // Copied from a `str` on a char boundary: always valid.
            Repr::Inline(..) | Repr::InlinePlain(..) => std::str::from_utf8(self.0.as_bytes()).ok(),
            Repr::Utf8(s) | Repr::Utf8Plain(s) => Some(s),
            Repr::Wide(_) => None,
        }
    }

    /// The generalized-UTF-8 bytes (plain UTF-8 when there is no surrogate).
    pub fn as_wtf8(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// Whether the string holds a lone surrogate.
    pub fn has_surrogates(&self) -> bool {
        matches!(self.0, Repr::Wide(_))
    }

    /// Code points, surrogates included.
    pub fn chars(&self) -> PyChars<'_> {
        PyChars {
            bytes: self.as_wtf8(),
        }
    }

    /// Number of code points (Python's `len`).
    pub fn char_len(&self) -> usize {
        self.as_wtf8()
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count()
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.as_wtf8().is_empty()
    }

    /// Build from code points (`u32`, surrogates allowed; values above
    /// U+10FFFF are not code points and are replaced by U+FFFD).
    pub fn from_code_points<I: IntoIterator<Item = u32>>(cps: I) -> PyStr {
        let mut b = PyStrBuilder::new();
        for cp in cps {
            b.push_code_point(cp);
        }
        b.finish()
    }

    /// Decode bytes as UTF-8 with Python's `surrogateescape` error handler:
    /// every byte of an invalid sequence becomes U+DC80..U+DCFF.
    pub fn from_utf8_surrogateescape(bytes: &[u8]) -> PyStr {
        match std::str::from_utf8(bytes) {
            Ok(s) => PyStr::from(s),
            Err(_) => {
                let mut b = PyStrBuilder::new();
                for chunk in bytes.utf8_chunks() {
                    b.push_str(chunk.valid());
                    for &byte in chunk.invalid() {
                        b.push_code_point(0xDC00 + u32::from(byte));
                    }
                }
                b.finish()
            }
        }
    }

    /// Encode as UTF-8 with `surrogateescape` (U+DC80..U+DCFF back to bytes);
    /// `None` if another lone surrogate is present (Python would raise).
    pub fn to_utf8_surrogateescape(&self) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(self.as_wtf8().len());
        let mut buf = [0u8; 4];
        for cp in self.chars() {
            match cp {
                0xDC80..=0xDCFF => out.push((cp - 0xDC00) as u8),
                0xD800..=0xDFFF => return None,
                _ => {
                    let c = char::from_u32(cp)?;
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        Some(out)
    }

    /// A lossy `String` (surrogates become U+FFFD), for messages.
    pub fn to_string_lossy(&self) -> std::borrow::Cow<'_, str> {
        match self.as_str() {
            Some(s) => std::borrow::Cow::Borrowed(s),
            None => std::borrow::Cow::Owned(
                self.chars()
                    .map(|c| char::from_u32(c).unwrap_or('\u{FFFD}'))
                    .collect(),
            ),
        }
    }
}

impl PyStr {
    /// The empty string, inline.
    pub(crate) const fn empty() -> PyStr {
        PyStr(Repr::Inline(0, [0; INLINE]))
    }

    /// Whether this text, dumped as an untagged `str` in block context, is
    /// sure to be written plain (`emitter::plain_safe_str`): decided once
    /// when a loader built it, so that a dump skips analysing it. `false`
    /// says nothing.
    pub(crate) fn is_plain_safe(&self) -> bool {
        matches!(self.0, Repr::InlinePlain(..) | Repr::Utf8Plain(_))
    }

    /// The empty string that [`Self::fill`] makes a text, in the form that
    /// keeps whether that text is plain-safe (`plain`, which the caller
    /// found with `emitter::plain_safe_str`).
    pub(crate) fn empty_for(plain: bool) -> PyStr {
        if plain {
            PyStr(Repr::InlinePlain(0, [0; INLINE]))
        } else {
            PyStr::empty()
        }
    }

    /// Make this string, from [`Self::empty_for`], `s`: copied into
    /// the inline buffer where it already is (a node's, on the heap).
    #[inline(always)]
    pub(crate) fn fill(&mut self, s: &str) {
        if let Repr::Inline(n, b) | Repr::InlinePlain(n, b) = &mut self.0
            && copy_inline(b, s.as_bytes()).is_some()
        {
            *n = s.len() as u8;
            return;
        }
        self.fill_boxed(s);
    }

    /// [`Self::fill`] for a text too long to keep inline (out of the
    /// loader's per-scalar path).
    #[inline(never)]
    fn fill_boxed(&mut self, s: &str) {
        *self = if self.is_plain_safe() {
            PyStr(Repr::Utf8Plain(s.into()))
        } else {
            PyStr::from(s)
        };
    }

    /// A loaded text already owned, marked when it is plain-safe (`plain`,
    /// which the loader found with `emitter::plain_safe_str`).
    pub(crate) fn loaded(s: String, plain: bool) -> PyStr {
        PyStr(match Repr::owned(s) {
            Repr::Inline(n, b) if plain => Repr::InlinePlain(n, b),
            Repr::Utf8(s) if plain => Repr::Utf8Plain(s),
            r => r,
        })
    }
}

impl From<&str> for PyStr {
    fn from(s: &str) -> Self {
        PyStr(Repr::text(s))
    }
}

impl From<String> for PyStr {
    fn from(s: String) -> Self {
        PyStr(Repr::owned(s))
    }
}

impl From<Box<str>> for PyStr {
    fn from(s: Box<str>) -> Self {
        match Repr::inline(&s) {
            Some(r) => PyStr(r),
            None => PyStr(Repr::Utf8(s)),
        }
    }
}

impl PartialEq<str> for PyStr {
    fn eq(&self, other: &str) -> bool {
        // A string with surrogates never has valid UTF-8 bytes, so the
        // bytes decide (no UTF-8 check of an inline string).
        bytes_eq(self.as_wtf8(), other.as_bytes())
    }
}

impl PartialEq<&str> for PyStr {
    fn eq(&self, other: &&str) -> bool {
        bytes_eq(self.as_wtf8(), other.as_bytes())
    }
}

impl fmt::Debug for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => fmt::Debug::fmt(s, f),
            None => {
                f.write_str("\"")?;
                for cp in self.chars() {
                    match char::from_u32(cp) {
                        Some(c) => write!(f, "{}", c.escape_debug())?,
                        None => write!(f, "\\u{{{cp:x}}}")?,
                    }
                }
                f.write_str("\"")
            }
        }
    }
}

impl fmt::Display for PyStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

/// Builds a `PyStr` piece by piece (scanners, escape decoders).
#[derive(Debug, Default, Clone)]
pub struct PyStrBuilder {
    bytes: Vec<u8>,
    wide: bool,
}

impl PyStrBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        PyStrBuilder {
            bytes: Vec::with_capacity(n),
            wide: false,
        }
    }

    /// Append text.
    pub fn push_str(&mut self, s: &str) {
        self.bytes.extend_from_slice(s.as_bytes());
    }

    /// Append one char.
    pub fn push(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.bytes
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    /// Append one code point; surrogates are kept, values above U+10FFFF
    /// become U+FFFD.
    pub fn push_code_point(&mut self, cp: u32) {
        if let Some(c) = char::from_u32(cp) {
            self.push(c);
        } else if (0xD800..=0xDFFF).contains(&cp) {
            self.wide = true;
            self.bytes.push(0xE0 | (cp >> 12) as u8);
            self.bytes.push(0x80 | ((cp >> 6) & 0x3F) as u8);
            self.bytes.push(0x80 | (cp & 0x3F) as u8);
        } else {
            self.push('\u{FFFD}');
        }
    }

    /// Append generalized-UTF-8 bytes cut from a [`PyStr::as_wtf8`] at code
    /// point boundaries.
    pub fn push_wtf8(&mut self, b: &[u8]) {
        // A surrogate is ED A0..BF xx; ED 80..9F starts an ordinary character.
        self.wide |= b.windows(2).any(|w| matches!(w, [0xED, 0xA0..=0xBF]));
        self.bytes.extend_from_slice(b);
    }

    /// Append another Python string.
    pub fn push_py(&mut self, s: &PyStr) {
        self.wide |= s.has_surrogates();
        self.bytes.extend_from_slice(s.as_wtf8());
    }

    /// Bytes so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The finished string.
    pub fn finish(self) -> PyStr {
        if self.wide {
            PyStr(Repr::Wide(self.bytes.into_boxed_slice()))
        } else {
            match String::from_utf8(self.bytes) {
                Ok(s) => PyStr(Repr::owned(s)),
                // Unreachable by construction (only valid UTF-8 or surrogates are pushed);
                // fall back to the wide form rather than panic.
                Err(e) => PyStr(Repr::Wide(e.into_bytes().into_boxed_slice())),
            }
        }
    }
}

/// Iterator over the code points of a `PyStr`.
#[derive(Debug, Clone)]
pub struct PyChars<'a> {
    bytes: &'a [u8],
}

impl Iterator for PyChars<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let (&b0, rest) = self.bytes.split_first()?;
        let (len, init) = match b0 {
            0x00..=0x7F => (1, u32::from(b0)),
            0xC0..=0xDF => (2, u32::from(b0 & 0x1F)),
            0xE0..=0xEF => (3, u32::from(b0 & 0x0F)),
            _ => (4, u32::from(b0 & 0x07)),
        };
        let (cont, tail) = rest.split_at((len - 1).min(rest.len()));
        let cp = cont
            .iter()
            .fold(init, |acc, &b| (acc << 6) | u32::from(b & 0x3F));
        self.bytes = tail;
        Some(cp)
    }
}

#[cfg(test)]
mod tests {
    use crate::yaml::emitter::plain_safe_str;
    use super::*;

    /// Every length up to past the word paths, a difference at every
    /// position (first, middle, last bytes and in the overlap of two loads).
    #[test]
    fn bytes_eq_is_slice_equality() {
        for len in 0..40usize {
            let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(bytes_eq(&a, &a.clone()), "len {len}");
            for at in 0..len {
                let mut b = a.clone();
                if let Some(c) = b.get_mut(at) {
                    *c ^= 0x20;
                }
                assert!(!bytes_eq(&a, &b), "len {len}, differing at {at}");
            }
            let mut longer = a.clone();
            longer.push(b'z');
            assert!(!bytes_eq(&a, &longer) && !bytes_eq(&longer, &a));
        }
    }

    #[test]
    fn surrogates_round_trip_and_order() {
        let s = PyStr::from_code_points([0x61, 0xD83D, 0xDE00]);
        assert!(s.has_surrogates());
        assert_eq!(s.chars().collect::<Vec<_>>(), vec![0x61, 0xD83D, 0xDE00]);
        assert_eq!(s.char_len(), 3);
        assert_ne!(s, PyStr::from("a\u{1F600}"));
        // Code point order: U+D7FF < U+D800 < U+E000.
        let a = PyStr::from("\u{D7FF}");
        let b = PyStr::from_code_points([0xD800]);
        let c = PyStr::from("\u{E000}");
        assert!(a < b && b < c);
    }

    #[test]
    fn surrogateescape() {
        let s = PyStr::from_utf8_surrogateescape(b"a\xe9b");
        assert_eq!(s.chars().collect::<Vec<_>>(), vec![0x61, 0xDCE9, 0x62]);
        assert_eq!(s.to_utf8_surrogateescape().unwrap(), b"a\xe9b");
        assert_eq!(PyStr::from_utf8_surrogateescape(b"ok"), PyStr::from("ok"));
    }

    /// Every length up to and past the inline size, built and set.
    #[test]
    fn inline_copies_are_the_text() {
        let text: String = (0..=INLINE + 1)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        for n in 0..=text.len() {
            let t = text.get(..n).unwrap();
            assert_eq!(PyStr::from(t).as_str(), Some(t), "{n}");
            let mut p = PyStr::empty_for(false);
            p.fill(t);
            assert_eq!(p.as_str(), Some(t), "{n}");
        }
    }

    /// The loaded forms are the same strings, marked when plain-safe.
    #[test]
    fn loaded_forms_keep_the_text_and_the_mark() {
        let long = "echo a-long-command-line-past-the-inline-size";
        for t in ["sh", "-c", long, "root:root", "", "a b ", "a\nb"] {
            let mut p = PyStr::empty_for(plain_safe_str(t.as_bytes()));
            p.fill(t);
            let q = PyStr::loaded(t.to_owned(), plain_safe_str(t.as_bytes()));
            let plain = plain_safe_str(t.as_bytes());
            for x in [&p, &q] {
                assert_eq!(x, &PyStr::from(t));
                assert_eq!(x.as_str(), Some(t));
                assert_eq!(x.is_plain_safe(), plain, "{t:?}");
            }
        }
        assert!(PyStr::loaded(long.to_owned(), true).is_plain_safe());
        assert!(!PyStr::from("sh").is_plain_safe());
    }

    #[test]
    fn inline_and_boxed_forms_are_one_string() {
        use std::hash::{BuildHasher, RandomState};
        let digits = "0123456789".repeat(8);
        let short = digits.get(..INLINE).unwrap();
        let long = digits.get(..=INLINE).unwrap();
        for t in [short, long, "", "é€😀"] {
            let a = PyStr::from(t);
            let b = PyStr::from(Box::<str>::from(t));
            let c = PyStr::from(t.to_owned());
            let mut d = PyStrBuilder::new();
            d.push_str(t);
            let d = d.finish();
            assert_eq!(a.as_str(), Some(t));
            assert_eq!(a.char_len(), t.chars().count());
            let rs = RandomState::new();
            for x in [&b, &c, &d] {
                assert_eq!(&a, x);
                assert_eq!(rs.hash_one(&a), rs.hash_one(x));
            }
        }
        let (s, l) = (PyStr::from(short), PyStr::from(long));
        assert!(s < l);
        assert_eq!(std::mem::size_of::<PyStr>(), 32);
        // A string is the largest value: a node's allocation is 64 bytes.
        assert_eq!(std::mem::size_of::<crate::yaml::Value>(), 32);
        assert_eq!(crate::yaml::Node::allocation_size(), 64);
    }
}
