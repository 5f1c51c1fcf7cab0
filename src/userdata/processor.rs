//! `Processor`: cloud-init's `UserDataProcessor` — raw blob to the flat list of typed, numbered parts.

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use super::accumulated_message::AccumulatedMessage;
use super::gzip::{GzipError, gunzip};
use super::include::include_urls;
use super::leaf::{Body, HeaderValue, Leaf, Origin, Payload};
use super::mime_leaves::WalkedDoc;
use super::part_type::{self, GZIP_TYPES, REDETECT_TYPES, type_from_starts_with};
use super::preloader::Helper;
use super::py_int::{IntError, py_int};
use super::user_data_options::UserDataOptions;
use super::yaml_text::{LoadSite, load_py_text, load_py_text_at};
use crate::diagnostic::PartRef;
use crate::mime::HeaderName;
use crate::python::raw_unicode_escape;
use crate::yaml::value::{Node, PyStr, Value, py_str};
use crate::yaml::{PyErrorClass, YamlError};

/// What `#include` resolution gives back.
#[derive(Debug, Clone)]
pub enum Fetched {
    /// The content (processed like top-level user-data).
    Content(Vec<u8>),
    /// The fetch failed: cloud-init aborts all user-data processing.
    Failed(String),
}

/// Supplies `#include` content. cloudfold never fetches URLs; the CLI maps
/// local paths under `--include-dir` (and explicit `--include-map`s).
pub trait IncludeResolver {
    /// Content for `url`, or why there is none.
    fn fetch(&self, url: &str) -> Fetched;
}

/// The resolver that resolves nothing: every include aborts, as cloud-init
/// does when it cannot fetch.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoIncludes;

impl IncludeResolver for NoIncludes {
    fn fetch(&self, url: &str) -> Fetched {
        Fetched::Failed(format!(
            "not fetched (cloudfold never uses the network): {url}"
        ))
    }
}

/// Why cloud-init would abort user-data processing altogether (nothing is
/// merged, no `cloud-config.txt` is written).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProcessError {
    /// The payload declares MIME but is not UTF-8 (`UnicodeDecodeError`).
    #[error(
        "the payload looks like MIME (it mentions MIME-Version) but is not valid UTF-8 at byte {0}"
    )]
    MimeNotUtf8(usize),
    /// A gzip part did not decompress to UTF-8 text.
    #[error("{origin}: failed decompressing payload from {content_type} of length {len}: {reason}")]
    GzipPart {
        /// Where the part is: the part cloud-init would have attached, then
        /// its place in the payload (`part 1 (part-001), MIME part 2 (body at line 7)`).
        origin: String,
        /// That part, as cloud-init would have numbered it (boxed: errors stay small).
        part: Box<PartRef>,
        /// Its declared type.
        content_type: String,
        /// Compressed length.
        len: usize,
        /// What went wrong.
        reason: String,
    },
    /// An `#include` could not be fetched.
    #[error("{origin}: #include {url}: {reason}")]
    Include {
        /// Where the include line is.
        origin: String,
        /// The URL as written.
        url: String,
        /// Why it was not fetched.
        reason: String,
    },
    /// An archive entry that makes cloud-init's processor crash.
    #[error("{origin}: {reason}")]
    ArchiveEntry {
        /// Which entry.
        origin: String,
        /// What Python raises.
        reason: String,
    },
    /// A launch-index value that makes cloud-init crash (`int(inf)`).
    #[error("{origin}: launch-index {value} cannot be converted to an integer (OverflowError)")]
    LaunchIndexOverflow {
        /// Which part (as [`ProcessError::GzipPart`]'s `origin`).
        origin: String,
        /// That part, as cloud-init numbers it.
        part: Box<PartRef>,
        /// The value.
        value: String,
    },
    /// Python's `email` raises on this document (malformed RFC 2231 parameters).
    #[error("the MIME document makes Python's email package raise: {0}")]
    Mime(String),
    /// A decompression bomb or a too-large input (cloudfold's own limit).
    #[error("{0}")]
    Limit(String),
    /// Includes nested deeper than the limit (cloud-init recurses forever).
    #[error(
        "#include nesting deeper than the limit of {0} levels (an include loop?) (raise it with --max-include-depth)"
    )]
    IncludeDepth(usize),
}

impl ProcessError {
    /// Whether this is one of cloudfold's own safety limits (raised with the flag its message
    /// names), not something cloud-init would do.
    pub fn is_limit(&self) -> bool {
        matches!(self, ProcessError::Limit(_) | ProcessError::IncludeDepth(_))
    }
}

/// A warning raised while processing (cloud-init logs it and goes on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessWarning {
    /// Where.
    pub origin: Origin,
    /// The part it is about, when cloud-init numbers it (not an archive's
    /// entries, which it skips before that).
    pub part: Option<PartRef>,
    /// What.
    pub message: String,
    /// Which kind.
    pub kind: WarningKind,
}

impl ProcessWarning {
    /// Where, for people: the part (when numbered), then its place in the payload.
    pub fn location(&self) -> String {
        match &self.part {
            Some(p) => format!("{p}, {}", self.origin),
            None => self.origin.to_string(),
        }
    }
}

/// What a [`ProcessWarning`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningKind {
    /// A `#cloud-config-archive` or one of its entries is skipped.
    ArchiveIgnored,
    /// The handlers get a part more than once, or get a part the processor
    /// expanded, because message/rfc822 parts enclose it (cloud-init is silent).
    HandedAgain,
}

/// The processed user-data: the accumulated message the handlers will walk.
#[derive(Debug, Clone, Default)]
pub struct Processed {
    /// The attached parts (numbered `part-001`… in order) and the message
    /// objects they share.
    pub message: AccumulatedMessage,
    /// Warnings from processing (archive YAML errors, dropped entries).
    pub warnings: Vec<ProcessWarning>,
}

/// `UserDataProcessor.process(blob)`.
pub fn process(
    blob: &[u8],
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
) -> Result<Processed, ProcessError> {
    process_cow(blob.into(), opts, includes, None)
}

/// [`process`] of a blob given away: a MIME document's parts are then
/// slices of it (see [`crate::source::SharedText`]), with no copy at all.
pub fn process_owned(
    blob: Vec<u8>,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
) -> Result<Processed, ProcessError> {
    process_cow(blob.into(), opts, includes, None)
}

/// [`process`] with a helper thread: a large MIME document is parsed on two
/// threads, and the helper loads the parts that look like cloud-config parts
/// while the processor goes on.
pub(crate) fn process_cow(
    blob: Cow<'_, [u8]>,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
    aside: Option<&dyn Helper>,
) -> Result<Processed, ProcessError> {
    let mut p = Processor {
        opts,
        includes,
        out: Processed::default(),
        include_depth: 0,
        inflated: 0,
        aside,
    };
    let doc = p.convert_string(blob, Origin::Whole)?;
    p.process_msg(&doc)?;
    Ok(p.out)
}

struct Processor<'a> {
    opts: &'a UserDataOptions,
    includes: &'a dyn IncludeResolver,
    out: Processed,
    include_depth: usize,
    /// Bytes gunzipped so far, over every layer (`max_decompressed_size`).
    inflated: u64,
    /// The helper thread, for a large MIME document.
    aside: Option<&'a dyn Helper>,
}

/// A header list as Python's `MIMEBase(maintype, subtype)` starts it.
fn base_headers(content_type: &str) -> Vec<(HeaderName, HeaderValue)> {
    vec![
        (
            "Content-Type".into(),
            HeaderValue::Text(content_type.into()),
        ),
        ("MIME-Version".into(), HeaderValue::Text("1.0".into())),
    ]
}

/// cloudfold's scalar-size limit, met while loading the YAML of the part at
/// `origin` (the loader enforces it: a scan of the document's events before
/// loading it cost more than the load, 0.35 s for 20 MB).
pub(crate) fn scalar_limit(origin: &Origin, e: &YamlError) -> ProcessError {
    ProcessError::Limit(format!(
        "{origin}: {} (raise it with --max-scalar-size)",
        e.problem
    ))
}

/// Python's `msg.get_payload(decode=True)` for a `str` payload set with
/// `set_payload` and no transfer encoding: ASCII, else raw-unicode-escape.
fn str_payload_bytes(text: &str) -> Vec<u8> {
    if text.is_ascii() {
        text.as_bytes().to_vec()
    } else {
        raw_unicode_escape(text)
    }
}

impl Processor<'_> {
    /// `convert_string`: one gzip layer (silently kept when it fails), then
    /// MIME if `mime-version:` occurs in the first 4096 bytes.
    fn convert_string(
        &mut self,
        raw: Cow<'_, [u8]>,
        origin: Origin,
    ) -> Result<WalkedDoc, ProcessError> {
        let max_input = self.opts.limits.max_input_size;
        if raw.len() as u64 > max_input {
            return Err(ProcessError::Limit(format!(
                "{origin}: input is larger than the limit of {max_input} bytes (raise it with --max-input-size)"
            )));
        }
        let data: Cow<'_, [u8]> = match self.gunzip(&raw) {
            Ok(d) => d.into(),
            Err(GzipError::TooLarge(_)) => {
                return Err(self.inflate_limit(&origin));
            }
            Err(GzipError::Invalid(_)) => raw,
        };
        let head = data.get(..4096).unwrap_or(&data);
        if head
            .to_ascii_lowercase()
            .windows(13)
            .any(|w| w == b"mime-version:")
        {
            // One text that every part's body is a slice of.
            let text = match data {
                Cow::Owned(v) => String::from_utf8(v).map_err(|e| e.utf8_error()),
                Cow::Borrowed(b) => std::str::from_utf8(b).map(str::to_owned),
            }
            .map_err(|e| ProcessError::MimeNotUtf8(e.valid_up_to()))?;
            return super::mime_leaves::mime_leaves(
                &Arc::new(text),
                &origin,
                &self.opts.limits,
                &mut self.out.message,
                self.aside,
            );
        }
        let leaf = Leaf {
            headers: base_headers(part_type::NOT_MULTIPART),
            content_type: part_type::NOT_MULTIPART.into(),
            body: Body::Bytes(data.into_owned().into()),
            filename: None,
            origin,
        };
        let root = self.out.message.push(leaf, Vec::new(), false);
        Ok(WalkedDoc {
            root,
            walk: vec![root],
        })
    }

    /// `_process_msg`: type each leaf, expand gzip/include/archive, attach.
    /// Parts are objects shared with the messages holding them: a change made
    /// here (type, filename, launch index) shows wherever the handlers meet it.
    fn process_msg(&mut self, doc: &WalkedDoc) -> Result<(), ProcessError> {
        for &id in &doc.walk {
            let Some(node) = self.out.message.node(id) else {
                continue;
            };
            if node.container {
                continue;
            }
            // Read through a second handle: most parts are only retyped or
            // attached, so their bodies are never copied.
            let leaf = Arc::clone(&node.leaf);
            let mut part_id = id;
            let mut ctype_orig = Some(part_type::shared_type(&leaf.content_type));
            // `fully_decoded_payload`, taken only where it is read.
            let mut payload: Option<Payload> = None;
            let mut decompressed: Option<Leaf> = None;
            let was_compressed = GZIP_TYPES.contains(&leaf.content_type.as_str());
            if was_compressed {
                let compressed: Vec<u8> = match leaf.payload() {
                    Payload::Bytes(b) => b,
                    Payload::Text(t) => t.as_wtf8().to_vec(),
                    Payload::None => Vec::new(),
                };
                let part = Box::new(self.next_part(&leaf));
                let fail = |reason: String| ProcessError::GzipPart {
                    origin: format!("{part}, {}", leaf.origin),
                    part: part.clone(),
                    content_type: leaf.content_type.clone(),
                    len: compressed.len(),
                    reason,
                };
                let bytes = match self.gunzip(&compressed) {
                    Ok(b) => b,
                    Err(GzipError::TooLarge(_)) => {
                        return Err(self.inflate_limit(&leaf.origin));
                    }
                    Err(GzipError::Invalid(e)) => return Err(fail(e)),
                };
                let text = String::from_utf8(bytes)
                    .map_err(|e| fail(format!("'utf-8' codec can't decode: {e}")))?;
                payload = Some(Payload::Text(PyStr::from(text)));
                ctype_orig = None;
            }
            let ctype_orig = ctype_orig.unwrap_or(Cow::Borrowed("text/plain"));
            let mut ctype = None;
            if REDETECT_TYPES.contains(&&*ctype_orig) {
                ctype = match (&payload, leaf.payload_in_place()) {
                    // A long part is not copied only for its first characters.
                    (None, Some(b)) => type_from_starts_with(b),
                    _ => match payload.get_or_insert_with(|| leaf.payload()) {
                        Payload::Text(t) => type_from_starts_with(t.to_string_lossy().as_bytes()),
                        Payload::Bytes(b) => type_from_starts_with(b),
                        Payload::None => None,
                    },
                };
            }
            let ctype: Cow<'static, str> = ctype.map_or_else(|| ctype_orig.clone(), Cow::Borrowed);
            if was_compressed {
                // The decompressed copy is a new object; the original stays
                // in its message untouched.
                let text = match &payload {
                    Some(Payload::Text(t)) => t.to_string_lossy().into_owned(),
                    _ => String::new(),
                };
                let mut n = Leaf {
                    headers: base_headers(&ctype),
                    content_type: ctype.to_string(),
                    body: Body::Bytes(str_payload_bytes(&text).into()),
                    filename: None,
                    origin: Origin::Gunzipped(Box::new(leaf.origin.clone())),
                };
                if let Some(f) = leaf.filename.as_deref().filter(|f| !f.is_empty()) {
                    set_filename(&mut n, f);
                }
                if let Some(li) = leaf.get("Launch-Index") {
                    n.replace_header(
                        "Launch-Index",
                        HeaderValue::Text(li.to_py_str().to_string()),
                    );
                }
                decompressed = Some(n);
            }
            let reads_text = [
                part_type::INCLUDE,
                part_type::INCLUDE_ONCE,
                part_type::ARCHIVE,
            ]
            .contains(&&*ctype);
            let payload = match payload {
                Some(p) => p,
                None if reads_text => leaf.payload(),
                None => Payload::None,
            };
            // Our handle goes first, so that changing the part in place copies nothing.
            drop(leaf);
            let retype = |part: &mut Leaf| {
                if ctype != ctype_orig {
                    part.retype(&ctype);
                }
            };
            if let Some(mut n) = decompressed {
                retype(&mut n);
                part_id = self.out.message.push(n, Vec::new(), false);
            } else if ctype != ctype_orig
                && let Some(slot) = self.out.message.leaf_mut(part_id)
            {
                retype(slot);
            }
            let origin = self
                .out
                .message
                .node(part_id)
                .map(|n| n.leaf.origin.clone())
                .unwrap_or(Origin::Whole);
            if ctype == part_type::INCLUDE || ctype == part_type::INCLUDE_ONCE {
                let text = match &payload {
                    Payload::Text(t) => t.to_string_lossy().into_owned(),
                    Payload::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
                    Payload::None => String::new(),
                };
                self.do_include(&text, &origin)?;
                continue;
            }
            if ctype == part_type::ARCHIVE {
                let text = match &payload {
                    Payload::Text(t) => t.clone(),
                    Payload::Bytes(b) => PyStr::from_utf8_surrogateescape(b),
                    Payload::None => PyStr::from(""),
                };
                self.explode_archive(&text, &origin)?;
                continue;
            }
            // cloud-init sets the *base* message's type to each attached part's:
            // a message/rfc822 document ends up typed like its last part, and
            // the handlers take it (with no payload) as that type.
            if let Some(base) = self.out.message.leaf_mut(doc.root) {
                base.retype(&ctype);
            }
            self.attach(part_id)?;
        }
        Ok(())
    }

    fn do_include(&mut self, content: &str, origin: &Origin) -> Result<(), ProcessError> {
        for line in include_urls(content) {
            match self.includes.fetch(&line.url) {
                Fetched::Failed(reason) => {
                    return Err(ProcessError::Include {
                        origin: origin.to_string(),
                        url: line.url,
                        reason,
                    });
                }
                Fetched::Content(bytes) => {
                    if self.include_depth >= self.opts.limits.max_include_depth {
                        return Err(ProcessError::IncludeDepth(
                            self.opts.limits.max_include_depth,
                        ));
                    }
                    self.include_depth += 1;
                    let from = Origin::Include {
                        url: line.url.clone(),
                        from: Box::new(origin.clone()),
                    };
                    let doc = self.convert_string(bytes.into(), from)?;
                    self.process_msg(&doc)?;
                    self.include_depth -= 1;
                }
            }
        }
        Ok(())
    }

    fn explode_archive(&mut self, archive: &PyStr, origin: &Origin) -> Result<(), ProcessError> {
        let entries: Vec<Node> = match load_py_text_at(archive, self.opts, LoadSite::Archive) {
            Ok(Some(root)) => match root.value() {
                Value::Seq(s) => s.items().to_vec(),
                Value::Set(m) => m.keys().cloned().collect(),
                _ => {
                    self.warn(origin, format!(
                        "#cloud-config-archive: the document is a {}, not a list; the archive is ignored",
                        root.type_name()
                    ));
                    Vec::new()
                }
            },
            Ok(None) => Vec::new(),
            Err(e) if e.class == PyErrorClass::Limit => {
                return Err(scalar_limit(origin, &e));
            }
            Err(e) if !e.class.caught_by_load_yaml() => {
                // `util.load_yaml` lets it through: the whole processing stops.
                return Err(ProcessError::ArchiveEntry {
                    origin: origin.to_string(),
                    reason: format!(
                        "loading #cloud-config-archive raises {}: {e} (cloud-init's YAML loader does not catch it)",
                        e.class.python_name()
                    ),
                });
            }
            Err(e) => {
                self.warn(
                    origin,
                    format!(
                        "#cloud-config-archive is not valid YAML ({e}); the archive is ignored"
                    ),
                );
                Vec::new()
            }
        };
        for (i, ent) in entries.iter().enumerate() {
            let entry_origin = Origin::ArchiveEntry {
                entry: i,
                archive: Box::new(origin.clone()),
            };
            let crash = |reason: String| ProcessError::ArchiveEntry {
                origin: entry_origin.to_string(),
                reason,
            };
            let map = match ent.value() {
                Value::Str(_) => None,
                Value::Map(m) => Some(m),
                _ => {
                    self.warn(&entry_origin, format!(
                        "archive entry is a {}, neither a string nor a mapping: cloud-init skips it silently",
                        ent.type_name()
                    ));
                    continue;
                }
            };
            let content: Node = match map {
                None => ent.clone(),
                Some(m) => m
                    .get_str("content")
                    .cloned()
                    .unwrap_or_else(|| Node::str("")),
            };
            let mtype_node = map
                .and_then(|m| m.get_str("type"))
                .filter(|t| t.is_truthy());
            let mtype: String = match mtype_node {
                Some(t) => match t.as_str() {
                    Some(s) => s.to_owned(),
                    None => {
                        return Err(crash(format!(
                            "the entry's type is a {} ('{}' object has no attribute 'split')",
                            t.type_name(),
                            t.type_name()
                        )));
                    }
                },
                None => {
                    let (default, detected) = match content.value() {
                        Value::Bytes(b) => ("application/octet-stream", type_from_starts_with(b)),
                        Value::Str(s) => (
                            "text/cloud-config",
                            type_from_starts_with(s.to_string_lossy().as_bytes()),
                        ),
                        _ => {
                            return Err(crash(format!(
                                "the entry's content is a {}, not a string",
                                content.type_name()
                            )));
                        }
                    };
                    detected.unwrap_or(default).to_owned()
                }
            };
            let Some((maintype, subtype)) = mtype.split_once('/') else {
                return Err(crash(format!(
                    "the entry's type {mtype:?} has no '/' (ValueError)"
                )));
            };
            let mut leaf = if maintype == "text" {
                let text: String = match content.value() {
                    Value::Str(s) => match s.as_str() {
                        Some(t) => t.to_owned(),
                        None => {
                            return Err(crash("the entry's text holds characters that cannot be encoded (UnicodeEncodeError)".into()));
                        }
                    },
                    Value::Bytes(b) => {
                        match std::str::from_utf8(b) {
                            Ok(t) => t.to_owned(),
                            Err(_) => {
                                return Err(crash("the entry's !!binary content is not UTF-8 (UnicodeDecodeError)".into()));
                            }
                        }
                    }
                    _ => {
                        return Err(crash(format!(
                            "the entry's content is a {}, not a string",
                            content.type_name()
                        )));
                    }
                };
                mime_text(subtype, &text, entry_origin.clone())
            } else {
                let body = match content.value() {
                    Value::Str(s) => match s.as_str() {
                        Some(t) => Body::Bytes(str_payload_bytes(t).into()),
                        None => Body::Bytes(s.as_wtf8().to_vec().into()),
                    },
                    Value::Bytes(b) => Body::Bytes(b.to_vec().into()),
                    Value::Null => Body::None,
                    // An empty list/dict payload is falsy: `get_payload(decode=True)`
                    // hands the handlers nothing. A non-empty one crashes them
                    // (`Message.walk` descends into a list; a dict/int is sliced).
                    Value::Seq(_) | Value::Map(_) | Value::Set(_) if !content.is_truthy() => {
                        Body::None
                    }
                    _ => {
                        return Err(crash(format!(
                            "the entry's content is a {}, which cloud-init cannot hand to a handler",
                            content.type_name()
                        )));
                    }
                };
                let header = format!("{maintype}/{subtype}");
                Leaf {
                    content_type: super::mime_leaves::content_type_of(&header),
                    headers: base_headers(&header),
                    body,
                    filename: None,
                    origin: entry_origin.clone(),
                }
            };
            if let Some(m) = map {
                if let Some(f) = m.get_str("filename") {
                    set_filename(&mut leaf, &py_str(f).to_string_lossy());
                }
                if let Some(li) = m.get_str("launch-index") {
                    leaf.add_header(
                        "Launch-Index",
                        HeaderValue::Text(py_str(li).to_string_lossy().into_owned()),
                    );
                }
                for (k, v) in m.iter() {
                    let Some(name) = k.as_str() else {
                        return Err(crash(format!(
                            "an entry key is a {} ('{}' object has no attribute 'lower')",
                            k.type_name(),
                            k.type_name()
                        )));
                    };
                    let lower = crate::python::py_lower(name);
                    if matches!(
                        lower.as_str(),
                        "content"
                            | "filename"
                            | "type"
                            | "launch-index"
                            | "content-disposition"
                            | "number-attachments"
                            | "content-type"
                    ) {
                        continue;
                    }
                    // `Message.add_header` joins the value as text: None becomes
                    // an empty header, any other non-str value raises TypeError.
                    let value = match v.value() {
                        Value::Str(_) => HeaderValue::Value(v.clone()),
                        Value::Null => HeaderValue::Text(String::new()),
                        _ => {
                            return Err(crash(format!(
                                "the entry's {name} value is a {}, not a string (TypeError)",
                                v.type_name()
                            )));
                        }
                    };
                    leaf.add_header(name, value);
                }
            }
            let id = self.out.message.push(leaf, Vec::new(), false);
            self.attach(id)?;
        }
        Ok(())
    }

    /// `_attach_part`: number the part, then compute its launch index.
    /// One gzip layer, charged to the payload-wide decompression budget.
    fn gunzip(&mut self, data: &[u8]) -> Result<Vec<u8>, GzipError> {
        let budget = self
            .opts
            .limits
            .max_decompressed_size
            .saturating_sub(self.inflated);
        let out = gunzip(data, budget)?;
        self.inflated = self.inflated.saturating_add(out.len() as u64);
        Ok(out)
    }

    /// The error for an exhausted decompression budget, naming where.
    fn inflate_limit(&self, origin: &Origin) -> ProcessError {
        let limit = self.opts.limits.max_decompressed_size;
        let total = if self.inflated > 0 {
            format!(
                " ({} bytes already decompressed from earlier layers)",
                self.inflated
            )
        } else {
            String::new()
        };
        ProcessError::Limit(format!(
            "{origin}: gzip data decompresses to more than the limit of {limit} bytes{total} (raise it with --max-decompressed-size)"
        ))
    }

    /// The part cloud-init would attach next: `leaf`, as numbered and named
    /// for an error raised on it before (or while) it is attached.
    fn next_part(&self, leaf: &Leaf) -> PartRef {
        let number = self.out.message.attached_count() + 1;
        PartRef {
            number,
            name: match leaf.filename.as_deref() {
                Some(f) if !f.is_empty() => f.to_owned(),
                _ => format!("part-{number:03}"),
            },
            mime: leaf.origin.mime_position(),
        }
    }

    fn attach(&mut self, id: usize) -> Result<(), ProcessError> {
        // Moved out and back rather than cloned: the body is not copied.
        let Some(mut part) = self.out.message.take_leaf(id) else {
            return Ok(());
        };
        let numbered = self.number(&mut part);
        self.out.message.put_leaf(id, part);
        numbered?;
        self.out.message.attach(id);
        Ok(())
    }

    /// What attaching does to a part: its `part-NNN` name, its `Launch-Index`.
    fn number(&mut self, part: &mut Leaf) -> Result<(), ProcessError> {
        let n = self.out.message.attached_count() + 1;
        if part.filename.as_deref().is_none_or(str::is_empty) {
            set_filename(part, &format!("part-{n:03}"));
        }
        self.attach_launch_index(part)
    }

    fn attach_launch_index(&mut self, part: &mut Leaf) -> Result<(), ProcessError> {
        let header_idx = part.get("Launch-Index").cloned();
        let mut payload_idx: Option<Node> = None;
        if part.content_type == part_type::CLOUD_CONFIG
            && header_idx.is_none()
            && let Body::Bytes(b) = &part.body
            && let Some(text) = b.as_str()
            && may_name_launch_index(text)
            && let Ok(Some(root)) = load_py_text(&PyStr::from(text), self.opts)
            && let Some(m) = root.as_map()
        {
            payload_idx = m.get_str("launch-index").cloned();
        }
        let value: Option<Value> = match header_idx {
            Some(h) => Some(match h {
                HeaderValue::Text(t) => Value::Str(PyStr::from(t.as_str())),
                // Archive headers are stored stringified already.
                HeaderValue::Value(n) => Value::Str(py_str(&n)),
            }),
            None => payload_idx.as_ref().map(|n| clone_scalar(n.value())),
        };
        let Some(value) = value else { return Ok(()) };
        match py_int(&value) {
            Ok(i) => part.add_header("Launch-Index", HeaderValue::Text(i.to_string())),
            Err(IntError::Invalid) => {}
            Err(IntError::Overflow) => {
                let at = Box::new(self.next_part(part));
                return Err(ProcessError::LaunchIndexOverflow {
                    origin: format!("{at}, {}", part.origin),
                    part: at,
                    value: payload_idx
                        .map(|n| crate::yaml::value::py_repr(&n))
                        .unwrap_or_default(),
                });
            }
        }
        Ok(())
    }

    fn warn(&mut self, origin: &Origin, message: String) {
        self.out.warnings.push(ProcessWarning {
            origin: origin.clone(),
            part: None,
            message,
            kind: WarningKind::ArchiveIgnored,
        });
    }
}

/// Whether YAML `text` can have a `launch-index` string key at all: only
/// spelled out or through a double-quoted escape (`\x2d`, an escaped line
/// break); plain, single-quoted and block scalars fold line breaks into
/// spaces or newlines. Skipping the parse otherwise halves the YAML work of
/// a cloud-config part (the handler parses it again); a failed parse was
/// ignored here anyway.
fn may_name_launch_index(text: &str) -> bool {
    // Every cloud-config body is searched here, on the main thread before
    // the fold: memchr's searches, several times faster than `str::contains`,
    // with the searcher built once (building it was a sixth of the typing).
    static LAUNCH_INDEX: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"launch-index"));
    let bytes = text.as_bytes();
    LAUNCH_INDEX.find(bytes).is_some() || memchr::memchr(b'\\', bytes).is_some()
}

/// A copy of a scalar value (containers become `Null`: `int()` rejects them anyway).
fn clone_scalar(v: &Value) -> Value {
    match v {
        Value::Bool(b) => Value::Bool(*b),
        Value::Int(i) => Value::Int(i.clone()),
        Value::Float(f) => Value::Float(*f),
        Value::Str(s) => Value::Str(s.clone()),
        Value::Bytes(b) => Value::Bytes(b.clone()),
        _ => Value::Null,
    }
}

/// `_set_filename`: replace Content-Disposition with an attachment filename.
fn set_filename(part: &mut Leaf, filename: &str) {
    part.headers
        .retain(|(n, _)| !crate::python::py_eq_lower(n, "Content-Disposition"));
    part.headers.push((
        "Content-Disposition".into(),
        HeaderValue::Text(super::mime_leaves::format_attachment(filename)),
    ));
    part.filename = Some(filename.to_owned());
}

/// Python's `MIMEText(text, _subtype=subtype)`: us-ascii 7bit, or utf-8 base64.
fn mime_text(subtype: &str, text: &str, origin: Origin) -> Leaf {
    let (charset, cte) = if text.is_ascii() {
        ("us-ascii", "7bit")
    } else {
        ("utf-8", "base64")
    };
    let header = format!("text/{subtype}; charset=\"{charset}\"");
    Leaf {
        content_type: super::mime_leaves::content_type_of(&header),
        headers: vec![
            ("Content-Type".into(), HeaderValue::Text(header)),
            ("MIME-Version".into(), HeaderValue::Text("1.0".into())),
            (
                "Content-Transfer-Encoding".into(),
                HeaderValue::Text(cte.into()),
            ),
        ],
        body: Body::Bytes(text.as_bytes().to_vec().into()),
        filename: None,
        origin,
    }
}

#[cfg(test)]
mod tests {
    use super::may_name_launch_index;
    use crate::userdata::user_data_options::UserDataOptions;
    use crate::userdata::yaml_text::load_py_text;
    use crate::yaml::value::PyStr;

    /// The pre-check never skips a document whose parse has the key.
    #[test]
    fn launch_index_precheck_is_exact_enough() {
        let opts = UserDataOptions::default();
        for (doc, has) in [
            ("launch-index: 1", true),
            ("\"launch\\x2dindex\": 3", true),
            ("? \"launch-\\\n  index\"\n: 4", true),
            ("? launch-\n  index\n: 5", false),
            ("? 'launch-\n  index'\n: 5", false),
            ("? >-\n  launch-\n  index\n: 6", false),
            ("runcmd: [ls]", false),
        ] {
            let root = load_py_text(&PyStr::from(doc), &opts).ok().flatten();
            let found = root
                .as_ref()
                .and_then(|r| r.as_map())
                .and_then(|m| m.get_str("launch-index"))
                .is_some();
            assert_eq!(found, has, "{doc:?}");
            assert!(!found || may_name_launch_index(doc), "{doc:?}");
        }
    }
}
