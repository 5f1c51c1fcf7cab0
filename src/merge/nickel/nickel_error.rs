//! `NickelError`: why a `nickel` dialect merge failed, with the places to point at.

use crate::merge::{Conflict, MergeError};
use crate::source::{SourceId, Span};
use crate::yaml::value::{Node, py_repr};
use std::fmt;

/// A failed Nickel-style merge.
#[derive(Clone, Debug)]
pub enum NickelError {
    /// Two values of equal priority that are not equal (nor both records).
    NonMergeable(Conflict),
    /// A tag the dialect does not know, or one where no field is.
    Tag {
        /// The tag as written.
        tag: String,
        /// The tagged value.
        span: Span,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A value Nickel data cannot hold (a date, binary, a set, a non-string
    /// key, a non-finite float).
    Unrepresentable {
        /// What it is.
        what: String,
        /// Where.
        span: Span,
    },
    /// The engine gave up (nesting or work limits).
    Merge(MergeError),
}

/// `name:line:col` of a span, 1-based.
pub fn place(span: Span, name: &dyn Fn(SourceId) -> String) -> String {
    format!(
        "{}:{}:{}",
        name(span.source),
        span.start.line + 1,
        span.start.column + 1
    )
}

fn short(node: &Node) -> String {
    let r = py_repr(node);
    if r.chars().count() > 60 {
        let cut: String = r.chars().take(57).collect();
        format!("{cut}...")
    } else {
        r
    }
}

impl NickelError {
    /// The message with sources named by `name`.
    pub fn render(&self, name: &dyn Fn(SourceId) -> String) -> String {
        match self {
            NickelError::NonMergeable(c) => format!(
                "non mergeable terms at {}: {} ({}) and {} ({}), brought together by the merge {} & {}",
                c.path,
                short(&c.old),
                place(c.old.span(), name),
                short(&c.new),
                place(c.new.span(), name),
                name(c.old.span().source),
                name(c.new.span().source),
            ),
            NickelError::Tag { tag, span, reason } => {
                format!("{}: tag {tag}: {reason}", place(*span, name))
            }
            NickelError::Unrepresentable { what, span } => {
                format!("{}: {what} has no Nickel equivalent", place(*span, name))
            }
            NickelError::Merge(e) => e.to_string(),
        }
    }
}

impl fmt::Display for NickelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|s: SourceId| format!("source {}", s.0)))
    }
}

impl std::error::Error for NickelError {}
