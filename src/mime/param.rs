//! Header parameters (`; name="value"`) as compat32 reads them, including RFC 2231
//! continuations (`name*0*=…`) and charset/language prefixes (`name*=utf-8''…`).

use super::error::PyError;
use crate::python::{py_eq_lower, py_lower, py_strip, raw_unicode_escape};

/// A parameter value as `Message.get_param` returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// A plain (possibly quoted in the source) value.
    Str(String),
    /// An RFC 2231 extended value: Python's `(charset, language, value)` tuple.
    /// `value` holds the octets as code points U+0000..U+00FF (and any non-ASCII
    /// text that was not %-encoded as is).
    Rfc2231 {
        /// Charset, `None` when the value had no `'` separators.
        charset: Option<String>,
        /// Language, `None` when the value had no `'` separators.
        language: Option<String>,
        /// The value.
        value: String,
    },
}

impl ParamValue {
    /// `email.utils.collapse_rfc2231_value`: a plain string (quotes removed once
    /// more; RFC 2231 values decoded with their charset, errors replaced).
    ///
    /// Charsets other than UTF-8, ASCII and Latin-1 (and their Python aliases)
    /// are treated like an unknown codec (the value is returned undecoded), which
    /// differs from Python for codecs it knows (e.g. `cp1252`, `utf-16`).
    pub fn collapse(&self) -> Result<String, PyError> {
        self.collapse_cow().map(std::borrow::Cow::into_owned)
    }

    /// [`ParamValue::collapse`], borrowing a plain value's text.
    pub(crate) fn collapse_cow(&self) -> Result<std::borrow::Cow<'_, str>, PyError> {
        Ok(match self {
            ParamValue::Str(s) => unquote(s),
            ParamValue::Rfc2231 { charset, value, .. } => {
                let charset = charset.as_deref().unwrap_or("us-ascii");
                if charset.contains('\0') {
                    return Err(PyError::NulInCharset);
                }
                let raw = raw_unicode_escape(value);
                std::borrow::Cow::Owned(match Codec::lookup(charset) {
                    Some(Codec::Utf8) => String::from_utf8_lossy(&raw).into_owned(),
                    Some(Codec::Utf8Sig) => {
                        let body = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&raw);
                        String::from_utf8_lossy(body).into_owned()
                    }
                    Some(Codec::Ascii) => raw
                        .iter()
                        .map(|&b| if b < 0x80 { b as char } else { '\u{fffd}' })
                        .collect(),
                    Some(Codec::Latin1) => raw.iter().map(|&b| b as char).collect(),
                    None => unquote(value).to_string(),
                })
            }
        })
    }
}

/// The codecs we decode RFC 2231 values with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Codec {
    Utf8,
    Utf8Sig,
    Ascii,
    Latin1,
}

impl Codec {
    /// Python's codec lookup for the names we know: lower-case, runs of
    /// punctuation/space become `_`, then the alias table.
    fn lookup(name: &str) -> Option<Codec> {
        // `encodings.normalize_encoding`: non-ASCII letters/digits vanish,
        // any other run of non-alphanumerics becomes one `_` between words.
        let mut norm = String::with_capacity(name.len());
        let mut pending_sep = false;
        for c in name.chars() {
            if crate::python::py_isalnum(c) || c == '.' {
                if pending_sep && !norm.is_empty() {
                    norm.push('_');
                }
                pending_sep = false;
                if c.is_ascii() {
                    norm.push(c.to_ascii_lowercase());
                }
            } else {
                pending_sep = true;
            }
        }
        match norm.as_str() {
            "utf_8" | "utf8" | "u8" | "utf" | "utf8_ucs2" | "utf8_ucs4" | "cp65001" => {
                Some(Codec::Utf8)
            }
            "utf_8_sig" => Some(Codec::Utf8Sig),
            "ascii" | "us_ascii" | "646" | "ansi_x3.4_1968" | "ansi_x3_4_1968"
            | "ansi_x3.4_1986" | "cp367" | "csascii" | "ibm367" | "iso646_us"
            | "iso_646.irv_1991" | "iso_ir_6" | "us" => Some(Codec::Ascii),
            "latin_1" | "latin1" | "iso8859_1" | "iso_8859_1" | "8859" | "cp819"
            | "iso_8859_1_1987" | "iso_ir_100" | "l1" | "latin" | "csisolatin1" | "ibm819"
            | "iso8859" => Some(Codec::Latin1),
            _ => None,
        }
    }
}

/// `email.utils.unquote`: strip one pair of `"…"` (undoing `\\` and `\"`) or `<…>`.
pub fn unquote(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().nth(1).is_some() {
        if let Some(inner) = s.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            if !inner.as_bytes().contains(&b'\\') {
                return std::borrow::Cow::Borrowed(inner);
            }
            return std::borrow::Cow::Owned(inner.replace("\\\\", "\\").replace("\\\"", "\""));
        }
        if let Some(inner) = s.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
            return std::borrow::Cow::Borrowed(inner);
        }
    }
    std::borrow::Cow::Borrowed(s)
}

/// `email.utils.quote`: escape `\` and `"`.
fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `email.message._parseparam`: split a header value on `;` outside quotes,
/// normalising `name = value` to `name=value` with a lower-case name.
fn split_params(value: &str) -> Vec<String> {
    param_items(value)
        // Name and value are stripped already, and lower-casing adds no
        // blanks: the joined item needs no strip of its own.
        .map(|(name, val)| match val {
            Some(val) => format!("{}={val}", py_lower(name)),
            None => name.to_string(),
        })
        .collect()
}

/// [`split_params`]' items borrowed, before normalising: (stripped name,
/// stripped value) for an item with `=`, (stripped item, `None`) otherwise.
/// Looking one parameter up this way copies nothing.
fn param_items(value: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    // `rest` always starts with ';' after the first item.
    let mut rest = Some(value);
    let mut first = true;
    std::iter::from_fn(move || {
        let r = rest?;
        let s = if first {
            first = false;
            r
        } else {
            match r.strip_prefix(';') {
                Some(s) => s,
                None => {
                    rest = None;
                    return None;
                }
            }
        };
        // Find the first ';' (not at position 0) outside an odd number of
        // unescaped quotes counted from the start of this item.
        let bytes = s.as_bytes();
        let mut end = s.len();
        let mut quotes = 0usize;
        let mut escaped = 0usize;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b';' {
                if i == 0 || (quotes - escaped).is_multiple_of(2) {
                    end = i;
                    break;
                }
            } else if b == b'"' {
                quotes += 1;
                if i > 0 && bytes.get(i - 1) == Some(&b'\\') {
                    escaped += 1;
                }
            }
        }
        let f = s.get(..end).unwrap_or(s);
        rest = Some(s.get(end..).unwrap_or(""));
        Some(match memchr::memchr(b'=', f.as_bytes()) {
            Some(i) => (
                py_strip(f.get(..i).unwrap_or("")),
                Some(py_strip(f.get(i + 1..).unwrap_or(""))),
            ),
            None => (py_strip(f), None),
        })
    })
}

/// An RFC 2231 section number: digits as written (compared numerically).
#[derive(Clone, Debug)]
struct SectionNumber(String);

impl PartialEq for SectionNumber {
    fn eq(&self, other: &Self) -> bool {
        self.significant() == other.significant()
    }
}

impl Eq for SectionNumber {}

impl SectionNumber {
    fn significant(&self) -> &str {
        let t = self.0.trim_start_matches('0');
        if t.is_empty() { "0" } else { t }
    }
}

impl Ord for SectionNumber {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let (a, b) = (self.significant(), other.significant());
        a.len().cmp(&b.len()).then_with(|| a.cmp(b))
    }
}

impl PartialOrd for SectionNumber {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Match Python's `^(\w+)\*((\d+)\*?)?$` (ASCII): `name*`, `name*N`, `name*N*`.
fn rfc2231_section(name: &str) -> Option<(&str, Option<&str>)> {
    let star = name.find('*')?;
    let base = name.get(..star)?;
    if base.is_empty() || !base.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let rest = name.get(star + 1..)?;
    if rest.is_empty() {
        return Some((base, None));
    }
    let digits = rest.strip_suffix('*').unwrap_or(rest);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        Some((base, Some(digits)))
    } else {
        None
    }
}

/// `urllib.parse.unquote(s, encoding="latin-1")`: `%XX` becomes U+00XX.
fn percent_decode_latin1(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '%' {
            let hex = s
                .get(i + 1..i + 3)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v as char);
                chars.next();
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// `Message._get_params_preserve` (with `email.utils.decode_params`): all
/// parameters of a header value, values still quoted.
pub(crate) fn params_preserve(value: &str) -> Result<Vec<(String, ParamValue)>, PyError> {
    let mut raw: Vec<(String, String)> = Vec::new();
    for p in split_params(value) {
        match p.split_once('=') {
            Some((n, v)) => raw.push((py_strip(n).to_string(), py_strip(v).to_string())),
            None => raw.push((py_strip(&p).to_string(), String::new())),
        }
    }
    let mut iter = raw.into_iter();
    let mut out: Vec<(String, ParamValue)> = Vec::new();
    if let Some((n, v)) = iter.next() {
        out.push((n, ParamValue::Str(v)));
    }
    type Section = (Option<SectionNumber>, String, bool);
    let mut sections: Vec<(String, Vec<Section>)> = Vec::new();
    for (name, value) in iter {
        let encoded = name.ends_with('*');
        let value = unquote(&value).into_owned();
        match rfc2231_section(&name) {
            Some((base, num)) => {
                if num.is_some_and(|n| n.len() > 4300) {
                    return Err(PyError::SectionNumberTooLong {
                        param: base.to_string(),
                    });
                }
                let entry = (num.map(|n| SectionNumber(n.to_string())), value, encoded);
                match sections.iter_mut().find(|(b, _)| b == base) {
                    Some((_, list)) => list.push(entry),
                    None => sections.push((base.to_string(), vec![entry])),
                }
            }
            None => out.push((name, ParamValue::Str(format!("\"{}\"", quote(&value))))),
        }
    }
    for (name, mut list) in sections {
        let numbered = list.iter().filter(|(n, _, _)| n.is_some()).count();
        if numbered != 0 && numbered != list.len() {
            return Err(PyError::MixedRfc2231Sections { param: name });
        }
        list.sort();
        let mut joined = String::new();
        let mut extended = false;
        for (_, s, encoded) in &list {
            if *encoded {
                joined.push_str(&percent_decode_latin1(s));
                extended = true;
            } else {
                joined.push_str(s);
            }
        }
        let joined = quote(&joined);
        if extended {
            let mut it = joined.splitn(3, '\'');
            let parts: Vec<&str> = it.by_ref().collect();
            let value = match parts.as_slice() {
                [charset, language, text] => ParamValue::Rfc2231 {
                    charset: Some(charset.to_string()),
                    language: Some(language.to_string()),
                    value: format!("\"{text}\""),
                },
                _ => ParamValue::Rfc2231 {
                    charset: None,
                    language: None,
                    value: format!("\"{joined}\""),
                },
            };
            out.push((name, value));
        } else {
            out.push((name, ParamValue::Str(format!("\"{joined}\""))));
        }
    }
    Ok(out)
}

/// `get_param(param)` on a header value with no `*`: the first parameter
/// named `param`, unquoted, as [`params_preserve`] then [`unquote_value`]
/// give it, without building the others. With no `*` no parameter is an
/// RFC 2231 section (the only ones that can raise, or join), so the list is
/// the parameters in order; `None` if the value has a `*`.
pub(crate) fn plain_param(value: &str, param: &str) -> Option<Option<ParamValue>> {
    if value.as_bytes().contains(&b'*') {
        return None;
    }
    // `_parseparam` lower-cases the names; compared case-insensitively anyway.
    for (name, v) in param_items(value) {
        let v = v.unwrap_or("");
        if py_eq_lower(name, param) {
            // The long way quotes all but the first value again before
            // unquoting it: the same text.
            return Some(Some(ParamValue::Str(unquote(v).into_owned())));
        }
    }
    Some(None)
}

/// `_unquotevalue`: remove the quotes of a preserved value.
pub(crate) fn unquote_value(v: ParamValue) -> ParamValue {
    match v {
        ParamValue::Str(s) => ParamValue::Str(unquote(&s).into_owned()),
        ParamValue::Rfc2231 {
            charset,
            language,
            value,
        } => ParamValue::Rfc2231 {
            charset,
            language,
            value: unquote(&value).into_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `get_param` the long way.
    fn slow(value: &str, param: &str) -> Result<Option<ParamValue>, PyError> {
        Ok(params_preserve(value)?
            .into_iter()
            .find(|(k, _)| py_eq_lower(k, param))
            .map(|(_, v)| unquote_value(v)))
    }

    #[test]
    fn plain_params_are_found_as_the_long_way_finds_them() {
        let fixed = [
            "attachment; filename=\"part-001.yaml\"",
            "filename=first; filename=second",
            " FileName = \" a b \" ; x",
            "attachment; filename=\"a;b\"; filename=c",
            "attachment; filename=\"a\\\"b\\\\\"",
            "attachment; filename",
            "attachment;;filename=<x>",
            "attachment; filename=\"\u{e9}\"",
        ];
        for v in fixed {
            assert_eq!(
                plain_param(v, "filename"),
                Some(slow(v, "filename").unwrap()),
                "{v:?}"
            );
        }
        // Random values over the characters that matter (no `*`).
        let alphabet = [
            'f', 'F', 'n', '=', ';', '"', '\\', ' ', '\t', '<', '>', '\u{e9}',
        ];
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20_000 {
            let mut v = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 12) as usize;
            for k in 0..len {
                let pick = ((x >> (4 * k)) % alphabet.len() as u64) as usize;
                v.extend(alphabet.get(pick));
            }
            for param in ["f", "fn", "F"] {
                let want = slow(&v, param).unwrap();
                assert_eq!(plain_param(&v, param), Some(want), "{v:?} {param}");
            }
        }
        assert_eq!(plain_param("a; b*=x", "b"), None, "a `*`: the long way");
    }

    #[test]
    fn splits_like_python() {
        assert_eq!(
            split_params("multipart/mixed; Boundary = \"a;b\" ;x"),
            vec!["multipart/mixed", "boundary=\"a;b\"", "x"]
        );
        assert_eq!(split_params(";a"), vec!["", "a"]);
    }

    #[test]
    fn rfc2231_names() {
        assert_eq!(rfc2231_section("a*"), Some(("a", None)));
        assert_eq!(rfc2231_section("a*01*"), Some(("a", Some("01"))));
        assert_eq!(rfc2231_section("a**"), None);
        assert_eq!(rfc2231_section("*"), None);
    }
}
