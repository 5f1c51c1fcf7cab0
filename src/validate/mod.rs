//! `validate`: tell users before boot what cloud-init will do wrong with their user-data, and where.
//!
//! [`validate`] runs every check over a payload and returns a [`Report`]: the
//! diagnostics (see [`crate::diagnostic`]) and the sources they point into.
//! Each area has its kind enum, whose docs show an input that triggers each code:
//! `MimeKind` (`mime-*`), `AbortKind` (`userdata-*`), `PartKind` (`part-*`,
//! `include-*`, `archive-*`), `MergeKind` (`merge-*`), `EncodingKind`
//! (`encoding-*`), `SizeKind` (`size-*`), `SchemaKind` (`schema-*`).
//!
//! Severities: an **error** means cloud-init will not do what the payload says (a
//! part is dropped, processing aborts, the cloud rejects the size); a **warning**
//! means it probably does something else than intended (a list silently replaced,
//! a misspelt merge option) or cannot be checked offline; a **note** is information.

mod abort_kind;
mod did_you_mean;
mod encoding_check;
mod encoding_kind;
mod jinja_check;
mod merge_kind;
mod merge_lint;
mod merge_replay;
mod mime_check;
mod mime_kind;
mod node_lookup;
mod part_check;
mod part_kind;
mod part_source;
mod plan_check;
mod plan_kind;
mod platform;
mod report;
mod rules;
mod schema;
mod size_check;
mod size_kind;
mod spans;
mod validate_options;
mod validator;

internal! { use abort_kind::AbortKind; }
internal! { use did_you_mean::did_you_mean; }
internal! { use encoding_kind::EncodingKind; }
internal! { use merge_kind::MergeKind; }
internal! { use mime_kind::MimeKind; }
internal! { use node_lookup::find_by_path; }
internal! { use part_kind::PartKind; }
internal! { use part_source::PartSource; }
internal! { use plan_check::default_profile; }
internal! { use plan_kind::PlanKind; }
pub use platform::Platform;
internal! { use platform::Measure; }
pub use report::Report;
pub use rules::RULES;
pub use schema::{JsonSchema, SchemaError};
internal! { use schema::{MiniRegex, SchemaFacts, SchemaIssue, SchemaKind}; }
pub use size_check::SizeLimit;
internal! { use size_kind::SizeKind; }
pub use validate_options::ValidateOptions;
pub use validator::validate;
internal! { use validator::DOCUMENT; }
