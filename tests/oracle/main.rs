//! Tests against references outside the repository: the real cloud-init and its recorded
//! vectors in `../shared` (or `$CLOUDFOLD_SHARED`), python3 with PyYAML 6.0.3 and Python's
//! `email`, puppet (Hiera), nickel, docker-compose.
//!
//! Each test that needs one is `#[ignore]`d with the reason, so a plain `cargo test` reports
//! it as ignored, never as passed; `scripts/conformance.sh` (CI) runs them with
//! `--include-ignored`, and there a missing reference fails the test. A test that needs no
//! reference belongs in tests/integration/ (a module of the same name, if it has one here).

// Test code: a failed unwrap, panic or out-of-range index is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "../support/mod.rs"]
mod support;

mod build_differential;
mod build_fixtures;
mod compose_differential;
mod conformance_handler;
mod conformance_samples;
mod conformance_userdata;
mod diff_oracle;
mod differential_oracle;
mod explain_provenance;
mod jinja_differential;
mod keyed_roundtrip;
mod layers_oracle;
mod merge_handler_vectors;
mod merge_hiera_differential;
mod merge_sources;
mod merge_vectors;
mod mime_depth_oracle;
mod mime_differential;
mod mime_fixtures;
mod mime_smoke;
mod nickel_differential;
mod plan_oracle;
mod python_tables;
mod realworld_corpus;
mod ruby_text;
mod schema_oracle;
mod seed_oracle;
mod validate_oracle;
mod yaml_depth_oracle;
mod yaml_differential;
mod yaml_dump;
mod yaml_events;
mod yaml_readers_shared;
