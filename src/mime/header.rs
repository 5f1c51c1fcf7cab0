//! `Header`: one header field as compat32 stores it (name as written, raw value).

use crate::source::Mark;

/// A header field: the name exactly as written and the value as Python's
/// compat32 policy keeps it — text after the colon with leading spaces/tabs
/// removed, continuation lines appended **with their line breaks**, trailing
/// CR/LF removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The name, as written (no case folding, no trimming); the usual names
    /// are not copied (see [`HeaderName`]).
    pub name: HeaderName,
    /// The raw value (may contain `\n `/`\r\n\t` from folding).
    pub value: String,
    /// Where the header's first line starts.
    pub at: Mark,
}

impl Header {
    /// Build a header from its source lines (first line contains the colon;
    /// following lines are continuations), like `header_source_parse`.
    pub(crate) fn from_lines(first: &str, continuations: &[&str], at: Mark) -> Header {
        // memchr: the generic `char` search was a tenth of a large parse.
        let (name, rest) = match memchr::memchr(b':', first.as_bytes()) {
            Some(i) => (
                first.get(..i).unwrap_or(first),
                first.get(i + 1..).unwrap_or(""),
            ),
            None => (first, ""),
        };
        // Byte trims: a `char` set pattern cost several times more a header.
        let lead = rest.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        let mut value = rest.get(lead..).unwrap_or("").to_owned();
        for c in continuations {
            value.push_str(c);
        }
        let tail = value
            .bytes()
            .rev()
            .take_while(|&b| b == b'\r' || b == b'\n')
            .count();
        value.truncate(value.len() - tail);
        Header {
            name: header_name(name),
            value,
            at,
        }
    }
}

/// A header name: most are one of a few spellings, shared rather than
/// copied (a 5000-part payload has 25,000 of them).
pub type HeaderName = std::borrow::Cow<'static, str>;

/// Spellings [`header_name`] shares.
const USUAL_NAMES: [&str; 8] = [
    "Content-Type",
    "MIME-Version",
    "Content-Transfer-Encoding",
    "Content-Disposition",
    "Merge-Type",
    "X-Merge-Type",
    "Launch-Index",
    "Mime-Version",
];

/// `name` as a [`HeaderName`]: shared if it is spelled as one of the usual
/// names (exactly: the spelling is kept), else copied.
pub fn header_name(name: &str) -> HeaderName {
    match USUAL_NAMES.into_iter().find(|u| *u == name) {
        Some(u) => HeaderName::Borrowed(u),
        None => HeaderName::Owned(name.to_owned()),
    }
}

/// Python's `headerRE`: `From `, `name:` with name in `[\x21-\x39\x3b-\x7e]*`, or
/// a continuation (leading space or tab).
pub(crate) fn is_header_line(line: &str) -> bool {
    if line.starts_with("From ") || line.starts_with([' ', '\t']) {
        return true;
    }
    for b in line.bytes() {
        match b {
            b':' => return true,
            0x21..=0x7e => {}
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines() {
        assert!(is_header_line("A: b\n"));
        assert!(is_header_line(":x\n"));
        assert!(is_header_line("http://x\n"));
        assert!(is_header_line(" cont\n"));
        assert!(!is_header_line("Content-Type : x\n"));
        assert!(!is_header_line("#cloud-config\n"));
        assert!(!is_header_line("\n"));
    }

    #[test]
    fn folded_value() {
        let h = Header::from_lines("A:  b\r\n", &[" c\r\n"], Mark::default());
        assert_eq!(h.value, "b\r\n c");
    }
}
