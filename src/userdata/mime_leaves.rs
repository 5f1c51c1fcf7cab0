//! `mime_leaves`: a parsed MIME document as the flat leaves cloud-init's processor walks.

use super::accumulated_message::AccumulatedMessage;
use super::leaf::{Body, HeaderValue, Leaf, Origin};
use super::part_type::{self, type_from_starts_with};
use super::preloader::{Helper, MAX_GUESSES};
use super::processor::ProcessError;
use super::user_data_options::Limits;
use crate::mime::{HeaderName, Message, PyError};
use crate::run_aside::Offload;
use crate::source::{SharedText, TextSource};

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
pub(super) fn content_type_of(value: &str) -> String {
    crate::mime::content_type_of(Some(value), "text/plain")
}

/// A document as cloud-init's processor walks it: its root and every
/// message object in walk order (arena ids).
#[derive(Debug, Clone)]
pub(super) struct WalkedDoc {
    /// The base message (`base_msg`, whose Content-Type the processor rewrites).
    pub root: usize,
    /// Every object of `base_msg.walk()`, containers included.
    pub walk: Vec<usize>,
}

/// Root parts from which a document's leaves are built on two threads.
const SPLIT_CHILDREN: usize = 64;

/// Parse `text` as MIME (a large document on two threads, with `aside`)
/// into `msg`'s arena, keeping the tree (a message/* part holds the message
/// inside it, which cloud-init's handlers walk again).
pub(super) fn mime_leaves(
    text: &TextSource,
    origin: &Origin,
    limits: &Limits,
    msg: &mut AccumulatedMessage,
    aside: Option<&dyn Helper>,
) -> Result<WalkedDoc, ProcessError> {
    let mut doc = crate::mime::parse_shared(text, aside.map(|h| h as _))
        .map_err(|e| ProcessError::Mime(e.to_string()))?;
    // Building a part's leaf depends on that part alone: with many root
    // parts, the helper builds the second half's while this thread builds
    // the first half's (their walk follows the root's own walk); only the
    // numbering and the arena go in walk order, here.
    let children = doc.children().len();
    let second = match aside {
        Some(helper) if children >= SPLIT_CHILDREN => {
            let parts = doc.split_off_children(children / 2);
            let (half, job) = Offload::new(move || {
                parts
                    .into_iter()
                    .flat_map(Message::into_walk)
                    .map(|(depth, part)| Unplaced::of(depth + 1, part))
                    .collect::<Vec<_>>()
            });
            // Refused: `result` builds them here.
            let _ = helper.run_aside(job);
            Some(half)
        }
        _ => None,
    };
    let mut placer = Placer {
        origin,
        limits,
        msg,
        walk: Vec::new(),
        path: Vec::new(),
        leaves: 0,
        guesses: (aside.is_some() && matches!(origin, Origin::Whole)).then(Vec::new),
    };
    // By value: each part's headers and body move into its leaf.
    for (depth, part) in doc.into_walk() {
        placer.place(Unplaced::of(depth, part))?;
    }
    if let Some(half) = second {
        let parts = half.result().ok_or_else(|| {
            ProcessError::Mime("internal error: the helper thread stopped".into())
        })?;
        for part in parts {
            placer.place(part)?;
        }
    }
    if let (Some(helper), Some(guesses)) = (aside, placer.guesses) {
        helper.guess(guesses);
    }
    let root = placer.walk.first().copied().unwrap_or_default();
    Ok(WalkedDoc {
        root,
        walk: placer.walk,
    })
}

/// One part of the walk made into the pieces of a leaf, not numbered yet.
struct Unplaced {
    depth: usize,
    container: bool,
    filename: Result<Option<String>, PyError>,
    body_line: u32,
    headers: Vec<(HeaderName, HeaderValue)>,
    content_type: String,
    body: Body,
}

impl Unplaced {
    fn of(depth: usize, part: Message) -> Unplaced {
        let container = part
            .get_content_maintype()
            .eq_ignore_ascii_case("multipart");
        let filename = part.get_filename();
        let body_line = part.body_line();
        let decoded = part.into_decoded();
        Unplaced {
            depth,
            container,
            filename,
            body_line,
            headers: decoded
                .headers
                .into_iter()
                .map(|h| (h.name, HeaderValue::Text(h.value)))
                .collect(),
            content_type: decoded.content_type,
            body: decoded.body.map_or(Body::None, Body::Bytes),
        }
    }
}

/// Whether `text` begins as cloud-init's first-line rule types `content_type`
/// (only its start is read: the rule needs no more).
fn looks_like(text: &str, content_type: &str) -> bool {
    let head = text.get(..text.floor_char_boundary(64)).unwrap_or_default();
    type_from_starts_with(head.as_bytes()) == Some(content_type)
}

/// Puts the parts of a walk, in walk order, into the arena.
struct Placer<'a> {
    origin: &'a Origin,
    limits: &'a Limits,
    msg: &'a mut AccumulatedMessage,
    walk: Vec<usize>,
    /// Ids by depth along the current path, to link each part to its parent.
    path: Vec<usize>,
    leaves: usize,
    /// Leaves that look like cloud-config parts needing no decoding, at the
    /// handler positions they have when nothing is expanded or filtered
    /// (leaves in walk order): the helper loads them early (see
    /// [`Helper::guess`]); the fold checks each against the part it gets.
    guesses: Option<Vec<(usize, SharedText)>>,
}

impl Placer<'_> {
    fn place(&mut self, part: Unplaced) -> Result<(), ProcessError> {
        if !part.container {
            if let (Some(guesses), Body::Bytes(b)) = (&mut self.guesses, &part.body)
                && guesses.len() < MAX_GUESSES
                && let Some(text) = b.as_text()
                && (part.content_type == part_type::CLOUD_CONFIG
                    || looks_like(text.as_str(), part_type::CLOUD_CONFIG))
            {
                guesses.push((self.leaves, text.clone()));
            }
            if self.leaves >= self.limits.max_parts {
                return Err(ProcessError::Limit(format!(
                    "more than the limit of {} parts (raise it with --max-parts)",
                    self.limits.max_parts
                )));
            }
            self.leaves += 1;
        }
        let filename = part
            .filename
            .map_err(|e| ProcessError::Mime(e.to_string()))?;
        let origin = match self.origin {
            Origin::Whole => Origin::Mime {
                index: self.walk.len(),
                body_line: part.body_line,
            },
            o => o.clone(),
        };
        let leaf = Leaf {
            headers: part.headers,
            content_type: part.content_type,
            body: part.body,
            filename,
            origin,
        };
        let id = self.msg.push(leaf, Vec::new(), part.container);
        self.path.truncate(part.depth);
        if let Some(&parent) = self.path.last() {
            self.msg.add_child(parent, id);
        }
        self.path.push(id);
        self.walk.push(id);
        Ok(())
    }
}
