//! `mime_leaves`: a parsed MIME document as the flat leaves cloud-init's processor walks.

use super::accumulated_message::AccumulatedMessage;
use super::leaf::{Body, HeaderValue, Leaf, Origin};
use super::processor::ProcessError;
use super::user_data_options::Limits;
use crate::run_aside::RunAside;
use crate::source::TextSource;

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

/// A document as cloud-init's processor walks it: its root and every
/// message object in walk order (arena ids).
#[derive(Debug, Clone)]
pub struct WalkedDoc {
    /// The base message (`base_msg`, whose Content-Type the processor rewrites).
    pub root: usize,
    /// Every object of `base_msg.walk()`, containers included.
    pub walk: Vec<usize>,
}

/// Parse `text` as MIME (a large document on two threads, with `aside`)
/// into `msg`'s arena, keeping the tree (a message/* part holds the message
/// inside it, which cloud-init's handlers walk again).
pub fn mime_leaves(
    text: &TextSource,
    origin: &Origin,
    limits: &Limits,
    msg: &mut AccumulatedMessage,
    aside: Option<&dyn RunAside>,
) -> Result<WalkedDoc, ProcessError> {
    let doc =
        crate::mime::parse_shared(text, aside).map_err(|e| ProcessError::Mime(e.to_string()))?;
    let mut walk = Vec::new();
    // Ids by depth along the current path, to link each part to its parent.
    let mut path: Vec<usize> = Vec::new();
    let mut leaves = 0usize;
    // By value: each part's headers and body move into its leaf.
    for (index, (depth, part)) in doc.into_walk().enumerate() {
        let container = part
            .get_content_maintype()
            .eq_ignore_ascii_case("multipart");
        if !container {
            if leaves >= limits.max_parts {
                return Err(ProcessError::Limit(format!(
                    "more than the limit of {} parts (raise it with --max-parts)",
                    limits.max_parts
                )));
            }
            leaves += 1;
        }
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
        let decoded = part.into_decoded();
        let leaf = Leaf {
            headers: decoded
                .headers
                .into_iter()
                .map(|h| (h.name, HeaderValue::Text(h.value)))
                .collect(),
            content_type: decoded.content_type,
            body: decoded.body.map_or(Body::None, Body::Bytes),
            filename,
            origin,
        };
        let id = msg.push(leaf, Vec::new(), container);
        path.truncate(depth);
        if let Some(&parent) = path.last() {
            msg.add_child(parent, id);
        }
        path.push(id);
        walk.push(id);
    }
    let root = walk.first().copied().unwrap_or_default();
    Ok(WalkedDoc { root, walk })
}
