//! MIME reading exactly as cloud-init sees it: CPython 3.11's `email` package
//! (`message_from_string`, compat32) — headers, content types, parameters
//! (RFC 2231), multipart splitting, `walk()` and `get_payload(decode=True)` —
//! plus source positions for diagnostics. Knows nothing of YAML or cloud-init.
//!
//! Input is text (cloud-init decodes the document as strict UTF-8 first).
//! [`parse`] never fails on malformed MIME; it records [`Defect`]s. It fails
//! only where Python raises (see [`PyError`]), including its `RecursionError` on
//! parts nested deeper than [`MAX_DEPTH`] (or a multipart deeper than
//! [`MAX_MULTIPART_DEPTH`]).
//!
//! ```
//! use cloudfold::mime;
//! let doc = "Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n\
//!            --B\nContent-Type: text/cloud-config\n\n#cloud-config\na: \u{20ac}\n--B--\n";
//! let msg = mime::parse(doc).unwrap();
//! let leaf = msg.walk().nth(1).unwrap();
//! assert_eq!(leaf.get_content_type(), "text/cloud-config");
//! // Python's 8-bit quirk: a non-Latin-1 character comes back as `\u20ac`.
//! assert_eq!(leaf.get_payload_decoded().unwrap(), b"#cloud-config\na: \\u20ac");
//! assert_eq!(leaf.body_line(), 6);
//! ```
//!
//! Limits and known differences from Python:
//! * CPython's `RecursionError` on deep nesting is reproduced at the levels
//!   measured against the oracle (CPython 3.11 under cloud-init, see
//!   [`MAX_DEPTH`]); another Python, or a caller with a deeper stack, gives up
//!   a few levels elsewhere.
//! * RFC 2231 values in charsets other than UTF-8, ASCII and Latin-1 (and
//!   their aliases) are returned undecoded, as Python does for unknown codecs
//!   (Python would decode e.g. `cp1252`).
//! * Unicode case mapping and whitespace follow Rust's Unicode tables, which
//!   may differ from Python 3.11's (Unicode 14) for recently added characters.
//! * Nothing here allocates more than a small multiple of the input; all
//!   scans are linear (no quadratic quote counting as in `_parseparam`).

mod content_type;
mod decoded_part;
mod defect;
mod error;
mod header;
mod line_reader;
mod message;
mod param;
mod parser;
mod pystr;
mod split_parse;
mod transfer_encoding;
pub(crate) use transfer_encoding::a2b_base64;
mod walk;
pub(crate) use content_type::maintype;

internal! { use content_type::{MESSAGE_RFC822, TEXT_PLAIN, content_type_of}; }
internal! { use decoded_part::DecodedPart; }
internal! { use defect::{Defect, DefectKind}; }
internal! { use error::{ParseError, PyError}; }
internal! { use header::{Header, HeaderName, header_name}; }
internal! { use message::{Message, Payload}; }
internal! { use param::{ParamValue, unquote}; }
internal! { use parser::{MAX_DEPTH, MAX_MULTIPART_DEPTH, parse, parse_shared, parse_shared_splitting}; }
internal! { use transfer_encoding::TransferEncoding; }
internal! { use walk::{IntoWalk, Walk, WalkWithDepth}; }
