//! `validate`: every check over one payload — MIME, encoding, each part's fate, merge specs, merge traps, size.

use super::encoding_check::{part_encoding, payload_encoding};
use super::merge_lint::merge_lint;
use super::merge_replay::merge_replay;
use super::mime_check::mime_diagnostics;
use super::part_check::part_diagnostics;
use super::size_check::size_diagnostics;
use super::spans::{include_urls_at, rest_of_line, span_at};
use super::{AbortKind, JsonSchema, PartKind, PartSource, Report, SchemaKind, ValidateOptions};
use crate::diagnostic::{Diagnostic, Label, PartRef, Placement, SourceFile, SourceMap};
use crate::jinja::JinjaRender;
use crate::merge::cloud_init::Version;
use crate::merge::{MergeEvent, MergeObserver};
use crate::mime::{Message, TransferEncoding};
use crate::source::{LineIndex, SourceId};
use crate::userdata::{
    Body, Fetched, FoldObserver, FoldText, IncludeResolver, Origin, PartType, ProcessError,
    Release, RenderError, WarningKind, gunzip, load_str_in, render_observed_writing,
};
use crate::yaml::Node;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

/// The id of the whole document (after one layer of gzip) in a report's source map.
pub const DOCUMENT: SourceId = SourceId(u32::MAX - 1);

/// Resolves through `inner`, but records a failed include and goes on with
/// nothing, so one unreachable URL does not hide every other problem.
struct Recording<'a> {
    inner: &'a dyn IncludeResolver,
    failed: RefCell<Vec<(String, String)>>,
}

impl IncludeResolver for Recording<'_> {
    fn fetch(&self, url: &str) -> Fetched {
        match self.inner.fetch(url) {
            Fetched::Failed(reason) => {
                self.failed.borrow_mut().push((url.to_owned(), reason));
                Fetched::Content(Vec::new())
            }
            ok => ok,
        }
    }
}

/// Keeps each cloud-config part's document as the fold loaded it, so that
/// the checks read that tree instead of loading the part a second time (two
/// trees of a large part were the largest share of validate's memory).
#[derive(Default)]
struct Roots(HashMap<SourceId, Node>);

impl MergeObserver for Roots {
    fn enabled(&self) -> bool {
        false
    }

    fn event(&mut self, _event: &MergeEvent<'_>) {}
}

impl FoldObserver for Roots {
    fn part_root(&mut self, source: SourceId, root: &Node) {
        self.0.insert(source, root.clone());
    }
}

/// Check `payload` as cloud-init would read it at boot and report everything.
///
/// Pure: `includes` decides what `#include` URLs hold (cloudfold never fetches).
///
/// ```
/// use cloudfold::userdata::NoIncludes;
/// use cloudfold::validate::{validate, ValidateOptions};
/// let payload = b"#cloud-config\nruncmd:\n\t- ls\n";
/// let report = validate(payload, &ValidateOptions::default(), &NoIncludes);
/// assert_eq!(report.diagnostics[0].code, "part-yaml-invalid");
/// ```
///
/// `payload` is borrowed (`&[u8]`, `&Vec<u8>`) or given away (`Vec<u8>`): one
/// given away that is valid UTF-8 and not gzip'ed becomes the document's text
/// itself rather than a copy of it (less memory to copy and to fault in).
pub fn validate<'a>(
    payload: impl Into<Cow<'a, [u8]>>,
    opts: &ValidateOptions,
    includes: &dyn IncludeResolver,
) -> Report {
    validate_cow(payload.into(), opts, includes)
}

fn validate_cow(
    payload: Cow<'_, [u8]>,
    opts: &ValidateOptions,
    includes: &dyn IncludeResolver,
) -> Report {
    let version = match opts.userdata.release {
        Release::V22_4 => Version::V22_4,
        Release::V25_1 => Version::V25_1,
    };
    let limit = opts.userdata.limits.max_decompressed_size;
    let mut sources = SourceMap::new();
    let mut head: Vec<Diagnostic> = Vec::new();

    // The document as the processor reads it: one gzip layer undone.
    let gunzipped = gunzip(&payload, limit).ok();
    // Where the document is in the file as written: the file itself, unless gzip'ed.
    let doc_placement = match gunzipped {
        None => Placement::File,
        Some(_) => Placement::NotInFile("the payload file is gzip-compressed".into()),
    };
    // A payload given away that is the document as valid UTF-8 becomes its
    // text (nothing else is kept); any other is kept and its text is a copy.
    let (kept, doc_text) = match payload {
        Cow::Owned(v) if gunzipped.is_none() => match String::from_utf8(v) {
            Ok(t) => (None, t),
            Err(e) => {
                let v = e.into_bytes();
                let t = String::from_utf8_lossy(&v).into_owned();
                (Some(Cow::Owned(v)), t)
            }
        },
        p => {
            let t = String::from_utf8_lossy(gunzipped.as_deref().unwrap_or(&p)).into_owned();
            (Some(p), t)
        }
    };
    let payload: &[u8] = kept.as_deref().unwrap_or(doc_text.as_bytes());
    let data: &[u8] = gunzipped.as_deref().unwrap_or(payload);
    let name = if opts.input_name.is_empty() {
        "user-data".to_owned()
    } else {
        opts.input_name.clone()
    };
    // One index of the document's lines for every mark in it: counting
    // lines from the start for each one was quadratic in the parts.
    let doc_lines = LineIndex::new(&doc_text);
    head.extend(payload_encoding(payload, limit, DOCUMENT, &doc_lines));
    let is_mime = data
        .get(..4096)
        .unwrap_or(data)
        .to_ascii_lowercase()
        .windows(13)
        .any(|w| w == b"mime-version:");
    let mut mime: Option<Message> = None;
    // The MIME defects, at `head[mime_at..]`, each with its MIME part's walk
    // index: once the parts are numbered, a defect in one gets its number.
    let mime_at = head.len();
    let mut mime_entities: Vec<usize> = Vec::new();
    if is_mime && std::str::from_utf8(data).is_ok() {
        let (msg, diags) = mime_diagnostics(&doc_lines, DOCUMENT);
        mime = msg;
        for (index, d) in diags {
            mime_entities.push(index);
            head.push(d);
        }
    }

    let recording = Recording {
        inner: includes,
        failed: RefCell::new(Vec::new()),
    };
    let mut roots = Roots::default();
    // No check reads cloud-config.txt: it is written only to find a dump
    // error, and none of it kept.
    let folded = render_observed_writing(
        payload,
        &opts.userdata,
        &recording,
        &mut roots,
        FoldText::Checked,
    );
    let failed = recording.failed.into_inner();
    let urls = (!failed.is_empty()).then(|| include_urls_at(&doc_lines));
    for (url, reason) in failed {
        let mut d = Diagnostic::new(&PartKind::IncludeNotFetched {
            url: url.clone(),
            reason,
        });
        if let Some(&at) = urls.as_ref().and_then(|u| u.get(url.as_str())) {
            d = d.with_primary(Label::new(span_at(DOCUMENT, &doc_lines, at, url.len())));
        }
        head.push(d);
    }
    let folded = match folded {
        Ok(f) => f,
        Err(e) => {
            let e = match e {
                RenderError::Process(p) => p,
                RenderError::Dump(m) => ProcessError::Limit(m.to_string()),
                // validate folds user-data, which has no disabled_handlers.
                RenderError::Excluded(m) => ProcessError::Limit(m.to_string()),
            };
            let mut d = Diagnostic::new(&AbortKind(e.clone()));
            match e {
                ProcessError::MimeNotUtf8(at) => {
                    d = d.with_primary(Label::new(rest_of_line(DOCUMENT, &doc_lines, at)));
                }
                // The message names the part (`part 1 (part-001), MIME part 2 …`).
                ProcessError::GzipPart { part, .. }
                | ProcessError::LaunchIndexOverflow { part, .. } => d = d.with_part(*part),
                _ => {}
            }
            head.push(
                d.with_note("nothing is merged, no cloud-config.txt is written and no script runs"),
            );
            if let Some(l) = opts.size_limit {
                head.extend(size_diagnostics(payload, &[], l));
            }
            sources.insert(
                DOCUMENT,
                SourceFile::new(name, doc_text).placed(doc_placement),
            );
            return Report {
                diagnostics: head,
                sources,
                folded: None,
            };
        }
    };
    for w in &folded.warnings {
        let message = format!("{}: {}", w.location(), w.message);
        let d = match w.kind {
            WarningKind::ArchiveIgnored => Diagnostic::new(&PartKind::ArchiveIgnored { message }),
            WarningKind::HandedAgain => Diagnostic::new(&PartKind::HandedAgain { message }),
        };
        head.push(match &w.part {
            Some(p) => d.with_part(p.clone()),
            None => d,
        });
    }
    // Every numbered part by its MIME walk index (the first, if handed twice).
    let mut by_entity: HashMap<usize, PartRef> = HashMap::new();
    for (number, leaf) in &folded.filtered_out {
        let name = leaf.filename.clone().unwrap_or_default();
        let part = PartRef {
            number: *number,
            name: name.clone(),
            mime: leaf.origin.mime_position(),
        };
        if let Some(m) = part.mime {
            by_entity.entry(m - 1).or_insert_with(|| part.clone());
        }
        let mut d = Diagnostic::new(&PartKind::FilteredByLaunchIndex { filename: name });
        about_part(&mut d, &part, None);
        head.push(d);
    }
    for report in &folded.parts {
        if let Some(m) = report.leaf.origin.mime_position() {
            by_entity.entry(m - 1).or_insert_with(|| report.part_ref());
        }
    }
    for (k, index) in mime_entities.iter().enumerate() {
        if let (Some(part), Some(d)) = (by_entity.get(index), head.get_mut(mime_at + k)) {
            about_part(d, part, None);
        }
    }

    // The MIME parts in walk order (a part's origin is its place there).
    let mime_parts: Vec<&Message> = mime.iter().flat_map(Message::walk).collect();
    let mut parts: Vec<PartSource> = Vec::with_capacity(folded.parts.len());
    let mut placements: Vec<Placement> = Vec::with_capacity(folded.parts.len());
    for report in &folded.parts {
        let text = PartSource::text_of(report);
        let root = if matches!(report.part_type, PartType::CloudConfig) {
            // The fold's own tree when it loaded this very text (valid UTF-8,
            // no template): the same load, with the same options and source.
            let same_text = report.jinja.is_none()
                && matches!(&report.leaf.body, Body::Bytes(b) if b.as_str().is_some());
            match roots.0.remove(&report.source) {
                Some(root) if same_text => Some(root),
                // Loaded from the text itself (no Python-string copy of it).
                _ => load_str_in(&text, &opts.userdata, report.source)
                    .ok()
                    .flatten(),
            }
        } else {
            None
        };
        let header_spec = report.merge_type_header().clone();
        let header_span = header_span(report.leaf.origin.clone(), &mime_parts, &doc_lines);
        placements.push(match doc_placement {
            Placement::File => part_placement(report, &text, &doc_text, &mime_parts),
            ref p => p.clone(),
        });
        parts.push(PartSource {
            number: report.number,
            source: report.source,
            text,
            root,
            header_span,
            header_spec,
        });
    }

    let mut per_part: Vec<Vec<Diagnostic>> = vec![Vec::new(); parts.len()];
    for ((report, ps), out) in folded.parts.iter().zip(&parts).zip(per_part.iter_mut()) {
        out.extend(part_encoding(report, ps));
        out.extend(part_diagnostics(report, ps, version, opts.cloud_init_only));
        out.extend(super::jinja_check::jinja_diagnostics(
            report,
            ps,
            &opts.userdata,
        ));
        if matches!(report.part_type, PartType::CloudConfig) {
            out.extend(merge_lint(ps, version));
        }
    }
    let traps = super::plan_check::plan_traps(&folded, opts.userdata.release, opts.image);
    for d in merge_replay(&folded.parts, &parts, version)
        .into_iter()
        .chain(traps)
    {
        let at = d
            .primary
            .as_ref()
            .and_then(|l| parts.iter().position(|p| p.source == l.span.source));
        match at.and_then(|i| per_part.get_mut(i)) {
            Some(list) => list.push(d),
            None => head.push(d),
        }
    }
    // A part's own diagnostics name it: through their label when it is in
    // the part's text, else (a header line in the document) here.
    for ((report, ps), list) in folded.parts.iter().zip(&parts).zip(per_part.iter_mut()) {
        let part = report.part_ref();
        for d in list.iter_mut() {
            about_part(d, &part, Some(ps.source));
        }
    }
    // Each part's text moves into the map once every check is done with it,
    // and the document's once the parts are placed in it: copies of a large
    // payload were a large share of validate's peak.
    for ((report, ps), placement) in folded.parts.iter().zip(parts).zip(placements) {
        sources.insert(
            report.source,
            SourceFile::part(report.number, report.filename().clone(), ps.text).placed(placement),
        );
    }
    let mut diagnostics = head;
    diagnostics.extend(per_part.into_iter().flatten());
    if let Some(schema) = &opts.schema
        && let Some(config) = &folded.config
    {
        diagnostics.extend(schema_diagnostics(schema, config));
    }
    if let Some(l) = opts.size_limit {
        diagnostics.extend(size_diagnostics(payload, &folded.parts, l));
    }
    sources.insert(
        DOCUMENT,
        SourceFile::new(name, doc_text).placed(doc_placement),
    );
    Report {
        diagnostics,
        sources,
        folded: Some(folded),
    }
}

/// Say that `d` is about `part`: in its `part` field, and, unless its primary
/// label is in the part's own text (`own`), in a note people read (the label's
/// place is a line of the document, or there is none).
fn about_part(d: &mut Diagnostic, part: &PartRef, own: Option<SourceId>) {
    if d.part.is_some() {
        return;
    }
    let located_in_part = own.is_some() && d.primary.as_ref().map(|l| l.span.source) == own;
    if !located_in_part {
        d.notes.insert(0, format!("in {}", part.describe()));
    }
    d.part = Some(part.clone());
}

/// Where a part's text is in the payload file (the document, not gzip'ed): a
/// slice of it when the bytes are there as cloud-init reads them, its lines when
/// only the characters differ (an 8-bit body Python re-decodes), else why not.
fn part_placement(
    report: &crate::userdata::PartReport,
    text: &str,
    doc_text: &str,
    mime_parts: &[&Message],
) -> Placement {
    let n = report.number;
    if report
        .jinja
        .as_deref()
        .is_some_and(|r| matches!(r, JinjaRender::Rendered { .. }))
    {
        // Spans index the rendered text: only the template is in the file, and
        // rendering moves lines.
        return Placement::NotInFile(format!(
            "part {n} is a jinja template: the place is in its rendered text"
        ));
    }
    let at = |offset: usize| {
        doc_text
            .get(offset..)
            .is_some_and(|rest| rest.starts_with(text))
    };
    match &report.leaf.origin {
        Origin::Whole if at(0) => Placement::Slice { offset: 0 },
        Origin::Whole => Placement::Lines { first_line: 0 },
        Origin::Mime { index, body_line } => {
            let Some(msg) = mime_parts.get(*index) else {
                return Placement::Lines {
                    first_line: *body_line,
                };
            };
            let offset = msg.body_start().index;
            match msg.transfer_encoding() {
                _ if at(offset) => Placement::Slice { offset },
                TransferEncoding::Identity => Placement::Lines {
                    first_line: *body_line,
                },
                TransferEncoding::Base64 => {
                    Placement::NotInFile(format!("part {n} is base64-encoded in the file"))
                }
                TransferEncoding::QuotedPrintable => Placement::NotInFile(format!(
                    "part {n} is quoted-printable-encoded in the file"
                )),
                TransferEncoding::Uuencode => {
                    Placement::NotInFile(format!("part {n} is uuencoded in the file"))
                }
            }
        }
        Origin::Gunzipped(_) => {
            Placement::NotInFile(format!("part {n} is gzip-compressed in the file"))
        }
        Origin::ArchiveEntry { .. } => Placement::NotInFile(format!(
            "part {n} is an entry of a #cloud-config-archive part"
        )),
        Origin::Include { url, .. } => {
            Placement::NotInFile(format!("part {n} was included from {url}"))
        }
    }
}

/// The `Merge-Type`/`X-Merge-Type` header line of a MIME part, in the document.
fn header_span(
    origin: Origin,
    mime_parts: &[&Message],
    doc: &LineIndex<'_>,
) -> Option<crate::source::Span> {
    let Origin::Mime { index, .. } = origin else {
        return None;
    };
    let part = mime_parts.get(index)?;
    let h = ["Merge-Type", "X-Merge-Type"].iter().find_map(|n| {
        part.headers()
            .iter()
            .find(|h| h.name == *n && !h.value.is_empty())
    })?;
    Some(rest_of_line(DOCUMENT, doc, h.at.index))
}

/// Schema findings, each labelled at the value (its span names the part and line).
fn schema_diagnostics(schema: &JsonSchema, config: &crate::yaml::Node) -> Vec<Diagnostic> {
    let mut issues = schema.check(config);
    // In the order the values appear: by part, then position.
    issues.sort_by_key(|i| (i.node.span().source, i.node.span().start.index));
    issues
        .into_iter()
        .map(|i| {
            let kind = if i.deprecated {
                SchemaKind::Deprecated {
                    path: i.path.clone(),
                    message: i.message,
                }
            } else {
                SchemaKind::Invalid {
                    path: i.path.clone(),
                    message: i.message,
                }
            };
            let mut d =
                Diagnostic::new(&kind).with_primary(Label::new(i.node.span()).with_path(i.path));
            for n in i.notes {
                d = d.with_note(n);
            }
            d
        })
        .collect()
}
