//! `Message` and `Payload`: a parsed MIME tree with the `email.message.Message`
//! accessors cloud-init uses (compat32 semantics).

use super::content_type;
use super::decoded_part::DecodedPart;
use super::defect::{Defect, DefectKind};
use super::error::PyError;
use super::header::Header;
use super::param::{ParamValue, params_preserve, plain_param, unquote, unquote_value};
use std::borrow::Cow;
use super::pystr::payload_bytes;
use super::transfer_encoding::TransferEncoding;
use super::walk::{IntoWalk, Walk};
use crate::python::{py_eq_lower, py_lower, py_rstrip, py_strip};
use crate::source::{Mark, SharedBytes, SharedText};

/// The payload of a message, as Python holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A leaf: the body text, undecoded (Python's `get_payload()` string). Also
    /// the body of a multipart that could not be split (no boundary parameter,
    /// or the boundary never appears). A slice of the document's text when
    /// it was parsed with [`parse_shared`](super::parse_shared).
    Text(SharedText),
    /// The parts of a `multipart/*` (at least one).
    Multipart(Vec<Message>),
    /// A `message/*` part: the parsed sub-message (one; for
    /// `message/delivery-status`, one per blank-line-separated header block).
    Message(Vec<Message>),
}

/// One MIME message or part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub(crate) headers: Vec<Header>,
    pub(crate) unixfrom: Option<String>,
    pub(crate) default_type: &'static str,
    pub(crate) content_type: String,
    pub(crate) payload: Payload,
    pub(crate) preamble: Option<String>,
    pub(crate) epilogue: Option<String>,
    pub(crate) defects: Vec<Defect>,
    pub(crate) start: Mark,
    pub(crate) body_start: Mark,
    pub(crate) end: Mark,
}

impl Message {
    /// All headers in order, duplicates kept.
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// `items()`: `(name, value)` pairs, names exactly as written.
    pub fn items(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers.iter().map(|h| (&*h.name, h.value.as_str()))
    }

    /// `keys()`: header names as written, in order, duplicates kept.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.headers.iter().map(|h| &*h.name)
    }

    /// `values()`: header values in order.
    pub fn values(&self) -> impl Iterator<Item = &str> {
        self.headers.iter().map(|h| h.value.as_str())
    }

    /// `len(msg)`: the number of headers, duplicates included.
    pub fn header_count(&self) -> usize {
        self.headers.len()
    }

    /// `get(name)`: the first value whose name matches case-insensitively.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.get_header(name).map(|h| h.value.as_str())
    }

    /// The first header whose name matches case-insensitively (with its position).
    pub fn get_header(&self, name: &str) -> Option<&Header> {
        self.headers.iter().find(|h| py_eq_lower(&h.name, name))
    }

    /// `get_all(name)`: every matching value (empty if none; Python returns `None`).
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|h| py_eq_lower(&h.name, name))
            .map(|h| h.value.as_str())
            .collect()
    }

    /// `name in msg`.
    pub fn contains(&self, name: &str) -> bool {
        self.get_header(name).is_some()
    }

    /// `dict(msg).get(name)` (how cloud-init reads `Merge-Type`): the key must
    /// be a header name exactly as written, but the value is `msg[name]`, i.e.
    /// the **first** value whose name matches case-insensitively.
    pub fn dict_get(&self, name: &str) -> Option<&str> {
        if self.headers.iter().any(|h| h.name == name) {
            self.get(name)
        } else {
            None
        }
    }

    /// The `From ` envelope line, if the message started with one.
    pub fn unixfrom(&self) -> Option<&str> {
        self.unixfrom.as_deref()
    }

    /// `get_content_type()`: lower-case `maintype/subtype`.
    pub fn get_content_type(&self) -> &str {
        &self.content_type
    }

    /// `get_content_maintype()`.
    pub fn get_content_maintype(&self) -> &str {
        content_type::maintype(&self.content_type)
    }

    /// `get_content_subtype()`.
    pub fn get_content_subtype(&self) -> &str {
        content_type::subtype(&self.content_type)
    }

    /// `get_default_type()`: `text/plain`, or `message/rfc822` inside multipart/digest.
    pub fn get_default_type(&self) -> &'static str {
        self.default_type
    }

    /// `is_multipart()`: true for multipart containers **and** `message/*` parts.
    pub fn is_multipart(&self) -> bool {
        !matches!(self.payload, Payload::Text(_))
    }

    /// The payload.
    pub fn payload(&self) -> &Payload {
        &self.payload
    }

    /// The sub-parts (for multipart and message/* payloads; empty otherwise).
    pub fn children(&self) -> &[Message] {
        match &self.payload {
            Payload::Text(_) => &[],
            Payload::Multipart(v) | Payload::Message(v) => v,
        }
    }

    /// The sub-parts from `at` on, taken out (none if there are no more):
    /// a large document's walk can then go on in two pieces, this message's
    /// walk and those parts' walks after it.
    pub fn split_off_children(&mut self, at: usize) -> Vec<Message> {
        match self.children_mut() {
            Some(v) if at < v.len() => v.split_off(at),
            _ => Vec::new(),
        }
    }

    pub(super) fn children_mut(&mut self) -> Option<&mut Vec<Message>> {
        match &mut self.payload {
            Payload::Text(_) => None,
            Payload::Multipart(v) | Payload::Message(v) => Some(v),
        }
    }

    /// `get_payload()` for a leaf: the raw, undecoded body text.
    pub fn payload_text(&self) -> Option<&str> {
        match &self.payload {
            Payload::Text(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// `get_payload(decode=True)`: the body bytes with the transfer encoding
    /// undone, `None` for containers. Text is first turned into bytes as
    /// Python does (ASCII, else raw-unicode-escape: U+0080..U+00FF become one
    /// byte, higher code points the text `\uXXXX`).
    pub fn get_payload_decoded(&self) -> Option<Vec<u8>> {
        self.decode_payload().map(|(b, _)| b)
    }

    /// Like [`get_payload_decoded`](Self::get_payload_decoded), with the defects
    /// Python adds to the message while decoding.
    pub fn decode_payload(&self) -> Option<(Vec<u8>, Vec<DefectKind>)> {
        let text = self.payload_text()?;
        Some(self.transfer_encoding().decode_cow(payload_bytes(text)))
    }

    /// This part taken apart, moved rather than copied: its headers, its
    /// content type and [`get_payload_decoded`](Self::get_payload_decoded)
    /// (an ASCII body with no transfer encoding to undo is its own bytes).
    pub fn into_decoded(self) -> DecodedPart {
        let encoding = self.transfer_encoding();
        let body = match self.payload {
            // ASCII text is its own bytes: shared, not copied.
            Payload::Text(text) if encoding == TransferEncoding::Identity && text.is_ascii() => {
                Some(SharedBytes::from(text))
            }
            Payload::Text(text) => Some(SharedBytes::from(
                encoding.decode_cow(payload_bytes(&text)).0,
            )),
            Payload::Multipart(_) | Payload::Message(_) => None,
        };
        DecodedPart {
            headers: self.headers,
            content_type: self.content_type,
            body,
        }
    }

    /// The transfer encoding that `get_payload(decode=True)` undoes.
    pub fn transfer_encoding(&self) -> TransferEncoding {
        TransferEncoding::from_header(self.get("Content-Transfer-Encoding"))
    }

    /// The preamble of a multipart (text before the first boundary, without
    /// the line break that belongs to the boundary).
    pub fn preamble(&self) -> Option<&str> {
        self.preamble.as_deref()
    }

    /// The epilogue of a multipart (text after the closing boundary).
    pub fn epilogue(&self) -> Option<&str> {
        self.epilogue.as_deref()
    }

    /// Defects recorded while parsing this message.
    pub fn defects(&self) -> &[Defect] {
        &self.defects
    }

    /// Where this part starts in the parsed text (its first header line, or its
    /// body if it has no headers).
    pub fn start(&self) -> Mark {
        self.start
    }

    /// Where this part's body starts in the parsed text (line offset of the body
    /// within the document; column 0).
    pub fn body_start(&self) -> Mark {
        self.body_start
    }

    /// Where this part's text ends in the parsed text: the start of the boundary
    /// line (or other end) that closed it. The line break just before a boundary
    /// is inside this range although Python drops it from the payload.
    pub fn end(&self) -> Mark {
        self.end
    }

    /// The 0-based line of the input where this part's body starts.
    pub fn body_line(&self) -> u32 {
        self.body_start.line
    }

    /// `walk()`: this message, then every sub-part depth-first in document order.
    pub fn walk(&self) -> Walk<'_> {
        Walk::new(self)
    }

    /// [`walk`](Self::walk) by value, with depths: each part without its
    /// sub-parts (see [`IntoWalk`]), so a consumer can keep them by moving.
    pub fn into_walk(self) -> IntoWalk {
        IntoWalk::new(self)
    }

    /// `email.iterators._structure(msg, include_default=...)`: the tree of
    /// content types, four spaces of indent per level, one per line.
    pub fn structure(&self, include_default: bool) -> String {
        let mut out = String::new();
        for (depth, part) in self.walk().with_depth() {
            for _ in 0..depth * 4 {
                out.push(' ');
            }
            out.push_str(part.get_content_type());
            if include_default {
                out.push_str(" [");
                out.push_str(part.get_default_type());
                out.push(']');
            }
            out.push('\n');
        }
        out
    }

    /// `get_params(header=...)` (unquoted): `Ok(None)` if the header is missing.
    pub fn get_params(&self, header: &str) -> Result<Option<Vec<(String, ParamValue)>>, PyError> {
        let Some(v) = self.get(header) else {
            return Ok(None);
        };
        Ok(Some(
            params_preserve(v)?
                .into_iter()
                .map(|(k, v)| (k, unquote_value(v)))
                .collect(),
        ))
    }

    /// `get_param(param, header=header)` (unquoted): the first parameter whose
    /// name matches case-insensitively. Python raises for some malformed RFC 2231
    /// parameters; that is the `Err`.
    pub fn get_param(&self, param: &str, header: &str) -> Result<Option<ParamValue>, PyError> {
        let Some(v) = self.get(header) else {
            return Ok(None);
        };
        // Every part's filename is asked for: the common case builds one value.
        if let Some(found) = plain_param(v, param) {
            return Ok(found);
        }
        Ok(params_preserve(v)?
            .into_iter()
            .find(|(k, _)| py_eq_lower(k, param))
            .map(|(_, v)| unquote_value(v)))
    }

    /// `get_filename()`: Content-Disposition `filename`, else Content-Type `name`,
    /// RFC 2231-decoded and stripped.
    pub fn get_filename(&self) -> Result<Option<String>, PyError> {
        let p = match self.get_param("filename", "Content-Disposition")? {
            Some(p) => p,
            None => match self.get_param("name", "Content-Type")? {
                Some(p) => p,
                None => return Ok(None),
            },
        };
        // The usual name (`part-001.yaml`, already unquoted) is its own
        // collapsed and stripped form: kept, not copied again.
        let p = match p {
            ParamValue::Str(s)
                if matches!(unquote(&s), Cow::Borrowed(u) if u.len() == s.len())
                    && py_strip(&s).len() == s.len() =>
            {
                return Ok(Some(s));
            }
            p => p,
        };
        let name = p.collapse_cow()?;
        Ok(Some(py_strip(&name).to_owned()))
    }

    /// `get_boundary()`: the `boundary` parameter, RFC 2231-decoded, right-stripped.
    pub fn get_boundary(&self) -> Result<Option<String>, PyError> {
        match self.get_param("boundary", "Content-Type")? {
            Some(p) => Ok(Some(py_rstrip(&p.collapse()?).to_string())),
            None => Ok(None),
        }
    }

    /// `get_content_disposition()`: lower-cased disposition type, if the header exists.
    pub fn get_content_disposition(&self) -> Option<String> {
        self.get("Content-Disposition")
            .map(|v| py_lower(content_type::split_param(v).0))
    }
}
