//! Checking the merged config against cloud-init's JSON schema, each finding at the part and line that supplied the value.

mod json_schema;
mod mini_regex;
mod schema_error;
mod schema_facts;
mod schema_kind;

pub use json_schema::{JsonSchema, SchemaIssue};
pub use mini_regex::MiniRegex;
pub use schema_error::SchemaError;
pub use schema_facts::SchemaFacts;
pub use schema_kind::SchemaKind;
