//! Content types as `Message.get_content_type()` computes them.

use crate::byte_scan::find_any;
use crate::python::{py_lower, py_strip};

/// The default content type of a part (RFC 2045), `text/plain`.
pub const TEXT_PLAIN: &str = "text/plain";
/// The default content type of a part directly inside `multipart/digest`.
pub const MESSAGE_RFC822: &str = "message/rfc822";

/// `email.message._splitparam`: the text before the first `;` (stripped) and
/// the rest (stripped), if there was a `;`.
pub(crate) fn split_param(value: &str) -> (&str, Option<&str>) {
    // Bytes, not `split_once(';')`: every part's type is read (a `char`
    // search costs several times a byte scan on text this short).
    match find_any(value.as_bytes(), [b';']) {
        Some(i) => (
            py_strip(value.get(..i).unwrap_or(value)),
            Some(py_strip(value.get(i + 1..).unwrap_or(""))),
        ),
        None => (py_strip(value), None),
    }
}

/// The content type for a `Content-Type` header value (`None`: no header):
/// lower-cased `maintype/subtype` without parameters; a value that does not
/// contain exactly one `/` gives `text/plain` (not the default type).
pub fn content_type_of(header: Option<&str>, default_type: &str) -> String {
    match header {
        None => default_type.to_string(),
        Some(v) => {
            let ctype = py_lower(split_param(v).0);
            if ctype.bytes().filter(|&b| b == b'/').count() == 1 {
                ctype
            } else {
                TEXT_PLAIN.to_string()
            }
        }
    }
}

/// The main type of a content type (before the `/`).
pub(crate) fn maintype(ctype: &str) -> &str {
    match find_any(ctype.as_bytes(), [b'/']) {
        Some(i) => ctype.get(..i).unwrap_or(ctype),
        None => ctype,
    }
}

/// The subtype of a content type (after the `/`).
pub(super) fn subtype(ctype: &str) -> &str {
    let Some(i) = find_any(ctype.as_bytes(), [b'/']) else {
        return "";
    };
    let rest = ctype.get(i + 1..).unwrap_or("");
    maintype(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        assert_eq!(content_type_of(None, MESSAGE_RFC822), "message/rfc822");
        assert_eq!(
            content_type_of(Some("garbage"), MESSAGE_RFC822),
            "text/plain"
        );
        assert_eq!(content_type_of(Some("a/b/c"), TEXT_PLAIN), "text/plain");
        assert_eq!(
            content_type_of(Some(" Text/X ; charset=x"), TEXT_PLAIN),
            "text/x"
        );
    }
}
