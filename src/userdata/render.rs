//! `render`: the whole user-data fold — process, filter, dispatch, merge — with a report of every part.

use super::accumulated_message::HandlerWalk;
use super::cloud_config_handler::{CloudConfigHandler, PartRejection, Preloaded};
use super::excluded_types::NotIterable;
use super::fold_observer::FoldObserver;
use super::fold_text::FoldText;
use super::leaf::{Body, HeaderValue, Leaf, Origin};
use super::part_type::PartType;
use super::preloader::Preloader;
use super::processor::{
    IncludeResolver, ProcessError, ProcessWarning, Processed, WarningKind, process_cow,
    scalar_limit,
};
use super::spent_trees::SpentTrees;
use super::user_data_options::UserDataOptions;
use crate::diagnostic::PartRef;
use crate::jinja::{
    CloudInitLog, Engine, JinjaContext, JinjaDrop, JinjaRender, cloud_init_logs, render_part,
};
use crate::merge::NoObserver;
use crate::source::SourceId;
use crate::yaml::{Keep, Node, PyErrorClass};
use std::borrow::Cow;
use std::sync::Arc;
use std::thread::Scope;

/// About how many bytes a piece of a text written in pieces holds: a piece
/// large enough that writing it out costs one call, small enough that a
/// text checked and dropped ([`FoldText::Checked`]) reuses one buffer that
/// stays in the cache.
const PIECE_BYTES: usize = 256 << 10;

/// What happened to one part.
#[derive(Debug, Clone, PartialEq)]
pub enum PartOutcome {
    /// Merged into the cloud-config.
    Merged,
    /// A cloud-config part cloud-init skips (the config is unchanged).
    Rejected(PartRejection),
    /// A script, boothook or part-handler: cloud-init would run it; cloudfold lists it.
    WouldRun,
    /// A `## template: jinja` part that reaches no sub-handler (no instance
    /// data, a template error, an empty render, an unhandled rendered type) or
    /// whose result cloudfold cannot reproduce: [`PartReport::jinja`] says why.
    JinjaDropped,
    /// An unknown type: cloud-init ignores it with a warning.
    Unhandled,
    /// An empty part of an unknown type (cloud-init logs it at debug level only).
    Empty,
    /// Kept from every handler by vendor-data's `disabled_handlers`.
    Excluded,
}

/// One part as the handlers see it.
#[derive(Debug, Clone)]
pub struct PartReport {
    /// 1-based position in handler order.
    pub number: usize,
    /// Which cloud-init handler takes it.
    pub part_type: PartType,
    /// What happened.
    pub outcome: PartOutcome,
    /// Payload size in bytes.
    pub size: usize,
    /// The source id spans in this part's values carry.
    pub source: SourceId,
    /// The part itself (headers and payload), shared by its occurrences.
    pub leaf: Arc<Leaf>,
    /// 1 the first time handlers get this part; 2… each time an enclosing
    /// message/rfc822 part hands it to them again.
    pub occurrence: usize,
    /// A jinja part's render (its rendered text, or why it was dropped).
    pub jinja: Option<Arc<JinjaRender>>,
}

impl PartReport {
    /// The warnings cloud-init logs for this part's template (none for other parts).
    pub fn jinja_logs(&self, release: super::user_data_options::Release) -> Vec<CloudInitLog> {
        match &self.jinja {
            Some(r) => cloud_init_logs(
                r,
                &self.filename(),
                release == super::user_data_options::Release::V25_1,
            ),
            None => Vec::new(),
        }
    }
}

impl PartReport {
    /// The dispatched content type.
    pub fn content_type(&self) -> &str {
        &self.leaf.content_type
    }

    /// The filename (`part-NNN` when cloud-init assigned it: `if not
    /// filename`, the walk's own count names the part).
    pub fn filename(&self) -> Cow<'_, str> {
        handler_name(&self.leaf, self.number)
    }

    /// The part as cloud-init numbers and names it, and its MIME position.
    pub fn part_ref(&self) -> PartRef {
        PartRef {
            number: self.number,
            name: self.filename().into_owned(),
            mime: self.leaf.origin.mime_position(),
        }
    }

    /// The merge header the cloud-config handler uses (`Merge-Type`, else `X-Merge-Type`).
    pub fn merge_type_header(&self) -> Option<String> {
        self.leaf
            .merge_type_header()
            .map(HeaderValue::to_string_lossy)
    }

    /// The `Launch-Index` header as handlers see it (`dict(part)`: exact
    /// spelling; the filter itself matches any case).
    pub fn launch_index(&self) -> Option<String> {
        self.leaf
            .handler_header("Launch-Index")
            .map(HeaderValue::to_string_lossy)
    }

    /// Where it came from.
    pub fn origin(&self) -> &Origin {
        &self.leaf.origin
    }
}

/// A successful fold.
#[derive(Debug, Clone)]
pub struct Folded {
    /// The merged cloud-config (`None`: no cloud-config part at all).
    pub config: Option<Node>,
    /// Every part, in handler order (after launch-index filtering).
    pub parts: Vec<PartReport>,
    /// Parts removed by the launch-index filter, each with the 1-based number
    /// cloud-init attached it as (its `part-NNN`).
    pub filtered_out: Vec<(usize, Leaf)>,
    /// Warnings from processing.
    pub warnings: Vec<ProcessWarning>,
    /// Exactly what cloud-init writes to `cloud-config.txt` (empty when the
    /// fold was asked for other text, see [`Renderer::writing`]).
    pub cloud_config_txt: String,
    /// `#cloud-config` and the merged config in the readable style, when the
    /// fold was asked for it ([`FoldText::Readable`]); empty otherwise.
    pub readable: String,
    /// The text asked for, when asked for in pieces ([`Renderer::in_pieces`];
    /// `cloud_config_txt` and `readable` are then empty): the pieces one
    /// after the other are the text, which is never copied into one string.
    pub pieces: Vec<String>,
    /// Names listed as merged.
    pub file_names: Vec<String>,
    /// Names listed as schema errors (written in 25.1).
    pub error_file_names: Vec<String>,
    /// What the merges left of the parts' trees, freed with this result
    /// rather than during the fold ([`SpentTrees`]): held, never read.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "held to be freed with the result")
    )]
    pub(crate) spent: SpentTrees,
}

/// Why there is no fold at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// cloud-init would abort user-data processing.
    #[error(transparent)]
    Process(#[from] ProcessError),
    /// The merged value cannot be written as YAML.
    #[error("cannot write the merged config: {0}")]
    Dump(crate::yaml::DumpError),
    /// `disabled_handlers` is not something `in` works on: the handler walk
    /// stops at the first part, before any handler has it.
    #[error("disabled_handlers: {0}")]
    Excluded(#[from] NotIterable),
}

impl RenderError {
    /// Whether the fold stopped at one of cloudfold's own safety limits (see
    /// [`ProcessError::is_limit`]) rather than where cloud-init would abort.
    pub fn is_limit(&self) -> bool {
        match self {
            RenderError::Process(e) => e.is_limit(),
            RenderError::Dump(_) | RenderError::Excluded(_) => false,
        }
    }
}

/// Fold a user-data payload exactly as cloud-init does at boot.
///
/// ```
/// use cloudfold::userdata::{render, NoIncludes, UserDataOptions};
/// let payload = b"#cloud-config\nruncmd: [echo hi]\n";
/// let folded = render(payload, &UserDataOptions::default(), &NoIncludes).unwrap();
/// assert_eq!(folded.parts.len(), 1);
/// assert!(folded.cloud_config_txt.contains("- echo hi"));
/// ```
pub fn render(
    payload: &[u8],
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
) -> Result<Folded, RenderError> {
    render_observed(payload, opts, includes, &mut NoObserver)
}

/// [`render`], telling `observer` each cloud-config part's data and every
/// merge decision taken for it (the result is the same).
pub fn render_observed<'a>(
    payload: impl Into<Cow<'a, [u8]>>,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
    observer: &mut dyn FoldObserver,
) -> Result<Folded, RenderError> {
    render_observed_writing(payload, opts, includes, observer, FoldText::CloudConfigTxt)
}

/// [`render_observed`] writing `text`.
pub(crate) fn render_observed_writing<'a>(
    payload: impl Into<Cow<'a, [u8]>>,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
    observer: &mut dyn FoldObserver,
    text: FoldText,
) -> Result<Folded, RenderError> {
    let payload = payload.into();
    std::thread::scope(|scope| {
        let preloader = Preloader::new(scope, opts, payload.len());
        let processed = process_cow(payload, opts, includes, Some(&preloader))?;
        fold_processed(processed, opts, observer, preloader, text, false)
    })
}

/// [`render`] of a payload given away: a MIME payload's parts are slices
/// of it rather than copies (less memory to copy and to fault in).
pub fn render_owned(
    payload: Vec<u8>,
    opts: &UserDataOptions,
    includes: &dyn IncludeResolver,
) -> Result<Folded, RenderError> {
    std::thread::scope(|scope| {
        Renderer::start(scope, opts, payload.len()).render_owned(payload, includes)
    })
}

/// A render whose helper thread starts before the payload is there: a new
/// thread can take a millisecond or more to run on a virtual machine (an
/// idle virtual CPU wakes slowly), so a caller that knows the payload will
/// be large starts the render, reads the payload, then folds it.
///
/// ```
/// use cloudfold::userdata::{NoIncludes, Renderer, UserDataOptions};
/// let opts = UserDataOptions::default();
/// let folded = std::thread::scope(|scope| {
///     let renderer = Renderer::start(scope, &opts, 1 << 20);
///     let payload = b"#cloud-config\nruncmd: [echo hi]\n".to_vec(); // read meanwhile
///     renderer.render_owned(payload, &NoIncludes)
/// })
/// .unwrap();
/// assert!(folded.cloud_config_txt.contains("- echo hi"));
/// ```
pub struct Renderer<'scope, 'env> {
    opts: &'env UserDataOptions,
    preloader: Preloader<'scope, 'env>,
    text: FoldText,
    pieces: bool,
}

impl<'scope, 'env> Renderer<'scope, 'env> {
    /// A render with `opts`, whose helper starts now if a payload of
    /// `expected_len` bytes wants one (otherwise once the payload shows it
    /// does).
    pub fn start(
        scope: &'scope Scope<'scope, 'env>,
        opts: &'env UserDataOptions,
        expected_len: usize,
    ) -> Self {
        Renderer {
            opts,
            preloader: Preloader::new(scope, opts, expected_len),
            text: FoldText::CloudConfigTxt,
            pieces: false,
        }
    }

    /// This render writes `text` ([`FoldText::CloudConfigTxt`] unless told).
    ///
    /// ```
    /// use cloudfold::userdata::{FoldText, NoIncludes, Renderer, UserDataOptions};
    /// let opts = UserDataOptions::default();
    /// let folded = std::thread::scope(|scope| {
    ///     let renderer = Renderer::start(scope, &opts, 0).writing(FoldText::Readable);
    ///     renderer.render_owned(b"#cloud-config\nruncmd: [echo hi]\n".to_vec(), &NoIncludes)
    /// })
    /// .unwrap();
    /// assert_eq!(folded.readable, "#cloud-config\nruncmd:\n- echo hi\n");
    /// assert!(folded.cloud_config_txt.is_empty());
    /// ```
    #[must_use]
    pub fn writing(mut self, text: FoldText) -> Self {
        self.text = text;
        self
    }

    /// This render gives its text in pieces ([`Folded::pieces`]): a caller
    /// that writes the text out writes each piece in turn, and a large text
    /// is neither regrown nor joined into one string first.
    ///
    /// ```
    /// use cloudfold::userdata::{FoldText, NoIncludes, Renderer, UserDataOptions};
    /// let opts = UserDataOptions::default();
    /// let folded = std::thread::scope(|scope| {
    ///     let renderer = Renderer::start(scope, &opts, 0).writing(FoldText::Readable).in_pieces();
    ///     renderer.render_owned(b"#cloud-config\nruncmd: [echo hi]\n".to_vec(), &NoIncludes)
    /// })
    /// .unwrap();
    /// assert_eq!(folded.pieces.concat(), "#cloud-config\nruncmd:\n- echo hi\n");
    /// assert!(folded.readable.is_empty());
    /// ```
    #[must_use]
    pub fn in_pieces(mut self) -> Self {
        self.pieces = true;
        self
    }

    /// `render_owned` on this render's threads.
    pub fn render_owned(
        self,
        payload: Vec<u8>,
        includes: &dyn IncludeResolver,
    ) -> Result<Folded, RenderError> {
        let processed = process_cow(payload.into(), self.opts, includes, Some(&self.preloader))?;
        fold_processed(
            processed,
            self.opts,
            &mut NoObserver,
            self.preloader,
            self.text,
            self.pieces,
        )
    }

    /// [`Renderer::render_owned`], telling `observer` what
    /// `render_observed` tells it (the result is the same).
    pub fn render_owned_observed(
        self,
        payload: Vec<u8>,
        includes: &dyn IncludeResolver,
        observer: &mut dyn FoldObserver,
    ) -> Result<Folded, RenderError> {
        let processed = process_cow(payload.into(), self.opts, includes, Some(&self.preloader))?;
        fold_processed(
            processed,
            self.opts,
            observer,
            self.preloader,
            self.text,
            self.pieces,
        )
    }
}

impl std::fmt::Debug for Renderer<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer").finish_non_exhaustive()
    }
}

fn fold_processed(
    processed: Processed,
    opts: &UserDataOptions,
    observer: &mut dyn FoldObserver,
    mut preloader: Preloader<'_, '_>,
    text: FoldText,
    in_pieces: bool,
) -> Result<Folded, RenderError> {
    let walk = processed
        .message
        .handler_walk(opts.launch_index, &opts.limits)?;
    let mut warnings = processed.warnings;
    warnings.extend(repetition_notes(&walk));
    let filtered_out = walk
        .filtered_out
        .iter()
        .map(|(n, l)| (*n, (**l).clone()))
        .collect();
    let mut handler = CloudConfigHandler::new(opts);
    preloader.begin(&walk.parts);
    let mut parts = Vec::with_capacity(walk.parts.len());
    let mut engine: Option<Engine> = None;
    let mut spent = SpentTrees::default();
    for (i, handled) in walk.parts.iter().enumerate() {
        let leaf = &handled.leaf;
        let source = opts.source_of(i);
        let part_type = PartType::of(&leaf.content_type);
        let (size, truthy) = leaf.payload_size();
        let mut jinja = None;
        let outcome = match part_type {
            _ if opts.excluded.excludes(&leaf.content_type)? => PartOutcome::Excluded,
            PartType::CloudConfig | PartType::JsonPatch => {
                observer.begin_part(source);
                let loaded = preloader.take(i);
                // Kept with the result while there is room; past that the
                // helper frees the trees it loaded, and the handler the others.
                let kept = match part_type {
                    PartType::CloudConfig => spent.room_for(size),
                    _ => None,
                };
                let preloaded = match loaded {
                    Some((loaded, by_helper)) => Preloaded {
                        loaded: Some(loaded),
                        spent: kept.or_else(|| by_helper.then(|| preloader.spent())),
                    },
                    None => Preloaded {
                        loaded: None,
                        spent: kept,
                    },
                };
                let outcome = match handler.handle_preloaded(leaf, source, observer, preloaded) {
                    Ok(()) => PartOutcome::Merged,
                    Err(PartRejection::Yaml(e)) if e.class == PyErrorClass::Limit => {
                        return Err(RenderError::Process(scalar_limit(&leaf.origin, &e)));
                    }
                    Err(e) => PartOutcome::Rejected(e),
                };
                observer.end_part(source, outcome == PartOutcome::Merged);
                outcome
            }
            PartType::Jinja => {
                let engine = engine
                    .get_or_insert_with(|| Engine::new(opts.release.jinja(), opts.jinja_limits));
                let r = render_jinja_leaf(leaf, opts, engine);
                let outcome = match &r {
                    JinjaRender::Rendered { text, subtype, .. }
                        if subtype.starts_with("text/cloud-config") =>
                    {
                        // The cloud-config handler gets the rendered text with
                        // the part's own headers, type (text/jinja2) and name.
                        let mut rendered = (**leaf).clone();
                        rendered.body = Body::Bytes(crate::jinja::encode_escaped(text).into());
                        observer.begin_part(source);
                        let outcome = match handler.handle_preloaded(
                            &rendered,
                            source,
                            observer,
                            Preloaded::default(),
                        ) {
                            Ok(()) => PartOutcome::Merged,
                            Err(e) => PartOutcome::Rejected(e),
                        };
                        observer.end_part(source, outcome == PartOutcome::Merged);
                        outcome
                    }
                    JinjaRender::Rendered { .. } => PartOutcome::WouldRun,
                    _ => PartOutcome::JinjaDropped,
                };
                jinja = Some(Arc::new(r));
                outcome
            }
            PartType::Script
            | PartType::ScriptPerFrequency
            | PartType::Boothook
            | PartType::PartHandler => PartOutcome::WouldRun,
            PartType::Unhandled if truthy => PartOutcome::Unhandled,
            PartType::Unhandled => PartOutcome::Empty,
        };
        parts.push(PartReport {
            number: i + 1,
            part_type,
            outcome,
            size,
            source,
            leaf: Arc::clone(leaf),
            occurrence: handled.occurrence,
            jinja,
        });
    }
    // The helper, done loading, writes half of a large dump, its last job.
    preloader.settle();
    preloader.last_job();
    let aside: Option<&dyn crate::yaml::RunAside> = Some(&preloader);
    let keep = if in_pieces {
        Keep::Pieces(PIECE_BYTES)
    } else {
        Keep::Whole
    };
    let written = match text {
        FoldText::CloudConfigTxt => Some(handler.cloud_config_txt_aside(aside, keep)),
        FoldText::Readable => Some(handler.readable_aside(aside, keep)),
        FoldText::Checked => {
            Some(handler.cloud_config_txt_aside(aside, Keep::Nothing(PIECE_BYTES)))
        }
        FoldText::Nothing => None,
    };
    let written = written.transpose().map_err(RenderError::Dump)?;
    let (mut cloud_config_txt, mut readable, mut pieces) =
        (String::new(), String::new(), Vec::new());
    match (written, text) {
        (Some(w), FoldText::CloudConfigTxt | FoldText::Readable) if in_pieces => pieces = w.pieces,
        (Some(w), FoldText::CloudConfigTxt) => cloud_config_txt = w.into_string(),
        (Some(w), FoldText::Readable) => readable = w.into_string(),
        _ => {}
    }
    drop(preloader);
    let (config, file_names, error_file_names) = handler.into_results();
    Ok(Folded {
        config,
        parts,
        filtered_out,
        warnings,
        cloud_config_txt,
        readable,
        pieces,
        file_names,
        error_file_names,
        spent,
    })
}

/// `JinjaTemplatePartHandler.handle_part` on one leaf.
fn render_jinja_leaf(leaf: &Leaf, opts: &UserDataOptions, engine: &Engine) -> JinjaRender {
    let ctx = JinjaContext {
        data: opts.instance_data.as_deref(),
        v25: opts.release == super::user_data_options::Release::V25_1,
        engine,
        line_maps: opts.jinja_line_maps,
    };
    match &leaf.body {
        // Bytes that are not UTF-8 become stand-ins for Python's surrogates.
        Body::Bytes(b) => match crate::jinja::decode_escaped(b) {
            Some(text) => render_part(&text, &ctx),
            None => JinjaRender::Unsupported(
                "a jinja part holding a code point in U+10FF80..U+10FFFF (cloudfold uses those \
                 for bytes that are not UTF-8)"
                    .to_owned(),
            ),
        },
        // `detect_template(None)`: AttributeError, through run_part.
        Body::None => JinjaRender::Dropped {
            why: JinjaDrop::Raised(
                "AttributeError: 'NoneType' object has no attribute 'find'".to_owned(),
            ),
            missing: Vec::new(),
        },
    }
}

/// The name the handlers give the part at 1-based position `number`.
fn handler_name(leaf: &Leaf, number: usize) -> Cow<'_, str> {
    match leaf.filename.as_deref() {
        Some(f) if !f.is_empty() => Cow::Borrowed(f),
        _ => Cow::Owned(format!("part-{:03}", number.saturating_sub(1))),
    }
}

/// What cloud-init does silently with message/rfc822 parts, said once per
/// part: handed over more than once, or handed over although the processor
/// already expanded it (the original of a gzip, include or archive part).
fn repetition_notes(walk: &HandlerWalk) -> Vec<ProcessWarning> {
    // The usual walk: every part attached and met once (two entries of one
    // part cannot both be its first occurrence), so nothing to count.
    if walk.parts.iter().all(|p| p.attached && p.occurrence == 1) {
        return Vec::new();
    }
    // Per part: how often, whether attached, and its first position.
    let mut times: indexmap::IndexMap<usize, (usize, bool, &Leaf, usize)> =
        indexmap::IndexMap::new();
    for (i, p) in walk.parts.iter().enumerate() {
        let e = times
            .entry(p.node)
            .or_insert((0, p.attached, &p.leaf, i + 1));
        e.0 += 1;
    }
    times
        .values()
        .filter(|(n, attached, _, _)| *n > 1 || !attached)
        .map(|&(n, attached, leaf, number)| {
            let times = if n == 1 {
                "once".to_owned()
            } else {
                format!("{n} times")
            };
            let why = if attached {
                "once for itself and once more for each message/rfc822 part enclosing it"
            } else {
                "as a part of the message/rfc822 part(s) enclosing it, although the processor already expanded it (gzip, #include or archive)"
            };
            ProcessWarning {
                origin: leaf.origin.clone(),
                part: Some(PartRef {
                    number,
                    name: handler_name(leaf, number).into_owned(),
                    mime: leaf.origin.mime_position(),
                }),
                message: format!(
                    "cloud-init hands this {} part to its handlers {times}: {why}",
                    leaf.content_type
                ),
                kind: WarningKind::HandedAgain,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::userdata::{NoIncludes, Preload};

    /// Giving the payload away changes nothing but when it is freed.
    #[test]
    fn render_owned_is_render() {
        let payloads: [&[u8]; 3] = [
            b"#cloud-config\nruncmd: [a]\n",
            b"Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n--B\n\
              Content-Type: text/cloud-config\nMerge-Type: list(append)+dict()\n\n\
              runcmd: [a]\n--B\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: [b]\n--B--\n",
            b"#!/bin/sh\necho hi\n",
        ];
        let opts = UserDataOptions::default();
        for p in payloads {
            let a = render(p, &opts, &NoIncludes).unwrap();
            let b = render_owned(p.to_vec(), &opts, &NoIncludes).unwrap();
            assert_eq!(a.cloud_config_txt, b.cloud_config_txt);
            assert_eq!(a.parts.len(), b.parts.len());
            let outcomes = |f: &Folded| {
                f.parts
                    .iter()
                    .map(|p| p.outcome.clone())
                    .collect::<Vec<_>>()
            };
            assert_eq!(outcomes(&a), outcomes(&b));
        }
    }

    /// A multipart payload of `n` cloud-config parts appending to lists.
    fn many_parts(n: usize) -> Vec<u8> {
        let mut p = b"Content-Type: multipart/mixed; boundary=B\nMIME-Version: 1.0\n\n".to_vec();
        for i in 0..n {
            p.extend_from_slice(
                format!(
                    "--B\nContent-Type: text/cloud-config\nMerge-Type: list(append)+dict(recurse_array)+str()\n\n\
                     runcmd: [echo {i}, [ls, -l]]\npackages: [p{i}]\nusers: {{u{i}: {{shell: /bin/sh}}}}\n"
                )
                .as_bytes(),
            );
        }
        p.extend_from_slice(b"--B--\n");
        p
    }

    /// Every cloud-config part's leftovers are kept with the result (the
    /// payload is far below the cap), whichever thread loaded the part; the
    /// merged config's top-level values are its own all the same (a value
    /// that looked shared would keep a large dump on one thread).
    #[test]
    fn spent_trees_are_kept_and_share_no_value_with_the_config() {
        let p = many_parts(600);
        for preload in [Preload::Off, Preload::Auto, Preload::Always] {
            let opts = UserDataOptions {
                preload,
                ..UserDataOptions::default()
            };
            let f = std::thread::scope(|scope| {
                Renderer::start(scope, &opts, p.len()).render_owned(p.clone(), &NoIncludes)
            })
            .unwrap();
            assert_eq!(f.spent.len(), 600, "{preload:?}");
            let config = f.config.as_ref().and_then(Node::as_map).unwrap();
            assert!(config.iter().all(|(_, v)| !v.is_shared()), "{preload:?}");
            assert_eq!(
                f.cloud_config_txt,
                render(&p, &opts, &NoIncludes).unwrap().cloud_config_txt
            );
        }
    }

    /// Each text a fold can be asked for is what the dump of its merged
    /// config writes; the fold is the same whichever it writes.
    #[test]
    fn fold_text_is_the_dump_asked_for() {
        let opts = UserDataOptions::default();
        let payloads = [
            b"#cloud-config\nruncmd: [a]\n".to_vec(),
            b"#!/bin/sh\necho hi\n".to_vec(),
            // Large enough for the helper thread to load parts and split dumps.
            many_parts(3000),
        ];
        for p in payloads {
            let fold_as = |text, pieces| {
                std::thread::scope(|scope| {
                    let r = Renderer::start(scope, &opts, p.len()).writing(text);
                    let r = if pieces { r.in_pieces() } else { r };
                    r.render_owned(p.clone(), &NoIncludes)
                })
                .unwrap()
            };
            let fold = |text| fold_as(text, false);
            let (txt, readable, nothing) = (
                fold(FoldText::CloudConfigTxt),
                fold(FoldText::Readable),
                fold(FoldText::Nothing),
            );
            let dump = |f: &Folded| match &f.config {
                Some(c) => crate::yaml::dump_after(
                    "#cloud-config\n",
                    c,
                    &crate::yaml::DumpOptions::readable(),
                    0,
                )
                .unwrap(),
                None => "#cloud-config\n{}\n".to_owned(),
            };
            let want = dump(&txt);
            assert_eq!(readable.readable, want);
            assert!(readable.cloud_config_txt.is_empty());
            assert!(txt.readable.is_empty());
            assert_eq!(
                txt.cloud_config_txt,
                render(&p, &opts, &NoIncludes).unwrap().cloud_config_txt
            );
            assert!(nothing.readable.is_empty() && nothing.cloud_config_txt.is_empty());
            // In pieces: the same texts, not joined.
            let txt_pieces = fold_as(FoldText::CloudConfigTxt, true);
            let readable_pieces = fold_as(FoldText::Readable, true);
            assert_eq!(txt_pieces.pieces.concat(), txt.cloud_config_txt);
            assert_eq!(readable_pieces.pieces.concat(), want);
            assert!(txt_pieces.cloud_config_txt.is_empty() && readable_pieces.readable.is_empty());
            // Checked: written, none of it kept.
            let checked = fold_as(FoldText::Checked, false);
            assert!(checked.cloud_config_txt.is_empty() && checked.pieces.is_empty());
            for other in [&readable, &nothing, &checked, &txt_pieces] {
                assert_eq!(dump(other), want);
                assert_eq!(other.parts.len(), txt.parts.len());
                assert_eq!(other.file_names, txt.file_names);
            }
        }
    }
}
