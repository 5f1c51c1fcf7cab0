//! `SymmetricError`: why a merge in a symmetric dialect (`nickel`, keyed `cloud-config`) failed, with the places to point at.

use crate::merge::{Conflict, MergeError};
use crate::source::{SourceId, Span};
use crate::yaml::value::{Node, py_repr};
use std::fmt;

/// A failed merge in a symmetric dialect.
#[derive(Clone, Debug)]
pub enum SymmetricError {
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
    /// A value the dialect cannot hold (for Nickel: a date, binary, a set, a
    /// non-string key, a non-finite float).
    Unrepresentable {
        /// What it is.
        what: String,
        /// Where.
        span: Span,
    },
    /// Two items of one list in one file with the same identity (the keyed
    /// dialect cannot tell which one a later file means).
    DuplicateIdentity(Box<DuplicateIdentity>),
    /// A cloud-config fragment whose top level is not a mapping.
    NotAMapping {
        /// The fragment's value.
        span: Span,
        /// Its Python type.
        type_name: &'static str,
    },
    /// The engine gave up (nesting or work limits).
    Merge(MergeError),
}

/// Two items with one identity in one list of one file.
#[derive(Clone, Debug)]
pub struct DuplicateIdentity {
    /// The list's path.
    pub path: String,
    /// The identity, as Python writes it.
    pub identity: String,
    /// The first item.
    pub first: Span,
    /// The second item.
    pub second: Span,
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

impl SymmetricError {
    /// The message with sources named by `name`.
    pub fn render(&self, name: &dyn Fn(SourceId) -> String) -> String {
        match self {
            SymmetricError::NonMergeable(c) => format!(
                "non mergeable terms at {}: {} ({}) and {} ({}), brought together by the merge {} & {}",
                c.path,
                short(&c.old),
                place(c.old.span(), name),
                short(&c.new),
                place(c.new.span(), name),
                name(c.old.span().source),
                name(c.new.span().source),
            ),
            SymmetricError::Tag { tag, span, reason } => {
                format!("{}: tag {tag}: {reason}", place(*span, name))
            }
            SymmetricError::Unrepresentable { what, span } => {
                format!("{}: {what} has no Nickel equivalent", place(*span, name))
            }
            SymmetricError::DuplicateIdentity(d) => format!(
                "{}: a second item with identity {} in {} (the first is at {})",
                place(d.second, name),
                d.identity,
                d.path,
                place(d.first, name)
            ),
            SymmetricError::NotAMapping { span, type_name } => format!(
                "{}: a cloud-config fragment is a mapping, not a {type_name}",
                place(*span, name)
            ),
            SymmetricError::Merge(e) => e.to_string(),
        }
    }
}

impl fmt::Display for SymmetricError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&|s: SourceId| format!("source {}", s.0)))
    }
}

impl std::error::Error for SymmetricError {}
