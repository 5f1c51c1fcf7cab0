//! MIME reading exactly as cloud-init sees it: CPython 3.11's `email` package
//! (`message_from_string`, compat32) — headers, content types, parameters
//! (RFC 2231), multipart splitting, `walk()` and `get_payload(decode=True)` —
//! plus source positions for diagnostics. Knows nothing of YAML or cloud-init.
//!
//! Input is text (cloud-init decodes the document as strict UTF-8 first).
//! [`parse`] never fails on malformed MIME; it records [`Defect`]s. It fails
//! only where Python raises (see [`PyError`]) or beyond [`MAX_DEPTH`] levels of
//! nesting.

mod content_type;
mod defect;
mod error;
mod header;
mod line_reader;
mod message;
mod param;
mod parser;
mod pystr;
mod transfer_encoding;
mod walk;

pub use content_type::{MESSAGE_RFC822, TEXT_PLAIN, content_type_of};
pub use defect::{Defect, DefectKind};
pub use error::{ParseError, PyError};
pub use header::Header;
pub use message::{Message, Payload};
pub use param::{ParamValue, unquote};
pub use parser::{MAX_DEPTH, parse};
pub use transfer_encoding::TransferEncoding;
pub use walk::{Walk, WalkWithDepth};
