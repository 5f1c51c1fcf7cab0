//! `PartType`: content types cloud-init knows, and its "starts with" type detection.

use crate::python::py_is_space;

/// The prefix → type table of cloud-init's handlers, longest prefixes first
/// (the order detection tries them in). Prefixes compare lower-case.
const STARTS_WITH: &[(&str, &str)] = &[
    (
        "text/x-shellscript-per-instance",
        "text/x-shellscript-per-instance",
    ),
    ("text/x-shellscript-per-boot", "text/x-shellscript-per-boot"),
    ("text/x-shellscript-per-once", "text/x-shellscript-per-once"),
    ("#cloud-config-archive", "text/cloud-config-archive"),
    ("#cloud-config-jsonp", "text/cloud-config-jsonp"),
    ("## template: jinja", "text/jinja2"),
    ("#cloud-boothook", "text/cloud-boothook"),
    ("#include-once", "text/x-include-once-url"),
    ("#cloud-config", "text/cloud-config"),
    ("#part-handler", "text/part-handler"),
    ("#include", "text/x-include-url"),
    ("#!", "text/x-shellscript"),
];

/// Declared types whose payload is re-examined with the starts-with rules.
pub(super) const REDETECT_TYPES: &[&str] =
    &["text/plain", "text/x-not-multipart", "text/x-shellscript"];

/// Declared types cloud-init gunzips.
pub(super) const GZIP_TYPES: &[&str] = &[
    "application/gzip",
    "application/gzip-compressed",
    "application/gzipped",
    "application/x-compress",
    "application/x-compressed",
    "application/x-gunzip",
    "application/x-gzip",
    "application/x-gzip-compressed",
];

/// The type of a non-MIME payload before detection.
pub(super) const NOT_MULTIPART: &str = "text/x-not-multipart";
/// `#include` parts.
pub(super) const INCLUDE: &str = "text/x-include-url";
/// `#include-once` parts.
pub(super) const INCLUDE_ONCE: &str = "text/x-include-once-url";
/// `#cloud-config-archive` parts.
pub(super) const ARCHIVE: &str = "text/cloud-config-archive";
/// `#cloud-config` parts.
pub(super) const CLOUD_CONFIG: &str = "text/cloud-config";
/// `#cloud-config-jsonp` parts.
pub(super) const JSONP: &str = "text/cloud-config-jsonp";

/// `t` shared when it is one of the types cloud-init's handlers know (or
/// `text/plain`), copied otherwise: the processor holds each part's type
/// while it retypes the part, and most parts have one of these.
pub(crate) fn shared_type(t: &str) -> std::borrow::Cow<'static, str> {
    match known_types()
        .chain([NOT_MULTIPART, "text/plain"])
        .find(|k| *k == t)
    {
        Some(k) => std::borrow::Cow::Borrowed(k),
        None => std::borrow::Cow::Owned(t.to_owned()),
    }
}

/// Every type `make-mime` accepts: the values of the starts-with table.
pub fn known_types() -> impl Iterator<Item = &'static str> {
    STARTS_WITH.iter().map(|(_, t)| *t)
}

/// cloud-init's `type_from_starts_with`: lower-case, strip leading whitespace
/// (not a BOM), then the first matching prefix, longest first. `None` when
/// nothing matches (or the bytes are not UTF-8).
pub fn type_from_starts_with(payload: &[u8]) -> Option<&'static str> {
    let text = std::str::from_utf8(payload).ok()?;
    let start = text.trim_start_matches(py_is_space);
    // Only the first characters matter; lower-casing can change lengths, so
    // compare on a lower-cased prefix of generous length.
    let head: String = start.chars().take(40).collect();
    let head = crate::python::py_lower(&head);
    STARTS_WITH
        .iter()
        .find(|(p, _)| head.starts_with(p))
        .map(|(_, t)| *t)
}

/// `PartType`: what cloud-init will do with a part of this (dispatched) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartType {
    /// `text/cloud-config`: merged.
    CloudConfig,
    /// `text/cloud-config-jsonp`: applied as a JSON patch.
    JsonPatch,
    /// `text/x-shellscript`: run once per instance.
    Script,
    /// `text/x-shellscript-per-{boot,instance,once}`.
    ScriptPerFrequency,
    /// `text/cloud-boothook`: run early, every boot.
    Boothook,
    /// `text/jinja2`: rendered with instance data, then handled by its result.
    Jinja,
    /// `text/part-handler`: Python code cloud-init imports.
    PartHandler,
    /// Anything else: ignored with a warning.
    Unhandled,
}

impl PartType {
    /// The handler for a dispatched content type.
    pub fn of(content_type: &str) -> PartType {
        match content_type {
            CLOUD_CONFIG => PartType::CloudConfig,
            JSONP => PartType::JsonPatch,
            "text/x-shellscript" => PartType::Script,
            "text/x-shellscript-per-boot"
            | "text/x-shellscript-per-instance"
            | "text/x-shellscript-per-once" => PartType::ScriptPerFrequency,
            "text/cloud-boothook" => PartType::Boothook,
            "text/jinja2" => PartType::Jinja,
            "text/part-handler" => PartType::PartHandler,
            _ => PartType::Unhandled,
        }
    }

    /// The handler name the oracle reports.
    pub fn handler_name(self) -> Option<&'static str> {
        Some(match self {
            PartType::CloudConfig | PartType::JsonPatch => "CloudConfigPartHandler",
            PartType::Script => "ShellScriptPartHandler",
            PartType::ScriptPerFrequency => "ShellScriptByFreqPartHandler",
            PartType::Boothook => "BootHookPartHandler",
            PartType::Jinja => "JinjaTemplatePartHandler",
            PartType::PartHandler => "part-handler",
            PartType::Unhandled => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        assert_eq!(
            type_from_starts_with(b"\n  #Cloud-Config\na: 1"),
            Some(CLOUD_CONFIG)
        );
        assert_eq!(
            type_from_starts_with(b"#cloud-configfoo"),
            Some(CLOUD_CONFIG)
        );
        assert_eq!(
            type_from_starts_with(b"#cloud-config-archive\n"),
            Some(ARCHIVE)
        );
        assert_eq!(type_from_starts_with(b"#include-oncex"), Some(INCLUDE_ONCE));
        assert_eq!(type_from_starts_with(b"\xef\xbb\xbf#cloud-config"), None);
        assert_eq!(type_from_starts_with(b"## template:jinja"), None);
        assert_eq!(
            type_from_starts_with(b"## template: JINJA\n"),
            Some("text/jinja2")
        );
        assert_eq!(
            type_from_starts_with(b"#!/bin/sh"),
            Some("text/x-shellscript")
        );
        assert_eq!(type_from_starts_with(b"\xff#!"), None);
    }
}
