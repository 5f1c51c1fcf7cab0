//! `SchemaKind`: the merged config against cloud-init's JSON schema.

use crate::diagnostic::{DiagnosticKind, Severity};
use std::fmt;

/// A schema finding (`validate --schema`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchemaKind {
    /// `schema-invalid` (error): a value the schema does not allow
    /// (`runcmd: ls` — a string where a list is expected; `package_update: yes please`).
    Invalid {
        /// Path of the value.
        path: String,
        /// The schema's complaint.
        message: String,
    },
    /// `schema-deprecated` (warning): a key or value cloud-init deprecated
    /// (`apt_update: true`: use `package_update`).
    Deprecated {
        /// Path of the value.
        path: String,
        /// cloud-init's deprecation text.
        message: String,
    },
}

impl fmt::Display for SchemaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SchemaKind::Invalid { path, message } => write!(f, "{path}: {message}"),
            // 25.1's text starts with a space when the key has no description.
            SchemaKind::Deprecated { path, message } => {
                write!(f, "{path}: {}", message.trim_start())
            }
        }
    }
}

impl DiagnosticKind for SchemaKind {
    fn code(&self) -> &'static str {
        match self {
            SchemaKind::Invalid { .. } => "schema-invalid",
            SchemaKind::Deprecated { .. } => "schema-deprecated",
        }
    }

    fn severity(&self) -> Severity {
        match self {
            SchemaKind::Invalid { .. } => Severity::Error,
            SchemaKind::Deprecated { .. } => Severity::Warning,
        }
    }
}
