//! cloud-init's user-data pipeline: part kinds, gzip, archives, includes, launch index, JSON patches, the cloud-config handler.
//!
//! [`render`] is the whole fold: [`process`] (cloud-init's `UserDataProcessor`:
//! gzip, MIME, type detection, archives, includes, part numbering, launch
//! indexes), the launch-index filter, then dispatch to handlers, with the
//! cloud-config parts merged by [`CloudConfigHandler`].

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
mod user_data_options;
mod yaml_text;

pub mod json_patch;
pub mod py_json;

pub use crate::python::{py_is_space, py_splitlines, raw_unicode_escape};
pub use accumulated_message::{AccumulatedMessage, HandledPart, HandlerWalk, MessageNode};
pub use cloud_config_handler::{CloudConfigHandler, PartRejection};
pub use excluded_types::{ExcludedTypes, NotIterable};
pub use fold_observer::FoldObserver;
pub use fold_text::FoldText;
pub use gzip::{GzipError, gunzip};
pub use include::{IncludeLine, include_urls};
pub use launch_index::{filter_launch_index, selects};
pub use leaf::{Body, HeaderValue, Leaf, Origin, Payload};
pub use mime_leaves::format_attachment;
pub use other_agent::{OTHER_AGENTS, OtherAgent, other_agent};
pub use part_type::{PartType, known_types, type_from_starts_with};
pub use preloader::Preload;
pub use processor::{
    Fetched, IncludeResolver, NoIncludes, ProcessError, ProcessWarning, Processed, WarningKind,
    process, process_owned,
};
pub use py_int::{IntError, int_from_str, py_int};
pub use render::{
    Folded, PartOutcome, PartReport, RenderError, Renderer, render, render_observed, render_owned,
};
pub use user_data_options::{
    DEFAULT_MAX_ALIAS_EXPANSION, DEFAULT_MAX_DECOMPRESSED_SIZE, DEFAULT_MAX_INPUT_SIZE,
    DEFAULT_MAX_SCALAR_SIZE, Limits, Release, UserDataOptions,
};
pub use yaml_text::{LoadSite, load_py_text, load_py_text_at, load_py_text_in};
