//! Diagnostics every command shares: what went wrong, where (part and line), and how to fix it.
//!
//! A stage describes its problems with its own kind enum implementing [`DiagnosticKind`]
//! (code, severity, message via `Display`, optional help) and turns each into a
//! [`Diagnostic`] with [`Diagnostic::new`], adding [`Label`]s that point into named
//! source texts (a [`SourceMap`] of [`SourceFile`]s). The CLI renders them with
//! [`HumanRenderer`] (rustc/Butane style, via `annotate-snippets`), [`JsonRenderer`],
//! [`GithubRenderer`] (GitHub Actions annotations) or [`SarifRenderer`] (SARIF 2.1.0).
//! The last two point at the lines of the input file as the user wrote it: each
//! source's [`Placement`] says where its text is in that file, and a `FileLocator`
//! maps spans there.
//!
//! # Codes
//!
//! A code is a stable kebab-case name that starts with its area, e.g. `mime-missing-boundary`,
//! `yaml-syntax`, `part-unknown-type`, `merge-list-replaced`, `size-over-limit`,
//! `schema-type`. Names, not numbers: every area can add kinds without a shared
//! registry, a code reads well in `error[merge-list-replaced]`, and scripts can match on it.
//! A code never changes meaning once released; retired codes are not reused.
//! The severity is part of the kind, not of the code (`--strict` may promote warnings
//! to failures without changing their code).

// Files are named after their type, `Diagnostic` included.
#[allow(clippy::module_inception)]
mod diagnostic;
mod diagnostic_kind;
mod file_locator;
mod github_renderer;
mod human_renderer;
mod json_renderer;
mod label;
mod part_ref;
mod placement;
mod rule;
mod sarif_renderer;
mod severity;
mod source_file;
mod source_map;

pub use diagnostic::Diagnostic;
pub use diagnostic_kind::DiagnosticKind;
internal! { use file_locator::{FileLocator, FileRegion, Unplaced}; }
pub use github_renderer::GithubRenderer;
internal! { use github_renderer::{escape_data, escape_property}; }
pub use human_renderer::HumanRenderer;
pub use json_renderer::{ArrayView, JsonRenderer};
pub use label::Label;
pub use part_ref::PartRef;
pub use placement::Placement;
pub use rule::Rule;
pub use sarif_renderer::{SarifInput, SarifRenderer};
pub use severity::Severity;
pub use source_file::SourceFile;
pub use source_map::SourceMap;
