//! `diff`: what a change to user-data does at boot — the two merged configs compared by logical path, and the parts that caused it.
//!
//! Each payload is folded as [`crate::userdata::render`] folds it (the same
//! options for both), then:
//!
//! - the merged configs are compared by logical path (`ValueChange`):
//!   keys added, removed, changed; list items aligned by a linear-space
//!   diff (`align`), so an inserted `runcmd` line is one addition; values
//!   compared exactly as cloud-init's values differ (type and value, see
//!   `value_classes`); differences the modules cannot see (key order, a
//!   tuple against a list, a top-level `merge_type`) are kept apart;
//! - each value comes with where it was read (part, line:column:
//!   `crate::explain::Locator`);
//! - the parts are compared (`PartCause`): added, removed, moved,
//!   re-headed, their mergers, what cloud-init does with them and why
//!   (`explain`'s `crate::explain::PartSummary`), their text.
//!
//! With layers ([`diff_layered`]), the configs compared are what the
//! modules see: each payload as the user-data under the same layers.
//!
//! [`to_text`], [`to_json`] and [`yaml_diff`] write the result. [`diff_plans`]
//! compares two boot plans instead (`PlanDiff`, written by
//! [`plan_diff_text`] and [`plan_diff_json`]).

mod alignment;
mod bit_lcs;
mod config_walk;
mod diff_error;
mod diff_options;
mod folded_side;
mod json_view;
mod layered_diff;
mod line_hunk;
mod part_cause;
mod payload_diff;
mod plan_diff;
mod plan_diff_view;
mod text_view;
mod value_change;
mod value_classes;
mod yaml_diff;

pub use alignment::Budget;
internal! { use alignment::{Run, align, align_symmetric}; }
pub use diff_error::{DiffError, Side};
pub use diff_options::{DEFAULT_MAX_ALIGN_WORK, DiffOptions};
internal! { use folded_side::is_cloud_config_txt; }
pub use folded_side::FoldedSide;
pub use json_view::{JsonView, to_json};
pub use layered_diff::diff_layered;
internal! { use line_hunk::{LineHunk, line_hunks, split_lines}; }
internal! { use part_cause::PartDelta; }
pub use part_cause::PartCause;
pub use payload_diff::{PayloadDiff, diff};
pub use plan_diff::diff_plans;
internal! { use plan_diff::{LineChange, ModuleChange, ModuleCommands, ModuleOp, ModuleState, PlanDiff, StageDiff, Step, StepChange, StepOp}; }
pub use plan_diff_view::{plan_diff_json, plan_diff_text};
pub use text_view::{Palette, to_text};
internal! { use value_change::{NotAtBoot, Place}; }
pub use value_change::ChangeKind;
pub use value_change::ValueChange;
pub use yaml_diff::yaml_diff;
