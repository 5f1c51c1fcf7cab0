//! `mime_leaves`: a parsed MIME document as the flat leaves cloud-init's processor walks.

use super::leaf::{Body, HeaderValue, Leaf, Origin};
use super::processor::ProcessError;
use super::user_data_options::Limits;

/// Python's `add_header('Content-Disposition', 'attachment', filename=f)` text.
pub fn format_attachment(filename: &str) -> String {
    if filename.is_empty() {
        return "attachment; filename".into();
    }
    if filename.is_ascii() {
        let quoted = filename.replace('\\', "\\\\").replace('"', "\\\"");
        return format!("attachment; filename=\"{quoted}\"");
    }
    let mut enc = String::from("utf-8''");
    for b in filename.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'~') {
            enc.push(b as char);
        } else {
            enc.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename*={enc}")
}

/// Python's `get_content_type()` for a Content-Type header value.
pub fn content_type_of(value: &str) -> String {
    crate::mime::content_type_of(Some(value), "text/plain")
}

/// Parse `text` as MIME and list its non-container parts in walk order.
pub fn mime_leaves(
    text: &str,
    origin: &Origin,
    limits: &Limits,
) -> Result<Vec<Leaf>, ProcessError> {
    let msg = crate::mime::parse(text).map_err(|e| ProcessError::Mime(e.to_string()))?;
    let mut out = Vec::new();
    for (index, part) in msg.walk().enumerate() {
        if part
            .get_content_maintype()
            .eq_ignore_ascii_case("multipart")
        {
            continue;
        }
        if out.len() >= limits.max_parts {
            return Err(ProcessError::Limit(format!(
                "more than the limit of {} parts (raise it with --max-parts)",
                limits.max_parts
            )));
        }
        let headers = part
            .items()
            .map(|(n, v)| (n.to_owned(), HeaderValue::Text(v.to_owned())))
            .collect();
        let body = match part.get_payload_decoded() {
            Some(b) => Body::Bytes(b),
            None => Body::None,
        };
        let filename = part
            .get_filename()
            .map_err(|e| ProcessError::Mime(e.to_string()))?;
        let origin = match origin {
            Origin::Whole => Origin::Mime {
                index,
                body_line: part.body_line(),
            },
            o => o.clone(),
        };
        out.push(Leaf {
            headers,
            content_type: part.get_content_type().to_owned(),
            body,
            filename,
            origin,
        });
    }
    Ok(out)
}
