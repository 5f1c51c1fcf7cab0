//! Where things come from: source identities and positions (byte offset, line, column), and source text shared without copies.

mod line_index;
mod mark;
mod shared_bytes;
mod shared_text;
mod source_id;

internal! { use line_index::LineIndex; }
pub use mark::{Mark, Span};
internal! { use shared_bytes::SharedBytes; }
internal! { use shared_text::{SharedText, TextSource}; }
pub use source_id::SourceId;
