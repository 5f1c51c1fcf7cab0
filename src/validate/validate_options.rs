//! `ValidateOptions`: what `validate` emulates and checks.

use super::{JsonSchema, SizeLimit};
use crate::layers::ImageProfile;
use crate::userdata::UserDataOptions;

/// Options for [`super::validate`].
#[derive(Clone, Debug, Default)]
pub struct ValidateOptions {
    /// The cloud-init emulation (release, launch index, limits).
    pub userdata: UserDataOptions,
    /// The payload's display name (`user-data.txt`), for the document's own diagnostics.
    pub input_name: String,
    /// Check the size against this limit.
    pub size_limit: Option<SizeLimit>,
    /// Check the merged config against this schema (cloud-init's `schema-cloud-config-v1.json`).
    pub schema: Option<JsonSchema>,
    /// Report parts that another agent reads (EKS `nodeadm`'s `application/node.eks.aws`)
    /// as cloud-init sees them, `part-unknown-type` errors, instead of
    /// `part-other-agent` notes (`validate --strict`).
    pub cloud_init_only: bool,
    /// The image the payload boots on, for the boot-order traps that compare with
    /// its module lists and default user (`None`: the profile `plan` assumes,
    /// `super::default_profile`).
    pub image: Option<ImageProfile>,
}
