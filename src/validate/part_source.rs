//! `PartSource`: one part as the checks see it — number, source text, loaded YAML root, where its merge header is.

use crate::jinja::JinjaRender;
use crate::source::{SourceId, Span};
use crate::userdata::{Body, PartReport, Payload};
use crate::yaml::Node;

/// One dispatched part, prepared once for every check.
#[derive(Debug, Clone)]
pub struct PartSource {
    /// 1-based number.
    pub number: usize,
    /// The id its spans carry.
    pub source: SourceId,
    /// The payload as text (lossy where not UTF-8): what spans index.
    pub text: String,
    /// The YAML root, for cloud-config parts that load.
    pub root: Option<Node>,
    /// Where the `Merge-Type`/`X-Merge-Type` header line is in the document.
    pub header_span: Option<Span>,
    /// The header's merge spec text.
    pub header_spec: Option<String>,
}

impl PartSource {
    /// The payload text of `report` (what cloud-init's handler reads): a rendered
    /// jinja part's rendered text, which its spans index.
    pub fn text_of(report: &PartReport) -> String {
        if let Some(r) = &report.jinja
            && let JinjaRender::Rendered { text, .. } = &**r
        {
            return text.clone();
        }
        // Valid UTF-8 (the usual payload) is its own text either way: copied
        // once, not decoded into a Python string and copied again.
        if let Body::Bytes(b) = &report.leaf.body
            && let Some(t) = b.as_str()
        {
            return t.to_owned();
        }
        match report.leaf.payload() {
            Payload::Text(t) => t.to_string_lossy().into_owned(),
            Payload::Bytes(b) => String::from_utf8_lossy(&b).into_owned(),
            Payload::None => String::new(),
        }
    }

    /// Whether the part names no merge directive at all (payload or header):
    /// cloud-init then merges it with `dict(replace)+list()+str()`.
    pub fn has_no_directive(&self) -> bool {
        let in_payload = self.root.as_ref().and_then(Node::as_map).is_some_and(|m| {
            ["merge_how", "merge_type"]
                .iter()
                .any(|k| m.get_str(k).is_some_and(|v| !v.is_null()))
        });
        !in_payload
            && self
                .header_spec
                .as_deref()
                .is_none_or(|h| h.trim().is_empty())
    }

    /// The span of the payload's `merge_how` (else `merge_type`) entry, key to value.
    pub fn payload_spec_span(&self) -> Option<Span> {
        let map = self.root.as_ref()?.as_map()?;
        let pick = |name: &str| {
            map.iter()
                .find(|(k, v)| k.as_str() == Some(name) && !v.is_null())
                .map(|(k, v)| {
                    Span::new(self.source, k.span().start, v.span().end.max(k.span().end))
                })
        };
        pick("merge_how").or_else(|| pick("merge_type"))
    }
}
