//! `OtherAgent`: content types another program on the image reads from the same user-data (EKS `nodeadm`), which cloud-init ignores.

/// A program other than cloud-init that reads its own parts of a MIME
/// user-data payload. cloud-init has no handler for these parts and drops them
/// (logging "Unhandled unknown content-type"), which is what their authors intend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtherAgent {
    /// The part's media type, lower-case (`application/node.eks.aws`).
    pub content_type: &'static str,
    /// The program that reads it.
    pub agent: &'static str,
    /// Where it runs.
    pub images: &'static str,
}

/// The known agents. Only types a widely used image's boot agent is known to
/// read belong here; each entry names its source.
///
/// `application/node.eks.aws`: `nodeadm`, the node agent of the Amazon EKS AL2023
/// AMIs (awslabs/amazon-eks-ami, `nodeadm/internal/configprovider/userdata.go`:
/// `nodeConfigMediaType = "application/" + api.GroupName`, the group
/// `node.eks.aws`), reads each part of a MIME user-data with that media type as a
/// `NodeConfig`, undoing base64 and gzip itself. A real payload of that shape, from
/// the same repository's nodeadm end-to-end tests, is in the real-world corpus
/// (`tests/oracle/validate_oracle.rs` checks cloud-init drops its parts with a warning).
pub const OTHER_AGENTS: &[OtherAgent] = &[OtherAgent {
    content_type: "application/node.eks.aws",
    agent: "nodeadm",
    images: "Amazon EKS-optimized Amazon Linux 2023 AMIs",
}];

/// The agent that reads parts of `content_type` (compared as cloud-init
/// dispatches types: lower-case `maintype/subtype`, no parameters).
pub fn other_agent(content_type: &str) -> Option<&'static OtherAgent> {
    OTHER_AGENTS
        .iter()
        .find(|a| a.content_type.eq_ignore_ascii_case(content_type.trim()))
}
