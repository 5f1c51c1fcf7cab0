//! `part_diagnostics`: why cloud-init ignores a part, pointing into the part (YAML position, merge spec, first line).

use super::did_you_mean::did_you_mean;
use super::node_lookup::find_by_path;
use super::spans::{first_line, one_char};
use super::{MergeKind, PartKind, PartSource};
use crate::diagnostic::{Diagnostic, Label};
use crate::merge::PyException;
use crate::merge::cloud_init::{MergeSpec, SpecName, Version, extract_payload_mergers};
use crate::source::{LineIndex, Span};
use crate::userdata::{PartOutcome, PartRejection, PartReport, other_agent};
use crate::yaml::{PyErrorClass, YamlError};

const MERGERS: &[&str] = &["dict", "list", "str"];

/// The diagnostics for one part's outcome (none when it merged or will run).
/// `cloud_init_only`: a part another agent reads is reported as cloud-init sees
/// it (`part-unknown-type`), not as a note (`--strict`).
pub(super) fn part_diagnostics(
    report: &PartReport,
    ps: &PartSource,
    version: Version,
    cloud_init_only: bool,
) -> Vec<Diagnostic> {
    let n = report.number;
    // Made only for a part that gets a diagnostic (few do): indexing a large
    // part's lines was a large transient buffer.
    let whole = || Label::new(first_line(ps.source, &LineIndex::new(&ps.text)));
    let logs = |detail: Option<&str>| {
        let mut s = format!(
            "cloud-init logs: Failed at merging in cloud config part from {}",
            report.filename()
        );
        if let Some(d) = detail {
            s.push_str(": ");
            s.push_str(d);
        }
        s
    };
    let d = match &report.outcome {
        PartOutcome::Merged | PartOutcome::WouldRun | PartOutcome::Empty | PartOutcome::Excluded => {
            return Vec::new();
        }
        // jinja_check reports these, at their lines.
        PartOutcome::JinjaDropped => return Vec::new(),
        PartOutcome::Unhandled => {
            let what = if report.content_type() == "text/x-not-multipart" {
                "Unhandled non-multipart (text/x-not-multipart) userdata".to_owned()
            } else {
                format!(
                    "Unhandled unknown content-type ({}) userdata",
                    report.content_type()
                )
            };
            let logs = format!("cloud-init logs: {what}: ...");
            match other_agent(report.content_type()) {
                Some(agent) if !cloud_init_only => Diagnostic::new(&PartKind::OtherAgent {
                    part: n,
                    content_type: report.content_type().to_owned(),
                    agent: agent.agent,
                })
                .with_primary(whole())
                .with_note(format!(
                    "{} reads it on {}; cloudfold does not check its content",
                    agent.agent, agent.images
                ))
                .with_note(logs),
                _ => Diagnostic::new(&PartKind::UnknownType {
                    part: n,
                    content_type: report.content_type().to_owned(),
                })
                .with_primary(whole())
                .with_note(logs),
            }
        }
        PartOutcome::Rejected(r) => match r {
            PartRejection::Yaml(e) => {
                let mut d = Diagnostic::new(&PartKind::YamlInvalid {
                    part: n,
                    problem: e.problem.clone(),
                });
                d = match e.mark {
                    Some(m) => {
                        d.with_primary(Label::new(one_char(ps.source, &ps.text, m)).with_message(
                            match &e.context {
                                Some((ctx, cm)) if *cm == m => ctx.clone(),
                                _ => "here".to_owned(),
                            },
                        ))
                    }
                    None => d.with_primary(whole()),
                };
                if let Some((ctx, m)) = &e.context
                    && Some(*m) != e.mark
                {
                    d = d.with_secondary(
                        Label::new(one_char(ps.source, &ps.text, *m)).with_message(ctx.clone()),
                    );
                }
                // cloud-init's util.load_yaml logs the errors it catches and returns
                // None ("empty cloud config"); any other escapes to the handler.
                if e.class.caught_by_load_yaml() {
                    d.with_note(load_yaml_log(e, &ps.text))
                        .with_note(logs(Some("empty cloud config")))
                } else {
                    d.with_note(logs(None))
                }
            }
            PartRejection::NoPayload => Diagnostic::new(&PartKind::Empty { part: n })
                .with_primary(whole())
                .with_note("this part is a message/rfc822 document: cloud-init sets its type to that of the last part inside it and hands it over with no payload of its own; the handler raises".to_owned())
                .with_note(logs(None)),
            PartRejection::Empty => Diagnostic::new(&PartKind::Empty { part: n })
                .with_primary(whole())
                .with_note(logs(Some("empty cloud config"))),
            PartRejection::NotAMapping(t) => {
                let label = match &ps.root {
                    Some(root) => Label::new(root.span()),
                    None => whole(),
                };
                Diagnostic::new(&PartKind::NotMapping { part: n, found: t })
                    .with_primary(label.with_message(format!("a {t}")))
                    .with_note(format!(
                        "cloud-init logs: Failed loading yaml blob. Yaml load allows (<class 'dict'>,) root types, but got {t} instead"
                    ))
                    .with_note(logs(Some("empty cloud config")))
            }
            PartRejection::Json(e) => Diagnostic::new(&PartKind::JsonInvalid {
                part: n,
                message: e.msg.to_owned(),
            })
            .with_primary(Label::new(one_char(ps.source, &ps.text, e.mark)).with_message(e.msg)),
            PartRejection::Patch(e) => Diagnostic::new(&PartKind::JsonPatchFailed {
                part: n,
                message: format!("{}: {}", e.class, e.message),
            })
            .with_primary(whole()),
            PartRejection::HeaderNotString(t) => Diagnostic::new(&MergeKind::SpecInvalid {
                part: n,
                message: format!("the merge header is a {t}, not a string"),
            })
            .with_primary(whole()),
            PartRejection::Merge(e) => {
                let spec_label = spec_label(ps).unwrap_or_else(whole);
                if let Some(at) = &e.at {
                    let label = ps
                        .root
                        .as_ref()
                        .and_then(|r| extract_payload_mergers(r, version).ok())
                        .and_then(|(data, _)| find_by_path(&data, at))
                        .map_or_else(whole, |node| Label::new(node.span()).with_path(at.clone()));
                    Diagnostic::new(&MergeKind::Failed {
                        part: n,
                        message: format!("{}: {}", e.class, e.message),
                    })
                    .with_primary(label.with_message("this value cannot be merged"))
                    .with_secondary(spec_label.with_message("with these mergers"))
                    .with_note(logs(None))
                } else if e.class == PyException::ValueError {
                    Diagnostic::new(&MergeKind::SpecSyntax {
                        part: n,
                        message: e.message.clone(),
                    })
                    .with_primary(spec_label)
                    .with_note(logs(Some(&e.message)))
                } else if e.class == PyException::ImportError {
                    let name = unknown_merger(ps, version).unwrap_or_default();
                    let mut d = Diagnostic::new(&MergeKind::UnknownMerger {
                        part: n,
                        name: name.clone(),
                    })
                    .with_primary(spec_label)
                    .with_note(format!("cloud-init raises ImportError: {}", e.message))
                    .with_note(logs(None));
                    let bare = name.strip_prefix("m_").unwrap_or(&name);
                    if let Some(s) = did_you_mean(bare, MERGERS) {
                        d = d.with_help(format!(
                            "did you mean `{s}`? (only dict, list and str exist)"
                        ));
                    } else {
                        d = d.with_help("only the mergers dict, list and str exist");
                    }
                    d
                } else {
                    Diagnostic::new(&MergeKind::SpecInvalid {
                        part: n,
                        message: format!("{}: {}", e.class, e.message),
                    })
                    .with_primary(spec_label)
                    .with_note(logs(None))
                }
            }
        },
    };
    vec![d]
}

/// What cloud-init's `util.load_yaml` logs for a document it cannot load (`text`):
/// for a marked PyYAML error the 1-based position of its context mark (else its problem
/// mark) and the exception's text; for any other, the exception's text alone.
fn load_yaml_log(e: &YamlError, text: &str) -> String {
    let err = e.python_str(text);
    let mark = e.context.as_ref().map(|(_, m)| *m).or(e.mark);
    match mark {
        Some(m) if e.class.is_yaml_error() && e.class != PyErrorClass::Reader => format!(
            "cloud-init logs: Failed loading yaml blob. Invalid format at line {} column {}: \"{err}\"",
            m.line + 1,
            m.column + 1
        ),
        _ => format!("cloud-init logs: Failed loading yaml blob. {err}"),
    }
}

/// Where the part's merge spec is: the payload key, else the header line.
fn spec_label(ps: &PartSource) -> Option<Label> {
    let span: Span = ps.payload_spec_span().or(ps.header_span)?;
    Some(Label::new(span))
}

/// The first merger name that does not exist (payload spec, then header).
fn unknown_merger(ps: &PartSource, version: Version) -> Option<String> {
    let payload = ps
        .root
        .as_ref()
        .and_then(|r| extract_payload_mergers(r, version).ok())
        .map(|(_, s)| s)
        .unwrap_or_default();
    let header = ps
        .header_spec
        .as_deref()
        .and_then(|h| MergeSpec::parse_str(h, version).ok())
        .unwrap_or_default();
    payload
        .then(header)
        .entries
        .into_iter()
        .find_map(|e| match e.name {
            SpecName::Str(s) => {
                let bare = s.strip_prefix("m_").unwrap_or(&s);
                (!MERGERS.contains(&bare)).then_some(s)
            }
            SpecName::NotStr(t) => Some(format!("<{t}>")),
        })
}
