//! Where things come from: source identities and positions (byte offset, line, column).

mod mark;
mod source_id;

pub use mark::{Mark, Span};
pub use source_id::SourceId;
