//! `PartSpec`: one part as the user describes it (content, type, filename, merge type, extra headers).

use super::BuildError;
use crate::userdata::{known_types, other_agent, type_from_starts_with};

/// One part to build.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PartSpec {
    /// The bytes cloud-init should read back.
    pub content: Vec<u8>,
    /// A short name (`cloud-config`), a full media type (`text/cloud-config`),
    /// or `None` to detect it with cloud-init's start rules.
    pub content_type: Option<String>,
    /// The `Content-Disposition` filename (`None`: cloud-init names it `part-NNN`).
    pub filename: Option<String>,
    /// A merge spec or preset name for this part.
    pub merge_type: Option<String>,
    /// Extra headers, in order.
    pub headers: Vec<(String, String)>,
}

/// Types cloud-init re-examines with its start rules (a declared type there
/// is only a default).
const REDETECTED: &[&str] = &["text/plain", "text/x-not-multipart", "text/x-shellscript"];

/// The media type of part `part` (1-based, for messages): a short name gets
/// `text/`; unknown types are refused unless `force`; so is a declared type
/// cloud-init would re-detect as something else.
pub fn resolve_type(spec: &PartSpec, part: usize, force: bool) -> Result<String, BuildError> {
    // cloud-init decodes a text part with surrogateescape before looking at
    // its start, so invalid UTF-8 after the start does not hide it (found by
    // the build_roundtrip fuzzer); lossy decoding keeps the same prefix.
    let detected = type_from_starts_with(String::from_utf8_lossy(&spec.content).as_bytes());
    let Some(given) = &spec.content_type else {
        return match detected {
            Some(t) => Ok(t.to_owned()),
            None if force => Ok("text/plain".to_owned()),
            None => Err(BuildError::Undetectable { part }),
        };
    };
    let lower = given.trim().to_ascii_lowercase();
    let full = if lower.contains('/') {
        lower
    } else {
        format!("text/{lower}")
    };
    let valid_syntax = full.split('/').count() == 2
        && full
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/.+-_".contains(&b))
        && !full.starts_with('/')
        && !full.ends_with('/');
    if !valid_syntax {
        // Python would read it as text/plain: never what was meant.
        return Err(BuildError::UnknownType {
            part,
            given: given.clone(),
        });
    }
    // A type another agent on the image reads (EKS nodeadm's) is meant for it:
    // cloud-init ignoring it is intended (`validate` notes it, `part-other-agent`).
    if !force && !known_types().any(|t| t == full) && other_agent(&full).is_none() {
        return Err(BuildError::UnknownType {
            part,
            given: given.clone(),
        });
    }
    if REDETECTED.contains(&full.as_str())
        && !force
        && let Some(d) = detected
        && d != full
    {
        return Err(BuildError::Retyped {
            part,
            declared: full,
            detected: d.to_owned(),
        });
    }
    Ok(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(content: &str, ty: Option<&str>) -> PartSpec {
        PartSpec {
            content: content.as_bytes().to_vec(),
            content_type: ty.map(str::to_owned),
            ..PartSpec::default()
        }
    }

    #[test]
    fn types() {
        let r = |c, t| resolve_type(&spec(c, t), 1, false);
        assert_eq!(r("#cloud-config\n", None).unwrap(), "text/cloud-config");
        assert_eq!(
            r("a: 1", Some("cloud-config")).unwrap(),
            "text/cloud-config"
        );
        assert_eq!(r("x", Some("text/jinja2")).unwrap(), "text/jinja2");
        assert!(r("a: 1", None).is_err());
        assert!(r("a: 1", Some("yaml")).is_err());
        assert!(r("a: 1", Some("text/cloud-config; x")).is_err());
        assert!(r("#cloud-config\n", Some("x-shellscript")).is_err());
        assert_eq!(
            r("echo", Some("x-shellscript")).unwrap(),
            "text/x-shellscript"
        );
        assert_eq!(
            resolve_type(&spec("a", Some("application/x-foo")), 1, true).unwrap(),
            "application/x-foo"
        );
    }
}
