//! Assembling user-data payloads that cloud-init reads exactly as intended (`cloudfold build`).
//!
//! Pure: a list of [`PartSpec`]s and [`BuildOptions`] go in, the bytes of a
//! multipart payload come out ([`build`]). Every type, merge spec, filename,
//! header and the boundary is checked first, so nothing is produced that
//! cloud-init would drop, re-type or misread.

mod build_error;
mod build_options;
mod merge_preset;
mod merge_type_error;
mod part_spec;
mod payload_builder;

pub use build_error::BuildError;
pub use build_options::{BuildOptions, Style};
internal! { use merge_preset::{PRESETS, check_merge_type, expand_merge_type}; }
pub use merge_type_error::MergeTypeError;
pub use part_spec::PartSpec;
internal! { use part_spec::resolve_type; }
pub use payload_builder::{Built, ResolvedPart, build};
