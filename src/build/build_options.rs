//! `BuildOptions`: the payload-wide choices (layout style, boundary, merge type, gzip, base64).

/// Whose byte layout to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// `cloud-init devel make-mime`: LF line ends, every part base64 with
    /// `charset="utf-8"`, `Merge-Type` headers; deterministic boundary
    /// `===============<19 digits>==` derived from the content.
    #[default]
    CloudInit,
    /// Terraform's `cloudinit_config`: boundary `MIMEBOUNDARY`, CRLF rules of
    /// the provider, 7bit parts, alphabetical Go-canonical part headers,
    /// `X-Merge-Type`. Unlike the provider, a part with non-ASCII bytes is
    /// sent base64 (7bit would be corrupted by cloud-init's 8-bit quirk).
    Terraform,
}

/// Payload-wide options.
#[derive(Debug, Clone, Default)]
pub struct BuildOptions {
    /// The layout.
    pub style: Style,
    /// The boundary; `None`: the style's default (never one that collides).
    pub boundary: Option<String>,
    /// A merge spec or preset for every `text/cloud-config` part that has none of its own.
    pub merge_type: Option<String>,
    /// gzip the whole document.
    pub gzip: bool,
    /// base64 the result; `None`: Terraform's rule, base64 exactly when gzipped.
    pub base64: Option<bool>,
    /// Accept unknown or undetectable types and parts cloud-init would re-type.
    pub force: bool,
}

impl BuildOptions {
    /// Whether the output is base64'd.
    pub fn base64_output(&self) -> bool {
        self.base64.unwrap_or(self.gzip)
    }
}
