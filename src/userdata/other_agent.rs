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
/// `application/node.eks.aws`: `nodeadm` (awslabs/amazon-eks-ami,
/// `nodeadm/internal/configprovider/userdata.go`: `nodeConfigMediaType =
/// "application/" + api.GroupName`, the group `node.eks.aws`) reads each such part
/// of a MIME payload as a `NodeConfig`, base64 and gzip undone by itself; the EKS
/// AL2023 AMIs run it before cloud-init's final stage, and EKS managed node groups
/// and Karpenter write such parts.
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
