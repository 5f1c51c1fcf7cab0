//! `DecodedPart`: one MIME part taken apart by value (headers, content type, decoded body).

use super::header::Header;
use crate::source::SharedBytes;

/// What [`Message::into_decoded`](super::Message::into_decoded) gives: the
/// parts of a message a consumer keeps, without copying them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedPart {
    /// All headers in order, duplicates kept.
    pub headers: Vec<Header>,
    /// `get_content_type()`: lower-case `maintype/subtype`.
    pub content_type: String,
    /// `get_payload(decode=True)`: `None` for a container.
    pub body: Option<SharedBytes>,
}
