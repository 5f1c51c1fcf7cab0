//! cloud-init's user-data pipeline: part kinds, gzip, archives, includes, launch index, JSON patches, the cloud-config handler.
//!
//! [`render`] is the whole fold: `process` (cloud-init's `UserDataProcessor`:
//! gzip, MIME, type detection, archives, includes, part numbering, launch
//! indexes), the launch-index filter, then dispatch to handlers, with the
//! cloud-config parts merged by `CloudConfigHandler`.

mod accumulated_message;
mod cloud_config_handler;
mod excluded_types;
mod fold_observer;
mod fold_text;
mod gzip;
mod include;
mod launch_index;
mod leaf;
mod mime_leaves;
mod other_agent;
mod part_type;
mod preloader;
mod processor;
mod py_int;
mod render;
mod spent_trees;
mod user_data_options;
mod yaml_text;

internal! { mod json_patch; }
internal! { mod py_json; }
pub use json_patch::PatchError;
pub use py_json::JsonSyntaxError;

internal! { use crate::python::{py_is_space, py_splitlines, raw_unicode_escape}; }
internal! { use accumulated_message::{AccumulatedMessage, HandledPart, HandlerWalk, MessageNode}; }
internal! { use cloud_config_handler::CloudConfigHandler; }
pub use cloud_config_handler::PartRejection;
pub use excluded_types::ExcludedTypes;
pub use excluded_types::NotIterable;
internal! { use fold_observer::FoldObserver; }
pub use fold_text::FoldText;
pub use gzip::{GzipError, gunzip};
internal! { use include::{IncludeLine, include_urls}; }
internal! { use launch_index::{filter_launch_index, selects}; }
pub use leaf::Payload;
internal! { use leaf::{Body, HeaderValue}; }
pub use leaf::Leaf;
pub use leaf::Origin;
internal! { use mime_leaves::format_attachment; }
internal! { use other_agent::{OTHER_AGENTS, OtherAgent, other_agent}; }
internal! { use part_type::{known_types, type_from_starts_with}; }
pub use part_type::PartType;
pub use preloader::Preload;
pub use processor::{Fetched, IncludeResolver, NoIncludes, ProcessError};
internal! { use processor::{Processed, process, process_owned}; }
pub use processor::ProcessWarning;
pub use processor::WarningKind;
internal! { use py_int::{IntError, int_from_str, py_int}; }
pub use render::{Folded, PartOutcome, PartReport, RenderError, Renderer, render};
internal! { use render::{render_observed, render_owned}; }
pub(crate) use render::render_observed_writing;
pub use user_data_options::{
    DEFAULT_MAX_ALIAS_EXPANSION, DEFAULT_MAX_DECOMPRESSED_SIZE, DEFAULT_MAX_INPUT_SIZE,
    DEFAULT_MAX_SCALAR_SIZE, Limits, Release, UserDataOptions,
};
internal! { use yaml_text::{LoadSite, load_py_text, load_py_text_at, load_py_text_in, load_str_in}; }
