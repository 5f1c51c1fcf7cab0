//! `## template: jinja` parts: instance data, a Jinja2-exact engine on MiniJinja, and cloud-init's handler.
//!
//! The library entry point for any templated text (user-data parts, vendor
//! data, templated `/etc/cloud` files): load the instance data once with
//! [`InstanceData::from_json`], make an [`Engine`] for the release's Jinja2,
//! then [`Engine::render`] a template body, or [`render_part`] a whole part
//! as `JinjaTemplatePartHandler` does (header, newline rule, missing
//! variables, sub-handler type) with [`cloud_init_logs`] for its warnings.
//!
//! ```
//! use cloudfold::jinja::{Engine, InstanceData, JinjaLimits, JinjaVersion};
//! let data = InstanceData::from_json(br#"{"v1": {"region": "eu-1"}}"#).unwrap();
//! let engine = Engine::new(JinjaVersion::V3_1_6, JinjaLimits::default());
//! assert_eq!(engine.render("{{ region }} {{ nope }}", data.vars()).unwrap(), "eu-1 CI_MISSING_JINJA_VAR/nope");
//! ```

mod args;
mod block_stack;
mod bracket_balance;
mod engine;
mod filters;
mod group_tuple;
mod instance_data;
mod jinja_part;
mod jtests;
mod line_map;
mod lookup;
mod methods;
mod pprint;
mod program;
mod py_error;
mod py_format;
mod py_object;
mod py_ops;
mod query;
mod query_error;
mod stateful;
mod string_literal;
mod striptags;
mod template_scan;
mod textwrap;
pub(crate) mod tojson;
mod urlize;

pub use engine::{Engine, JinjaLimits};
internal! { use engine::GLOBALS; }
pub use engine::RenderError;
internal! { use filters::FILTERS; }
pub use instance_data::InstanceData;
internal! { use instance_data::{is_version_key, jinja_alias}; }
pub use instance_data::InstanceDataError;
pub use jinja_part::{
    JinjaContext, JinjaDrop, JinjaRender, cloud_init_logs, detect_template, render_part,
    template_body,
};
internal! { use jinja_part::{CloudInitLog, INSTANCE_DATA_PATH, decode_escaped, encode_escaped, missing_vars}; }
internal! { use jtests::TESTS; }
internal! { use line_map::LineMap; }
pub use py_error::PyExc;
pub use py_error::RenderFault;
internal! { use py_format::{py_repr, py_str}; }
pub use query::{find_var, list_keys, query_text};
pub use query_error::QueryError;
internal! { use tojson::json_dumps; }

/// `MISSING_JINJA_PREFIX`.
pub const MISSING_JINJA_PREFIX: &str = "CI_MISSING_JINJA_VAR/";

/// The Jinja2 release a cloud-init release runs with on Debian.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JinjaVersion {
    /// bookworm's python3-jinja2 3.1.2 (cloud-init 22.4).
    V3_1_2,
    /// trixie's python3-jinja2 3.1.6 (cloud-init 25.1).
    V3_1_6,
}
