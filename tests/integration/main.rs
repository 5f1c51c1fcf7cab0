//! Fast, offline tests of the library: everything here runs from a fresh clone, with no
//! reference outside the repository (recorded fixtures under `fixtures/` are in it).
//! One module per topic; add a module here rather than a new test binary.

// Test code: a failed unwrap, panic or out-of-range index is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "../support/mod.rs"]
mod support;

mod build_fixtures;
mod build_roundtrip;
mod compose_fixtures;
mod diagnostic;
mod diff_props;
mod emulation_home;
mod explain_cases;
mod jinja_regressions;
mod layers_regressions;
mod merge_dialect_layer;
mod merge_engine;
mod merge_engine_compose_modes;
mod merge_hiera_fixtures;
mod merge_hiera_props;
mod merge_keyed;
mod merge_layer_strategies;
mod merge_nickel;
mod merge_nickel_fixtures;
mod merge_owned;
mod merge_owned_symmetric;
mod merge_props;
mod merge_typed_vectors;
mod mime_fixtures;
mod mime_limits;
mod mime_positions;
mod typed_json_pretty;
mod userdata_preload;
mod userdata_regressions;
mod userdata_rfc822;
mod validate_props;
mod yaml_corpus;
mod yaml_dump;
mod yaml_dump_one_walk;
mod yaml_dump_split;
mod yaml_events;
mod yaml_fast_loader;
mod yaml_load;
mod yaml_local_tags;
mod yaml_parser_props;
mod yaml_readers;
