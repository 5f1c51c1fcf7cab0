//! `CloudConfigHandler`: cloud-init's cloud-config part handler — merges parts, writes `cloud-config.txt`.

use super::fold_observer::FoldObserver;
use super::json_patch::{PatchError, apply_patch};
use super::leaf::{Body, HeaderValue, Leaf};
use super::part_type::JSONP;
use super::py_json::{JsonSyntaxError, parse_py_json_wtf8};
use super::user_data_options::{Release, UserDataOptions};
use super::yaml_text::{load_py_text_in, load_str_in};
use crate::merge::cloud_init as ci;
use crate::merge::{MergeError, NoObserver};
use crate::python::py_is_space;
use crate::source::SourceId;
use crate::yaml::value::{Entries, Map, Node, PyStr, Value};
use crate::yaml::{DumpOptions, DumpText, Keep, RunAside, YamlError, dump_text};
use std::borrow::Cow;
use std::fmt::Write as _;

/// One part's YAML, loaded: its document (`None`: empty) or PyYAML's error.
pub(crate) type Loaded = Result<Option<Node>, YamlError>;

/// What the fold's preloader has for a part.
#[derive(Default)]
pub(crate) struct Preloaded<'s> {
    /// Its YAML, loaded (as `load_str_in` loads it) if done already.
    pub(crate) loaded: Option<Loaded>,
    /// Where its tree goes once merged, rather than being freed here.
    pub(crate) spent: Option<&'s mut Vec<Node>>,
}

/// A part's payload as the handler reads it.
enum PartText<'a> {
    /// Valid UTF-8, borrowed from the part.
    Utf8(&'a str),
    /// Decoded with surrogate escapes for stray bytes.
    Py(PyStr),
}

impl PartText<'_> {
    /// The Python string's bytes (generalized UTF-8).
    fn as_wtf8(&self) -> &[u8] {
        match self {
            PartText::Utf8(t) => t.as_bytes(),
            PartText::Py(t) => t.as_wtf8(),
        }
    }
}

/// Why a cloud-config part was not merged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PartRejection {
    /// The YAML did not load (cloud-init: "empty cloud config").
    #[error("YAML error: {0}")]
    Yaml(YamlError),
    /// The document is empty or only comments.
    #[error("the document is empty")]
    Empty,
    /// The root is not a mapping.
    #[error("the document is a {0}, not a mapping")]
    NotAMapping(&'static str),
    /// The merge spec or the merge itself failed.
    #[error("{0}")]
    Merge(MergeError),
    /// The `Merge-Type` header is not a string (an archive entry set it to a {0}).
    #[error("the merge header is a {0}, not a string")]
    HeaderNotString(&'static str),
    /// The JSON patch is not valid JSON.
    #[error("JSON error: {0}")]
    Json(JsonSyntaxError),
    /// The JSON patch did not apply.
    #[error("JSON patch failed: {0}")]
    Patch(PatchError),
    /// The part is a message object (a message/rfc822 document that cloud-init
    /// retyped like its last part): no payload, the handler raises.
    #[error("the part is a message with no payload of its own (cloud-init's handler raises on it)")]
    NoPayload,
}

impl PartRejection {
    /// Whether cloud-init raises a `ValueError` for this (the part is then
    /// listed as a schema error in 25.1's `cloud-config.txt`).
    pub fn is_value_error(&self) -> bool {
        match self {
            PartRejection::Yaml(e) => e.class.caught_by_load_yaml(),
            PartRejection::Empty | PartRejection::NotAMapping(_) => true,
            PartRejection::Merge(e) => e.is_value_error(),
            PartRejection::HeaderNotString(_)
            | PartRejection::Patch(_)
            | PartRejection::NoPayload => false,
            PartRejection::Json(e) => !e.recursion,
        }
    }
}

/// The handler's state across parts.
#[derive(Debug)]
pub struct CloudConfigHandler<'a> {
    opts: &'a UserDataOptions,
    buf: Option<Node>,
    file_names: Vec<String>,
    error_file_names: Vec<String>,
    /// Payload bytes of the parts merged so far (sizes the dump's buffer).
    merged_bytes: usize,
    /// The last header resolved alone (no spec in the payload), and its stack.
    header_stack: Option<(String, ci::MergerStack)>,
}

impl<'a> CloudConfigHandler<'a> {
    /// A handler at `begin`.
    pub fn new(opts: &'a UserDataOptions) -> Self {
        CloudConfigHandler {
            opts,
            buf: None,
            file_names: Vec::new(),
            error_file_names: Vec::new(),
            merged_bytes: 0,
            header_stack: None,
        }
    }

    /// The merged config so far (`None` until a part arrived).
    pub fn config(&self) -> Option<&Node> {
        self.buf.as_ref()
    }

    /// Names listed as merged.
    pub fn file_names(&self) -> &[String] {
        &self.file_names
    }

    /// Names listed as schema errors (25.1).
    pub fn error_file_names(&self) -> &[String] {
        &self.error_file_names
    }

    /// The merged config, the names listed as merged and those listed as
    /// schema errors, taken out at the end of a fold (a copy of thousands
    /// of names cost a large render ~0.2 ms and fresh pages).
    pub fn into_results(self) -> (Option<Node>, Vec<String>, Vec<String>) {
        (self.buf, self.file_names, self.error_file_names)
    }

    /// Handle one part (`text/cloud-config`, `text/cloud-config-jsonp`, or a
    /// rendered jinja part); `source` is the id its spans should carry.
    pub fn handle(&mut self, leaf: &Leaf, source: SourceId) -> Result<(), PartRejection> {
        self.handle_observed(leaf, source, &mut NoObserver)
    }

    /// [`CloudConfigHandler::handle`], telling `observer` the part's data and
    /// every merge decision (same result).
    pub fn handle_observed(
        &mut self,
        leaf: &Leaf,
        source: SourceId,
        observer: &mut dyn FoldObserver,
    ) -> Result<(), PartRejection> {
        self.handle_preloaded(leaf, source, observer, Preloaded::default())
    }

    /// [`CloudConfigHandler::handle_observed`] with what the preloader has
    /// for the part.
    pub(crate) fn handle_preloaded(
        &mut self,
        leaf: &Leaf,
        source: SourceId,
        observer: &mut dyn FoldObserver,
        preloaded: Preloaded<'_>,
    ) -> Result<(), PartRejection> {
        if self.buf.is_none() || self.file_names.is_empty() {
            self.buf = Some(Node::synthetic(Value::Map(Map::new(Entries::default()))));
        }
        // Taken, not cloned: an accumulator referenced only here is extended
        // in place by the merge (linear in the parts); a rejected part hands
        // it back unchanged.
        let acc = self
            .buf
            .take()
            .unwrap_or_else(|| Node::synthetic(Value::Null));
        // `fully_decoded_payload`, text or not, decoded with surrogateescape:
        // borrowed when it is valid UTF-8 (it then decodes to itself).
        let payload = match &leaf.body {
            Body::Bytes(b) => match b.as_str() {
                Some(t) => PartText::Utf8(t),
                None => PartText::Py(PyStr::from_utf8_surrogateescape(b)),
            },
            Body::None => {
                // `load_yaml(None)` / `None.lstrip()`: not a ValueError.
                self.buf = Some(acc);
                return Err(PartRejection::NoPayload);
            }
        };
        let result = if leaf.content_type == JSONP {
            self.merge_patch(&acc, payload.as_wtf8(), source, observer)
                .map_err(|e| (e, acc))
        } else {
            self.merge_part(acc, &payload, leaf, source, observer, preloaded)
        };
        let result = result.map_err(|(e, acc)| {
            self.buf = Some(acc);
            e
        });
        match result {
            Ok(merged) => {
                self.buf = Some(merged);
                self.merged_bytes = self.merged_bytes.saturating_add(payload.as_wtf8().len());
                self.file_names.push(leaf.listed_filename());
                Ok(())
            }
            Err(e) => {
                if e.is_value_error() {
                    let f = leaf.filename.clone().unwrap_or_default();
                    self.error_file_names
                        .push(f.trim_matches(py_is_space).to_owned());
                }
                Err(e)
            }
        }
    }

    fn merge_patch(
        &self,
        acc: &Node,
        bytes: &[u8],
        source: SourceId,
        observer: &mut dyn FoldObserver,
    ) -> Result<Node, PartRejection> {
        // The payload may hold surrogate escapes of stray bytes: Python's json
        // keeps them in strings, so the parser reads the Python string's bytes.
        let utf8 = match std::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(bytes.get(..e.valid_up_to()).unwrap_or_default())
                .unwrap_or_default(),
        };
        let lead = utf8.len() - utf8.trim_start_matches(py_is_space).len();
        let text = bytes.get(lead..).unwrap_or_default();
        let text = text.strip_prefix(b"#cloud-config-jsonp").unwrap_or(text);
        let patch = parse_py_json_wtf8(text, source, 900).map_err(PartRejection::Json)?;
        observer.part_data(source, &patch);
        apply_patch(acc, &patch).map_err(PartRejection::Patch)
    }

    fn merge_part(
        &mut self,
        acc: Node,
        payload: &PartText<'_>,
        leaf: &Leaf,
        source: SourceId,
        observer: &mut dyn FoldObserver,
        preloaded: Preloaded<'_>,
    ) -> Result<Node, (PartRejection, Node)> {
        let prepared = self.prepare_part(payload, leaf, source, preloaded.loaded, observer);
        let (mut data, stack) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => return Err((e, acc)),
        };
        observer.part_data(source, &data);
        observer.part_mergers(source, &stack);
        // The merge empties the part's lists and dicts as it takes their
        // items (no clone of each); what is left is freed here, or by the
        // helper if it loaded the part.
        let merged = stack
            .merge_owned_observed(acc, &mut data, observer)
            .map_err(|(e, acc)| (PartRejection::Merge(e), acc));
        if let Some(spent) = preloaded.spent {
            spent.push(data);
        }
        merged
    }

    /// A YAML part's data (merge keys popped) and the merger stack it asks
    /// for (borrowed when it is the one remembered for its header).
    fn prepare_part(
        &mut self,
        payload: &PartText<'_>,
        leaf: &Leaf,
        source: SourceId,
        preloaded: Option<Loaded>,
        observer: &mut dyn FoldObserver,
    ) -> Result<(Node, Cow<'_, ci::MergerStack>), PartRejection> {
        let merge_type = leaf.merge_type_header();
        let header: Option<&str> = match merge_type {
            None => None,
            Some(HeaderValue::Text(t)) => Some(t),
            Some(HeaderValue::Value(n)) => n.as_str(),
        };
        let header_bad = match merge_type {
            Some(HeaderValue::Value(n)) if n.as_str().is_none() => Some(n.type_name()),
            _ => None,
        };
        let loaded = match (preloaded, payload) {
            (Some(loaded), _) => loaded,
            (None, PartText::Utf8(t)) => load_str_in(t, self.opts, source),
            (None, PartText::Py(t)) => load_py_text_in(t, self.opts, source),
        };
        let root = match loaded {
            Ok(Some(root)) => root,
            Ok(None) => return Err(PartRejection::Empty),
            Err(e) => return Err(PartRejection::Yaml(e)),
        };
        observer.part_root(source, &root);
        if root.as_map().is_none() {
            return Err(PartRejection::NotAMapping(root.type_name()));
        }
        let version = match self.opts.release {
            Release::V22_4 => ci::Version::V22_4,
            Release::V25_1 => ci::Version::V25_1,
        };
        let (data, payload_specs) =
            ci::extract_payload_mergers(&root, version).map_err(PartRejection::Merge)?;
        if let Some(t) = header_bad {
            return Err(PartRejection::HeaderNotString(t));
        }
        let header = header.unwrap_or("");
        let resolve = |payload_specs| {
            let header_specs = ci::parse_merge_string(header, version)?;
            ci::stack_for_part(payload_specs, header_specs)
        };
        // Parts usually repeat one header and set no spec of their own: the
        // stack that header resolves to is remembered, and lent.
        if !payload_specs.is_empty() {
            let stack = resolve(payload_specs).map_err(PartRejection::Merge)?;
            return Ok((data, Cow::Owned(stack)));
        }
        let cached = match self.header_stack.take() {
            Some((h, stack)) if h == header => (h, stack),
            _ => (
                header.to_owned(),
                resolve(payload_specs).map_err(PartRejection::Merge)?,
            ),
        };
        let (_, stack) = self.header_stack.insert(cached);
        Ok((data, Cow::Borrowed(stack)))
    }

    /// The text cloud-init writes to `cloud-config.txt` at `end`.
    pub fn cloud_config_txt(&self) -> Result<String, crate::yaml::DumpError> {
        self.cloud_config_txt_aside(None, Keep::Whole)
            .map(DumpText::into_string)
    }

    /// [`CloudConfigHandler::cloud_config_txt`] kept as `keep` says, a
    /// large dump's second half written by `aside`.
    pub(crate) fn cloud_config_txt_aside(
        &self,
        aside: Option<&dyn RunAside>,
        keep: Keep,
    ) -> Result<DumpText, crate::yaml::DumpError> {
        let Some(buf) = &self.buf else {
            return Ok(DumpText::default());
        };
        // Lines joined by "\n", the dump last: written straight after the
        // header into one buffer sized for both.
        let mut head = String::with_capacity(64 + 24 * self.file_names.len());
        head.push_str("#cloud-config\n\n");
        if !self.file_names.is_empty() {
            let _ = writeln!(head, "# from {} files", self.file_names.len());
            // Pushed, not formatted: one line per part (5000 for a large payload).
            for f in &self.file_names {
                head.push_str("# ");
                head.push_str(if f.is_empty() { "?" } else { f });
                head.push('\n');
            }
            head.push('\n');
        }
        if self.opts.release == Release::V25_1 {
            for f in &self.error_file_names {
                let _ = writeln!(head, "# Cloud-config part ignored SCHEMA_ERROR: {f}");
            }
        }
        dump_text(
            &head,
            buf,
            &DumpOptions::cloud_init(),
            self.dump_guess(),
            aside,
            keep,
        )
    }

    /// `#cloud-config` and the merged config in the readable style
    /// ([`DumpOptions::readable`]; `{}` when nothing was merged) kept as
    /// `keep` says, a large dump's second half written by `aside` when it
    /// can be split.
    pub(crate) fn readable_aside(
        &self,
        aside: Option<&dyn RunAside>,
        keep: Keep,
    ) -> Result<DumpText, crate::yaml::DumpError> {
        let Some(buf) = &self.buf else {
            let text = "#cloud-config\n{}\n";
            return Ok(DumpText {
                pieces: vec![text.to_owned()],
                len: text.len(),
            });
        };
        let opts = DumpOptions::readable();
        dump_text(
            "#cloud-config\n",
            buf,
            &opts,
            self.dump_guess(),
            aside,
            keep,
        )
    }

    /// The dump is usually no longer than the text the parts were loaded from.
    fn dump_guess(&self) -> usize {
        self.merged_bytes.saturating_add(self.merged_bytes / 4)
    }
}
