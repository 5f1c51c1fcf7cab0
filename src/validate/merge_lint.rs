//! `merge_lint`: merge specs that do not do what they say — unknown options, options with no effect, shadowed or unreachable mergers.

use super::did_you_mean::did_you_mean;
use super::spans::narrow;
use super::{MergeKind, PartSource};
use crate::diagnostic::{Diagnostic, Label};
use crate::merge::cloud_init::{MergeSpec, Options, SpecName, Version, extract_payload_mergers};
use crate::source::{LineIndex, Span};
use std::collections::HashSet;

const DICT_OPTIONS: &[&str] = &[
    "replace",
    "no_replace",
    "allow_delete",
    "recurse_list",
    "recurse_array",
    "recurse_str",
];
const LIST_OPTIONS: &[&str] = &[
    "append",
    "prepend",
    "replace",
    "no_replace",
    "recurse_dict",
    "recurse_list",
    "recurse_array",
    "recurse_str",
];
const STR_OPTIONS: &[&str] = &["append"];
const RECURSE: &[&str] = &[
    "recurse_list",
    "recurse_array",
    "recurse_str",
    "recurse_dict",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Merger {
    Dict,
    List,
    Str,
}

impl Merger {
    fn of(name: &SpecName) -> Option<Merger> {
        let SpecName::Str(s) = name else { return None };
        match s.strip_prefix("m_").unwrap_or(s) {
            "dict" => Some(Merger::Dict),
            "list" => Some(Merger::List),
            "str" => Some(Merger::Str),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Merger::Dict => "dict",
            Merger::List => "list",
            Merger::Str => "str",
        }
    }

    fn known(self) -> &'static [&'static str] {
        match self {
            Merger::Dict => DICT_OPTIONS,
            Merger::List => LIST_OPTIONS,
            Merger::Str => STR_OPTIONS,
        }
    }
}

/// One merger of a part's stack: which, as written, its options, the spec's
/// span, and (in the part's own text) the span from its name to the spec's end.
type Entry<'a> = (Merger, String, &'a Options, Option<Span>, Option<Span>);

/// Lint the part's payload spec and header spec (together, as cloud-init stacks them).
pub(super) fn merge_lint(ps: &PartSource, version: Version) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(root) = ps.root.as_ref().filter(|r| r.as_map().is_some()) else {
        return out;
    };
    let Ok((_, payload)) = extract_payload_mergers(root, version) else {
        return out;
    };
    let header = match ps.header_spec.as_deref() {
        Some(h) => match MergeSpec::parse_str(h, version) {
            Ok(s) => s,
            Err(_) => return out,
        },
        None => MergeSpec::default(),
    };
    let lines = LineIndex::new(&ps.text);
    // Each merger with the spec's span and, in the part's own text, the
    // span from the merger's name to the spec's end (found after the one
    // before it: a repeated merger is not the first of its name).
    let mut stack: Vec<Entry<'_>> = Vec::new();
    for (spec, span) in [
        (&payload, ps.payload_spec_span()),
        (&header, ps.header_span),
    ] {
        let mut rest = span.filter(|sp| sp.source == ps.source);
        for e in &spec.entries {
            // An unknown merger drops the whole part: reported with the part.
            let Some(m) = Merger::of(&e.name) else {
                return out;
            };
            let text = format!("{}({})", e.name, e.options);
            let from = rest.map(|r| {
                let name = narrow(r, &lines, text.split('(').next().unwrap_or(""));
                let from = Span::new(r.source, name.start, r.end);
                // The next merger starts after this one's `)`.
                let after = Span::new(r.source, name.end, r.end);
                let close = narrow(after, &lines, ")");
                rest = Some(if close == after {
                    after
                } else {
                    Span::new(r.source, close.end, r.end)
                });
                from
            });
            stack.push((m, text, &e.options, span, from));
        }
    }
    if stack.is_empty() {
        return out;
    }
    let label = |span: Option<Span>| span.map(Label::new);
    let mut seen: Vec<Merger> = Vec::new();
    // One warning per shadowed type, on its first shadowed merger, counting
    // the rest: a spec repeating its mergers would otherwise get one each.
    let mut shadowed: Vec<Merger> = Vec::new();
    let count = |m: Merger| stack.iter().filter(|s| s.0 == m).count();
    // The first dict merger decides; `dict(replace)` never reaches the others.
    let dict_replaces = stack
        .iter()
        .find(|s| s.0 == Merger::Dict)
        .is_some_and(|s| s.2.has("replace").unwrap_or(false));
    for (m, text, options, span, from) in &stack {
        let push = |out: &mut Vec<Diagnostic>, d: Diagnostic, opt: Option<&str>| {
            // Point at the option itself when the spec is in the part's own text.
            let span = match (span, from, opt) {
                (Some(sp), Some(rest), Some(opt)) => {
                    let at = narrow(*rest, &lines, opt);
                    Some(if at == *rest { *sp } else { at })
                }
                (s, _, _) => *s,
            };
            out.push(match label(span) {
                Some(l) => d.with_primary(l),
                None => d,
            });
        };
        if seen.contains(m) {
            if !shadowed.contains(m) {
                shadowed.push(*m);
                push(
                    &mut out,
                    Diagnostic::new(&MergeKind::MergerShadowed {
                        merger: text.clone(),
                        name: m.name(),
                        more: count(*m).saturating_sub(2),
                    }),
                    None,
                );
            }
            continue;
        }
        seen.push(*m);
        if *m != Merger::Dict && dict_replaces {
            push(
                &mut out,
                Diagnostic::new(&MergeKind::MergerUnreachable {
                    merger: text.clone(),
                }),
                None,
            );
        }
        match options {
            Options::List(items) => {
                // Each option once, and all unknown ones in one warning: every
                // warning shows the spec's line, so one per option given would
                // grow with the square of the spec.
                let mut given: HashSet<&str> = HashSet::new();
                let odd: Vec<&str> = items
                    .iter()
                    .map(String::as_str)
                    .filter(|o| !m.known().contains(o) && given.insert(o))
                    .collect();
                let no_effect = |o: &str| *m == Merger::Dict && o == "recurse_dict";
                let mut unknown = odd.iter().copied().filter(|o| !no_effect(o));
                let first_unknown = unknown.next();
                let others: Vec<&str> = unknown.collect();
                for o in odd {
                    if no_effect(o) {
                        push(
                            &mut out,
                            Diagnostic::new(&MergeKind::OptionNoEffect {
                                merger: text.clone(),
                                option: o.to_owned(),
                                reason: "the dict merger always recurses into mappings",
                            }),
                            Some(o),
                        );
                        continue;
                    }
                    if first_unknown != Some(o) {
                        continue;
                    }
                    let mut d = Diagnostic::new(&MergeKind::UnknownOption {
                        merger: text.clone(),
                        option: o.to_owned(),
                        more: others.len(),
                    });
                    d = match did_you_mean(o, m.known()) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help(format!("its options are: {}", m.known().join(", "))),
                    };
                    for other in &others {
                        d = d.with_note(match did_you_mean(other, m.known()) {
                            Some(s) => format!("`{other}` is unknown too: did you mean `{s}`?"),
                            None => format!("`{other}` is unknown too"),
                        });
                    }
                    push(&mut out, d, Some(o));
                }
            }
            Options::Substring(s) => {
                let found: Vec<&'static str> = m
                    .known()
                    .iter()
                    .copied()
                    .filter(|o| s.contains(o))
                    .collect();
                push(
                    &mut out,
                    Diagnostic::new(&MergeKind::SettingsSubstring {
                        merger: text.clone(),
                        found,
                    })
                    .with_help("give settings as a list: `settings: [no_replace, recurse_list]`"),
                    None,
                );
            }
            Options::Untestable(_) => {}
        }
        let has = |o: &str| options.has(o).unwrap_or(false);
        let mut no_effect = |option: &str, reason: &'static str| {
            if has(option) {
                push(
                    &mut out,
                    Diagnostic::new(&MergeKind::OptionNoEffect {
                        merger: text.clone(),
                        option: option.to_owned(),
                        reason,
                    }),
                    Some(option),
                );
            }
        };
        match m {
            Merger::Dict => {
                if has("replace") {
                    no_effect("no_replace", "`replace` wins when both are given");
                    for o in ["recurse_list", "recurse_array", "recurse_str"] {
                        no_effect(o, "`replace` replaces values without recursing into them");
                    }
                }
            }
            Merger::List => {
                let modes = ["append", "prepend", "replace", "no_replace"];
                if let Some(pos) = modes.iter().position(|o| has(o)) {
                    for o in modes.iter().skip(pos + 1) {
                        no_effect(
                            o,
                            "an earlier mode takes precedence (append > prepend > replace > no_replace)",
                        );
                    }
                    let mode = modes.get(pos).copied().unwrap_or("");
                    if mode == "append" || mode == "prepend" {
                        for o in RECURSE {
                            no_effect(o, "append and prepend never merge items");
                        }
                    } else if mode == "no_replace" {
                        for o in RECURSE {
                            no_effect(o, "no_replace keeps the old items");
                        }
                    }
                }
            }
            Merger::Str => {}
        }
    }
    if !seen.contains(&Merger::Dict) {
        let d = Diagnostic::new(&MergeKind::NoDictMerger { part: ps.number });
        out.push(match stack.first().and_then(|s| s.3) {
            Some(span) => d.with_primary(Label::new(span)),
            None => d,
        });
    }
    out
}
