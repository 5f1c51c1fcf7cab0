//! Helpers shared by the YAML loader tests (each test binary uses a subset).
#![allow(dead_code)]

pub mod same_tree;
pub mod yaml_outcome;
