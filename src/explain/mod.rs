//! `explain`: where each key and list item of the merged cloud-config came from, and what each part did.
//!
//! [`explain`] folds a payload with `crate::userdata::render_observed`,
//! recording each cloud-config part's data and the merge engine's decisions,
//! then walks the merged config: every value's origin is its node's span
//! (part and line:column in that part's decoded text); the decision that put
//! it there comes from replaying the recorded decisions per logical path.
//! Nothing here changes the fold: the config is `render`'s.

mod change;
mod explanation;
mod history;
mod json_view;
mod locator;
mod node_set;
mod recorder;
mod text_view;

internal! { use change::{Change, Step, keep_words}; }
pub use explanation::{ExplainError, ExplainLimits, Explanation, explain};
internal! { use explanation::{PartChange, PartStatus, jsonp_shift, part_text}; }
pub use explanation::Entry;
pub use explanation::Origin;
pub use explanation::OriginKind;
pub use explanation::PartSummary;
pub use explanation::Position;
pub use json_view::JsonView;
internal! { use json_view::to_json; }
internal! { use locator::Locator; }
pub use text_view::{to_text, write_text};
internal! { use text_view::{inline, status_words}; }
