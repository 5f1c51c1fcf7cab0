//! `merge_replay`: fold the merged parts again, watching the engine, to find lists silently replaced, truncated or ignored.

use super::{MergeKind, PartSource};
use crate::diagnostic::{Diagnostic, Label};
use crate::merge::cloud_init::{Version, prepare_part};
use crate::merge::{Decision, KeepReason, MergeEvent, MergeObserver, PathSeg};
use crate::python::py_is_space;
use crate::source::{SourceId, Span};
use crate::userdata::json_patch::apply_patch;
use crate::userdata::py_json::parse_py_json;
use crate::userdata::{PartOutcome, PartReport, PartType};
use crate::yaml::Node;
use crate::yaml::value::{Entries, Map, Value, py_eq};

/// What the observer keeps of one interesting decision.
enum Finding {
    Replaced {
        path: String,
        key: Option<Span>,
        new: Span,
        old_items: Vec<Span>,
        lost: usize,
    },
    Truncated {
        path: String,
        dropped: Vec<Span>,
    },
    Ignored {
        path: String,
        new: Span,
        old: Span,
        found: &'static str,
    },
}

struct Watch {
    findings: Vec<Finding>,
    no_directive: bool,
}

impl MergeObserver for Watch {
    fn event(&mut self, e: &MergeEvent<'_>) {
        let (Some(old), Some(new)) = (e.old, e.new) else {
            return;
        };
        let path = e.path.to_string();
        match e.decision {
            Decision::Replaced if self.no_directive => {
                let Some(o) = old.as_seq() else {
                    return;
                };
                let new_items: &[Node] = new.as_seq().map_or(&[], |s| s.items());
                // Items the new list repeats are not lost; past a million comparisons
                // every old item counts as lost (the warning stands either way).
                let lost = if o.len().saturating_mul(new_items.len()) > 1_000_000 {
                    o.len()
                } else {
                    o.iter()
                        .filter(|i| !new_items.iter().any(|n| py_eq(i, n)))
                        .count()
                };
                if lost == 0 {
                    return;
                }
                let key = match e.path.segments().last() {
                    Some(PathSeg::Key(k)) => Some(k.span()),
                    _ => None,
                };
                self.findings.push(Finding::Replaced {
                    path,
                    key,
                    new: new.span(),
                    old_items: o.iter().map(Node::span).collect(),
                    lost,
                });
            }
            Decision::OverlaidTruncated { old_len, new_len } if new_len > old_len => {
                let dropped = new
                    .as_seq()
                    .map(|s| s.items().iter().skip(old_len).map(Node::span).collect())
                    .unwrap_or_default();
                self.findings.push(Finding::Truncated { path, dropped });
            }
            Decision::KeptOld(KeepReason::NotRecursed) if new.as_seq().is_some() => {
                self.findings.push(Finding::Ignored {
                    path,
                    new: new.span(),
                    old: old.span(),
                    found: new.type_name(),
                });
            }
            _ => {}
        }
    }
}

/// Replay the handler's merges (only parts that merged) and report the traps.
pub(super) fn merge_replay(
    parts: &[PartReport],
    sources: &[PartSource],
    version: Version,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut acc: Option<Node> = None;
    // Which parts asked to append or prepend lists (for the note).
    let mut appenders: Vec<usize> = Vec::new();
    for (report, ps) in parts.iter().zip(sources) {
        if !matches!(
            report.part_type,
            PartType::CloudConfig | PartType::JsonPatch
        ) || report.outcome != PartOutcome::Merged
        {
            continue;
        }
        let base = acc
            .take()
            .unwrap_or_else(|| Node::synthetic(Value::Map(Map::new(Entries::default()))));
        if report.part_type == PartType::JsonPatch {
            let text = ps.text.trim_start_matches(py_is_space);
            let text = text.strip_prefix("#cloud-config-jsonp").unwrap_or(text);
            acc = Some(
                parse_py_json(text, ps.source, 900)
                    .ok()
                    .and_then(|p| apply_patch(&base, &p).ok())
                    .unwrap_or(base),
            );
            continue;
        }
        let Some(root) = &ps.root else {
            acc = Some(base);
            continue;
        };
        let Ok(prepared) = prepare_part(root, ps.header_spec.as_deref(), version) else {
            acc = Some(base);
            continue;
        };
        let spec_text = prepared.stack.to_string();
        if spec_text.contains("list(append") || spec_text.contains("list(prepend") {
            appenders.push(report.number);
        }
        let mut watch = Watch {
            findings: Vec::new(),
            no_directive: ps.has_no_directive(),
        };
        // Owned, as the handler merges: the accumulated config is extended
        // in place rather than copied for every part (which made a replay
        // of thousands of appending parts quadratic). A failed merge gives
        // it back unchanged, and the part is skipped as cloud-init skips it.
        let merged = match prepared
            .stack
            .merge_owned_observed(base, &prepared.data, &mut watch)
        {
            Ok(merged) | Err((_, merged)) => merged,
        };
        acc = Some(merged);
        for f in watch.findings {
            out.push(finding(f, report.number, &appenders, sources));
        }
    }
    out
}

/// The part a span points into: render numbers sources by position.
fn part_of(span: &Span, sources: &[PartSource]) -> Option<usize> {
    let i = usize::try_from(span.source.0).ok()?;
    sources
        .get(i)
        .filter(|s| s.source == span.source && span.source != SourceId::UNKNOWN)
        .map(|s| s.number)
}

fn finding(f: Finding, part: usize, appenders: &[usize], sources: &[PartSource]) -> Diagnostic {
    match f {
        Finding::Replaced {
            path,
            key,
            new,
            old_items,
            lost,
        } => {
            let earlier: Vec<usize> = old_items
                .iter()
                .filter_map(|s| part_of(s, sources))
                .collect();
            let mut distinct: Vec<usize> = Vec::new();
            for p in earlier {
                if !distinct.contains(&p) {
                    distinct.push(p);
                }
            }
            let earlier = distinct;
            let mut d = Diagnostic::new(&MergeKind::ListReplaced {
                path: path.clone(),
                part,
                earlier: earlier.clone(),
                lost,
            })
            .with_primary(
                Label::new(key.unwrap_or(new))
                    .with_path(path.clone())
                    .with_message("replaces the whole list"),
            );
            // One label per earlier part: its first item in the lost list.
            let mut labelled: Vec<usize> = Vec::new();
            for (i, span) in old_items.iter().enumerate() {
                let Some(p) = part_of(span, sources) else {
                    continue;
                };
                if labelled.contains(&p) {
                    continue;
                }
                labelled.push(p);
                let how = if appenders.contains(&p) {
                    format!("set by part {p}, which merges with list(append)")
                } else {
                    format!("set by part {p}")
                };
                d = d.with_secondary(
                    Label::new(*span)
                        .with_path(format!("{path}[{i}]"))
                        .with_message(how),
                );
            }
            d = d.with_note(format!(
                "part {part} has no merge directive, so cloud-init merges it with dict(replace)+list()+str(): a key it sets replaces the earlier value"
            ));
            if let Some(p) = earlier.iter().find(|p| appenders.contains(p)) {
                d = d.with_note(format!(
                    "part {p}'s list(append) applies only to part {p}: each part is merged with its own mergers"
                ));
            }
            d
        }
        Finding::Truncated { path, dropped } => {
            let mut d = Diagnostic::new(&MergeKind::ListTruncated {
                path: path.clone(),
                part,
                dropped: dropped.len(),
            });
            if let Some(first) = dropped.first() {
                d = d.with_primary(
                    Label::new(*first)
                        .with_path(path)
                        .with_message("dropped from here on"),
                );
            }
            d
        }
        Finding::Ignored {
            path,
            new,
            old,
            found,
        } => Diagnostic::new(&MergeKind::ValueIgnored {
            path: path.clone(),
            part,
            found,
        })
        .with_primary(
            Label::new(new)
                .with_path(path.clone())
                .with_message("ignored"),
        )
        .with_secondary(Label::new(old).with_path(path).with_message("kept")),
    }
}
