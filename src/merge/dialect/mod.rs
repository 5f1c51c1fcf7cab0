//! What every merge dialect shares: documents in (lowest priority first), one merged document and diagnostics out.
//!
//! `cloudfold merge --dialect D FILE...` loads each file into a [`Layer`] (YAML 1.1
//! as cloud-init reads it, JSON being YAML; local tags such as `!reset` or
//! `!priority:10` kept as annotations in the layer's `TagMap`)
//! and hands the layers to the dialect: [`super::hiera`], [`super::compose`],
//! [`super::nickel`] or [`super::keyed`]. Every dialect runs on the one engine
//! (`super::merge_with`) with its own strategies; each answers a
//! [`DialectOutcome`]. Merged nodes keep the spans of the layer that supplied
//! them, so provenance is the span's source.

mod dialect_outcome;
mod layer;
mod layer_error;
mod origin;

pub use dialect_outcome::DialectOutcome;
pub use layer::Layer;
pub use layer_error::LayerError;
pub use origin::{ExpansionExceeded, Origin, origins};
