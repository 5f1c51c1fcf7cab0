//! `Leaf`: one flattened user-data part as cloud-init's processor holds it (headers, payload, origin).

use crate::mime::{HeaderName, header_name};
use crate::python::py_is_space;
use crate::source::SharedBytes;
use crate::yaml::value::{Node, PyStr, py_str};

/// A header value: text, or (from `#cloud-config-archive` entries) any YAML
/// value, which Python stores as it is.
#[derive(Debug, Clone)]
pub enum HeaderValue {
    /// Ordinary header text.
    Text(String),
    /// A raw value from an archive entry.
    Value(Node),
}

impl HeaderValue {
    /// Python `str(value)`.
    pub fn to_py_str(&self) -> PyStr {
        match self {
            HeaderValue::Text(t) => PyStr::from(t.as_str()),
            HeaderValue::Value(n) => py_str(n),
        }
    }

    /// The text, if this is a string.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            HeaderValue::Text(t) => Some(t),
            HeaderValue::Value(n) => n.as_str(),
        }
    }

    /// `str(value)` as Rust text (lone surrogates replaced).
    pub fn to_string_lossy(&self) -> String {
        match self {
            HeaderValue::Text(t) => t.clone(),
            HeaderValue::Value(n) => py_str(n).to_string_lossy().into_owned(),
        }
    }

    /// Python truthiness.
    pub fn is_truthy(&self) -> bool {
        match self {
            HeaderValue::Text(t) => !t.is_empty(),
            HeaderValue::Value(n) => n.is_truthy(),
        }
    }
}

/// The payload as Python's `get_payload(decode=True)` returns it.
#[derive(Debug, Clone)]
pub enum Body {
    /// Transfer-decoded bytes (a MIME part's are a slice of the payload when
    /// it had no transfer encoding to undo).
    Bytes(SharedBytes),
    /// No payload at all (an archive entry with `content: null` and a
    /// non-text type).
    None,
}

/// What `util.fully_decoded_payload` gives a handler.
#[derive(Debug, Clone)]
pub enum Payload {
    /// A `text/*` part: UTF-8 with surrogateescape.
    Text(PyStr),
    /// Any other part.
    Bytes(Vec<u8>),
    /// No payload.
    None,
}

impl Payload {
    /// Python truthiness (empty payloads are only logged at debug level).
    pub fn is_truthy(&self) -> bool {
        match self {
            Payload::Text(t) => !t.is_empty(),
            Payload::Bytes(b) => !b.is_empty(),
            Payload::None => false,
        }
    }

    /// Size in bytes (text as UTF-8 with surrogateescape).
    pub fn len(&self) -> usize {
        match self {
            Payload::Text(t) => t.as_wtf8().len(),
            Payload::Bytes(b) => b.len(),
            Payload::None => 0,
        }
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where a part came from, for reports and diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The whole (non-MIME) payload.
    Whole,
    /// A leaf of the MIME document: its position in walk order and the
    /// 0-based line where its body starts in the (decompressed) document.
    Mime {
        /// 0-based index among the document's leaves.
        index: usize,
        /// 0-based line of the body's first line.
        body_line: u32,
    },
    /// An entry of a `#cloud-config-archive` part.
    ArchiveEntry {
        /// 0-based entry index.
        entry: usize,
        /// Where the archive itself came from.
        archive: Box<Origin>,
    },
    /// The decompressed content of a gzip part.
    Gunzipped(Box<Origin>),
    /// Content fetched by `#include`.
    Include {
        /// The URL as named.
        url: String,
        /// Where the include part came from.
        from: Box<Origin>,
    },
}

impl Origin {
    /// 1-based position among the document's MIME parts (`MIME part N`) of
    /// the part this came from: itself, or the gzip part it was decompressed from.
    pub fn mime_position(&self) -> Option<usize> {
        match self {
            Origin::Mime { index, .. } => Some(index + 1),
            Origin::Gunzipped(o) => o.mime_position(),
            _ => None,
        }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Whole => f.write_str("the payload"),
            Origin::Mime { index, body_line } => {
                write!(
                    f,
                    "MIME part {} (body at line {})",
                    index + 1,
                    body_line + 1
                )
            }
            Origin::ArchiveEntry { entry, archive } => {
                write!(f, "archive entry {} of {archive}", entry + 1)
            }
            Origin::Gunzipped(o) => write!(f, "gunzipped {o}"),
            Origin::Include { url, from } => write!(f, "{url} (included by {from})"),
        }
    }
}

/// One part: its headers in order, as spelled (duplicates kept), its content
/// type as Python's `get_content_type()` computes it from them, its payload.
#[derive(Debug, Clone)]
pub struct Leaf {
    /// `(name, value)` in order.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// `get_content_type()`: lower-case `maintype/subtype`.
    pub content_type: String,
    /// `get_payload(decode=True)`.
    pub body: Body,
    /// `get_filename()`.
    pub filename: Option<String>,
    /// Where it came from.
    pub origin: Origin,
}

impl Leaf {
    /// A part with nothing in it (allocates nothing).
    pub(crate) fn empty() -> Self {
        Self {
            headers: Vec::new(),
            content_type: String::new(),
            body: Body::None,
            filename: None,
            origin: Origin::Whole,
        }
    }

    /// `msg.get(name)`: the first header whose name matches case-insensitively.
    pub fn get(&self, name: &str) -> Option<&HeaderValue> {
        self.headers
            .iter()
            .find(|(n, _)| crate::python::py_eq_lower(n, name))
            .map(|(_, v)| v)
    }

    /// All values of a header (case-insensitive).
    pub fn get_all(&self, name: &str) -> impl Iterator<Item = &HeaderValue> {
        self.headers
            .iter()
            .filter(move |(n, _)| crate::python::py_eq_lower(n, name))
            .map(|(_, v)| v)
    }

    /// `msg[name] = value` (appends).
    pub fn add_header(&mut self, name: &str, value: HeaderValue) {
        self.headers.push((header_name(name), value));
    }

    /// `del msg[name]; msg[name] = value`.
    pub fn replace_header(&mut self, name: &str, value: HeaderValue) {
        self.headers
            .retain(|(n, _)| !crate::python::py_eq_lower(n, name));
        self.headers.push((header_name(name), value));
    }

    /// `part.replace_header("Content-Type", ctype)`, keeping the type the
    /// part records in step. Nothing changes when that header is already
    /// the only one of its name, last, with this value: cloud-init retypes
    /// the root message once per part it attaches, nearly always to the
    /// type it has (a header list rebuilt for each of thousands of parts).
    pub fn retype(&mut self, ctype: &str) {
        let in_place = self.content_type == ctype
            && matches!(self.headers.last(),
                Some((n, HeaderValue::Text(v))) if n == "Content-Type" && v == ctype)
            && self
                .headers
                .iter()
                .filter(|(n, _)| crate::python::py_eq_lower(n, "Content-Type"))
                .count()
                == 1;
        if !in_place {
            self.replace_header("Content-Type", HeaderValue::Text(ctype.to_owned()));
            ctype.clone_into(&mut self.content_type);
        }
    }

    /// `get_content_maintype()`.
    pub fn maintype(&self) -> &str {
        crate::mime::maintype(&self.content_type)
    }

    /// `util.fully_decoded_payload(part)`.
    pub fn payload(&self) -> Payload {
        match &self.body {
            Body::None => Payload::None,
            Body::Bytes(b) if self.maintype() == "text" => {
                Payload::Text(PyStr::from_utf8_surrogateescape(b))
            }
            Body::Bytes(b) => Payload::Bytes(b.to_vec()),
        }
    }

    /// The body when it is [`Leaf::payload`]'s bytes unchanged: a part
    /// that is not text, or a text part whose body is valid UTF-8 (which
    /// decodes to itself). Readers of a long part use it in place instead
    /// of decoding a copy.
    pub(crate) fn payload_in_place(&self) -> Option<&SharedBytes> {
        match &self.body {
            Body::Bytes(b) if self.maintype() != "text" || b.as_str().is_some() => Some(b),
            _ => None,
        }
    }

    /// [`Leaf::payload`]'s size in bytes and truthiness, without copying it.
    pub fn payload_size(&self) -> (usize, bool) {
        match self.payload_in_place() {
            Some(b) => (b.len(), !b.is_empty()),
            // Surrogateescape never empties a text.
            None => {
                let p = self.payload();
                (p.len(), p.is_truthy())
            }
        }
    }

    /// The header map handlers get (`dict(part)`): for each name as spelled,
    /// the value of the *first* header matching it case-insensitively.
    /// Returns that value for an exact-spelling lookup, as handlers do.
    pub fn handler_header(&self, exact_name: &str) -> Option<&HeaderValue> {
        // One pass: the first case-insensitive match, kept once a header of
        // the exact spelling (itself a match) shows the name is there.
        let mut first = None;
        for (n, v) in &self.headers {
            if n == exact_name {
                return first.or(Some(v));
            }
            if first.is_none() && crate::python::py_eq_lower(n, exact_name) {
                first = Some(v);
            }
        }
        None
    }

    /// The `Merge-Type` / `X-Merge-Type` value the cloud-config handler uses:
    /// the first non-empty of the two exact spellings.
    pub fn merge_type_header(&self) -> Option<&HeaderValue> {
        ["Merge-Type", "X-Merge-Type"]
            .into_iter()
            .filter_map(|h| self.handler_header(h))
            .find(|v| v.is_truthy())
    }

    /// The filename a handler sees, with cloud-init's clean-up for listing
    /// (`\n`, `\r`, `\t` become spaces, then stripped).
    pub fn listed_filename(&self) -> String {
        let f = self.filename.as_deref().unwrap_or_default();
        // The usual name needs no clean-up.
        if !f.contains(['\n', '\r', '\t']) && f.trim_matches(py_is_space).len() == f.len() {
            return f.to_owned();
        }
        let f: String = f
            .chars()
            .map(|c| {
                if matches!(c, '\n' | '\r' | '\t') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        f.trim_matches(py_is_space).to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::{HeaderValue, Leaf, header_name};

    fn names(l: &Leaf) -> Vec<(String, String)> {
        l.headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string_lossy()))
            .collect()
    }

    #[test]
    fn retype_is_replace_header_with_the_type_in_step() {
        let t = |s: &str| HeaderValue::Text(s.to_owned());
        let starts = [
            vec![
                ("Content-Type", t("text/plain")),
                ("MIME-Version", t("1.0")),
            ],
            vec![
                ("MIME-Version", t("1.0")),
                ("Content-Type", t("text/x-shellscript")),
            ],
            vec![
                ("content-type", t("text/x-shellscript")),
                ("Content-Type", t("text/x-shellscript")),
            ],
            vec![("MIME-Version", t("1.0"))],
        ];
        for start in starts {
            for types in [
                ["text/x-shellscript"; 2],
                ["text/plain", "text/x-shellscript"],
            ] {
                let mut a = Leaf::empty();
                a.headers = start
                    .iter()
                    .map(|(n, v)| (header_name(n), v.clone()))
                    .collect();
                a.content_type = "text/x-shellscript".to_owned();
                let mut b = a.clone();
                for ct in types {
                    a.retype(ct);
                    b.replace_header("Content-Type", t(ct));
                    b.content_type = ct.to_owned();
                    assert_eq!(names(&a), names(&b), "{start:?} {ct}");
                    assert_eq!(a.content_type, b.content_type);
                }
            }
        }
    }
}
