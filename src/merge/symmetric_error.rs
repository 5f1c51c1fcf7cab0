//! `SymmetricError`: why a merge in a symmetric dialect (`nickel`, keyed `cloud-config`) failed, with the places to point at.

use crate::diagnostic::{Diagnostic, DiagnosticKind, Label, Severity};
use crate::merge::{Conflict, MergeError};
use crate::source::{SourceId, Span};
use crate::yaml::typed_json::{WalkLimits, to_typed_json};
use crate::yaml::value::{Node, py_repr};
use std::fmt;

/// A failed merge in a symmetric dialect.
#[derive(Clone, Debug)]
#[non_exhaustive]
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

/// A value as a YAML/JSON reader writes it (`true`, `"x"`, `[1, 2]`), cut
/// to a readable length.
fn short(node: &Node) -> String {
    let text = match to_typed_json(node, WalkLimits::default()) {
        Ok(j) => j.to_string(),
        Err(_) => py_repr(node),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
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

/// A [`SymmetricError`] as a diagnostic kind: the message without places
/// (the labels carry them).
struct Kind<'a> {
    error: &'a SymmetricError,
    tags_help: &'static str,
}

impl fmt::Display for Kind<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.error {
            SymmetricError::NonMergeable(c) => write!(f, "non mergeable terms at {}", c.path),
            SymmetricError::Tag { tag, reason, .. } => write!(f, "tag {tag}: {reason}"),
            SymmetricError::Unrepresentable { what, .. } => {
                write!(f, "{what} has no Nickel equivalent")
            }
            SymmetricError::DuplicateIdentity(d) => write!(
                f,
                "two items with identity {} in {} in one file",
                d.identity, d.path
            ),
            SymmetricError::NotAMapping { type_name, .. } => {
                write!(f, "a cloud-config fragment is a mapping, not a {type_name}")
            }
            SymmetricError::Merge(e) => write!(f, "{e}"),
        }
    }
}

impl DiagnosticKind for Kind<'_> {
    fn code(&self) -> &'static str {
        match self.error {
            SymmetricError::NonMergeable(_) => "merge-conflict",
            SymmetricError::Tag { .. } => "merge-bad-tag",
            SymmetricError::Unrepresentable { .. } => "merge-unrepresentable",
            SymmetricError::DuplicateIdentity(_) => "merge-duplicate-identity",
            SymmetricError::NotAMapping { .. } => "merge-not-a-mapping",
            SymmetricError::Merge(_) => "merge-limit",
        }
    }

    fn severity(&self) -> Severity {
        Severity::Error
    }

    fn help(&self) -> Option<String> {
        match self.error {
            SymmetricError::NonMergeable(_) => Some(format!(
                "values of the same priority must be equal (or both mappings); {}",
                self.tags_help
            )),
            _ => None,
        }
    }
}

impl SymmetricError {
    /// The error as a diagnostic; `name` names sources (for the note saying
    /// which merge brought two values together); `tags_help` says which tags
    /// settle a conflict in this dialect.
    pub fn to_diagnostic(
        &self,
        name: &dyn Fn(SourceId) -> String,
        tags_help: &'static str,
    ) -> Diagnostic {
        let d = Diagnostic::new(&Kind {
            error: self,
            tags_help,
        });
        match self {
            SymmetricError::NonMergeable(c) => d
                .with_primary(
                    Label::new(c.new.span())
                        .with_path(c.path.clone())
                        .with_message(format!("cannot merge this value: {}", short(&c.new))),
                )
                .with_secondary(
                    Label::new(c.old.span())
                        .with_path(c.path.clone())
                        .with_message(format!("with this value: {}", short(&c.old))),
                )
                .with_note(format!(
                    "brought together by the merge {} & {}",
                    name(c.old.span().source),
                    name(c.new.span().source)
                )),
            SymmetricError::Tag { span, .. }
            | SymmetricError::Unrepresentable { span, .. }
            | SymmetricError::NotAMapping { span, .. } => d.with_primary(Label::new(*span)),
            SymmetricError::DuplicateIdentity(x) => d
                .with_primary(
                    Label::new(x.second)
                        .with_path(x.path.clone())
                        .with_message("the second"),
                )
                .with_secondary(Label::new(x.first).with_message("the first")),
            SymmetricError::Merge(e) => match &e.at {
                Some(p) => d.with_primary(Label::at_path(p.clone())),
                None => d,
            },
        }
    }
}
