//! cloudfold: fold cloud-init user-data offline, exactly as cloud-init does, and explain it.
//!
//! Stages (dependencies point one way): `source` ← [`diagnostic`], `mime`, [`yaml`] ← [`merge`] ←
//! [`userdata`] ← [`mod@build`], [`mod@validate`], [`mod@explain`] ← [`mod@diff`], [`layers`] ← [`mod@plan`] ← the
//! `cloudfold` binary (package `cloudfold-cli`).
//!
//! The crate root re-exports what a user needs for each command: [`render`], [`explain()`],
//! [`validate()`], [`build()`], [`merge`] (one `merge` per dialect), [`diff()`], [`plan()`],
//! [`fold_layers`], [`make_seed`] and the templates ([`render_part`], [`query_text`]), with
//! their options, results and errors. The stage modules hold the rest of each command's
//! vocabulary (renderers, views, limits).
//!
//! ```
//! use cloudfold::{render, NoIncludes, UserDataOptions};
//!
//! // Without its `MIME-Version` header, cloud-init reads this as one part of unknown type.
//! let payload = b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=X\n\n\
//! --X\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: [one]\n\
//! --X\nContent-Type: text/cloud-config\nMerge-Type: list(append)+dict(recurse_array)\n\n\
//! #cloud-config\nruncmd: [two]\n--X--\n";
//! let folded = render(payload, &UserDataOptions::default(), &NoIncludes)?;
//! assert_eq!(folded.parts.len(), 2);
//! assert!(folded.cloud_config_txt.contains("- one\n- two\n"));
//! # Ok::<(), cloudfold::RenderError>(())
//! ```
//!
//! # Stability
//!
//! cloudfold is 0.x: the library API may change in any minor release (the CHANGELOG says
//! how). Error enums are `#[non_exhaustive]`, so new failure kinds are not breaking. The
//! `internals` feature exposes stage internals for cloudfold's own tests, fuzz targets and
//! benchmarks: it carries no stability promise at all and is not for users.

#![forbid(unsafe_code)]
// Without `internals` the stage internals that only tests, fuzz and benches reach are
// crate-private by module: `pub` inside them is reachable (and checked) only with the feature.
#![cfg_attr(
    not(feature = "internals"),
    allow(
        unreachable_pub,
        dead_code,
        reason = "stage internals are public only with the `internals` feature"
    )
)]

/// Declares a `mod` or `use` that is `pub` with the `internals` feature (cloudfold's own tests,
/// fuzz targets, benches) and crate-private without it.
macro_rules! internal {
    ($($item:tt)*) => {
        #[cfg(feature = "internals")]
        pub $($item)*
        #[cfg(not(feature = "internals"))]
        #[allow(unused_imports, reason = "used by tests through the `internals` feature")]
        pub(crate) $($item)*
    };
}

pub mod build;
mod byte_scan;
mod content_hash;
mod deep_stack;
pub mod diagnostic;
pub mod diff;
pub mod explain;
pub mod jinja;
mod json_writer;
pub mod layers;
pub mod merge;
internal! { mod mime; }
pub mod plan;
internal! { mod python; }
mod run_aside;
pub mod seed;
pub mod source;
pub mod userdata;
pub mod validate;
pub mod yaml;

internal! { use run_aside::{AsideJob, Offload, RunAside}; }

pub use build::{BuildError, BuildOptions, Built, PartSpec, build};
pub use diff::{DiffError, DiffOptions, PayloadDiff, diff};
pub use explain::{ExplainError, ExplainLimits, Explanation, explain};
pub use jinja::{
    InstanceData, JinjaContext, JinjaLimits, JinjaRender, QueryError, query_text, render_part,
};
pub use layers::{LayerInputs, Layered, LayersError, fold_layers};
pub use merge::dialect::{DialectOutcome, Layer};
pub use plan::{BootPlan, PlanOptions, plan};
pub use seed::{Seed, SeedError, SeedFiles, SeedOptions, make_seed};
pub use userdata::{Folded, IncludeResolver, NoIncludes, RenderError, UserDataOptions, render};
pub use validate::{Report, ValidateOptions, validate};
