//! cloud-init's merge dialect: merge specs (`merge_how`, `Merge-Type`), the dict/list/str mergers, per-part extraction.
//!
//! Raw first, then resolved: a [`MergeSpec`] is what the user wrote, parsed
//! with all of cloud-init's quirks; [`MergerStack::resolve`] turns it into
//! engine strategies or fails as cloud-init would (`ImportError` for an
//! unknown merger, …).

mod merge_spec;
mod merger_stack;
mod options;
mod part;
mod version;

pub use merge_spec::{MergeSpec, SpecEntry, SpecName};
pub use merger_stack::MergerStack;
pub use options::Options;
pub use part::{
    PreparedPart, default_mergers, extract_payload_mergers, merge_many, parse_merge_string,
    prepare_part, stack_for_part,
};
pub use version::Version;
// The layers stage strips and lower-cases as cloud-init does too (one place).
