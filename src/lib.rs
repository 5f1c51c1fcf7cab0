//! cloudfold: fold cloud-init user-data offline, exactly as cloud-init does, and explain it.
//!
//! Stages (dependencies point one way): [`source`] ← [`diagnostic`], [`mime`], [`yaml`] ← [`merge`] ←
//! [`userdata`] ← [`build`], [`validate`], [`explain`] ← [`diff`] ← the `cloudfold` binary.

#![forbid(unsafe_code)]

pub mod build;
mod byte_scan;
mod content_hash;
mod deep_stack;
pub mod diagnostic;
pub mod diff;
pub mod explain;
pub mod jinja;
pub mod layers;
pub mod merge;
pub mod mime;
pub mod plan;
mod python;
mod run_aside;
pub mod seed;
pub mod source;
pub mod userdata;
pub mod validate;
pub mod yaml;

pub use run_aside::{AsideJob, Offload, RunAside};
