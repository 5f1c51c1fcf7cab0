//! `jinja_diagnostics`: template problems in a `## template: jinja` part, at their line (header counted).
//!
//! Syntax errors and filters Jinja2 lacks are found without instance data (a
//! compile and a scan); undefined variables, the `a-b` subtraction trap and a
//! rendered first line no sub-handler takes need `--instance-data`.

use super::did_you_mean::did_you_mean;
use super::spans::{find, first_line, rest_of_line};
use super::{PartKind, PartSource};
use crate::diagnostic::{Diagnostic, Label};
use crate::jinja::{
    Engine, FILTERS, JinjaDrop, JinjaLimits, JinjaRender, detect_template, template_body,
};
use crate::source::LineIndex;
use crate::userdata::{PartReport, PartType, UserDataOptions};

/// Filters people reach for that Jinja2 does not have (Ansible's, mostly), with what to write.
const NOT_JINJA2: &[(&str, &str)] = &[
    ("to_json", "use `tojson` (Jinja2's; it sorts keys)"),
    ("to_nice_json", "use `tojson(indent=2)`"),
    (
        "to_yaml",
        "Jinja2 has no YAML filter: write the YAML around the values",
    ),
    (
        "to_nice_yaml",
        "Jinja2 has no YAML filter: write the YAML around the values",
    ),
    (
        "from_json",
        "Jinja2 cannot parse JSON: put the value in the instance data",
    ),
    ("from_yaml", "Jinja2 cannot parse YAML"),
    (
        "b64encode",
        "Jinja2 has no base64 filter (an Ansible filter)",
    ),
    (
        "b64decode",
        "Jinja2 has no base64 filter (an Ansible filter)",
    ),
    (
        "regex_replace",
        "Jinja2 has no regex filter (an Ansible filter): use `replace`",
    ),
    (
        "regex_search",
        "Jinja2 has no regex filter (an Ansible filter)",
    ),
    (
        "bool",
        "Jinja2 has no `bool` filter (an Ansible filter): compare, e.g. `x == 'true'`",
    ),
    ("quote", "Jinja2 has no `quote` filter (an Ansible filter)"),
    ("basename", "Jinja2 has no path filters (Ansible's)"),
    ("dirname", "Jinja2 has no path filters (Ansible's)"),
    (
        "combine",
        "Jinja2 has no `combine` filter (an Ansible filter)",
    ),
    (
        "split",
        "Jinja2 has no `split` filter: call the method, `x.split(',')`",
    ),
    (
        "ternary",
        "Jinja2 has no `ternary` filter: `a if cond else b`",
    ),
    ("hash", "Jinja2 has no hash filters (Ansible's)"),
    ("password_hash", "Jinja2 has no hash filters (Ansible's)"),
];

/// 1-based `line`'s start offset in `text`.
fn line_start(text: &str, line: usize) -> usize {
    if line <= 1 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line - 2)
        .map_or(text.len(), |(i, _)| i + 1)
}

/// Filter names used in the template's tags (`|name`), outside string literals,
/// with their byte offsets.
fn filter_names(text: &str) -> Vec<(usize, String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_tag = false;
    let mut quote: Option<u8> = None;
    while let Some(&c) = b.get(i) {
        let next = b.get(i + 1).copied();
        if !in_tag {
            if c == b'{' && matches!(next, Some(b'{' | b'%')) {
                in_tag = true;
                i += 2;
                continue;
            }
        } else if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
        } else if c == b'\'' || c == b'"' {
            quote = Some(c);
        } else if matches!(c, b'}' | b'%') && next == Some(b'}') {
            in_tag = false;
            i += 2;
            continue;
        } else if c == b'|' {
            let rest = text.get(i + 1..).unwrap_or("");
            let trimmed = rest.trim_start();
            let at = i + 1 + (rest.len() - trimmed.len());
            let name: String = trimmed
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            if !name.is_empty() {
                out.push((at, name));
            }
        }
        i += 1;
    }
    out
}

/// The diagnostics for one jinja part (none for other parts).
pub(super) fn jinja_diagnostics(
    report: &PartReport,
    ps: &PartSource,
    opts: &UserDataOptions,
) -> Vec<Diagnostic> {
    if report.part_type != PartType::Jinja {
        return Vec::new();
    }
    let n = report.number;
    let lines = LineIndex::new(&ps.text);
    let whole = Label::new(first_line(ps.source, &lines));
    let rendered = matches!(report.jinja.as_deref(), Some(JinjaRender::Rendered { .. }));
    let mut out = Vec::new();
    // A rendered part's source text is its rendered text (validator.rs): the
    // template checks below read the template, which is then elsewhere.
    let (kind, content) = if rendered {
        (None, "")
    } else {
        detect_template(&ps.text)
    };
    let header_len = ps.text.len() - content.len();
    // Filters Jinja2 does not have: a compile-time error in Jinja2.
    let names = if kind.as_deref() == Some("jinja") {
        filter_names(content)
    } else {
        Vec::new()
    };
    for (at, name) in names {
        if FILTERS.contains(&name.as_str()) {
            continue;
        }
        let start = header_len + at;
        let span =
            crate::source::Span::new(ps.source, lines.mark(start), lines.mark(start + name.len()));
        let mut d = Diagnostic::new(&PartKind::JinjaUnknownFilter {
            part: n,
            name: name.clone(),
        })
        .with_primary(Label::new(span).with_message("not a Jinja2 filter"))
        .with_note(format!(
            "Jinja2 raises TemplateAssertionError: No filter named '{name}'. (cloud-init drops the part)"
        ));
        if let Some((_, help)) = NOT_JINJA2.iter().find(|(k, _)| *k == name) {
            d = d.with_help(*help);
        } else if let Some(s) = did_you_mean(&name, &FILTERS) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        out.push(d);
    }
    let syntax = |message: &str, line: usize| {
        let start = line_start(&ps.text, line);
        Diagnostic::new(&PartKind::JinjaSyntax {
            part: n,
            message: message.to_owned(),
        })
        .with_primary(Label::new(rest_of_line(ps.source, &lines, start)).with_message("here"))
    };
    match report.jinja.as_deref() {
        // Without instance data the template is still compiled: a syntax error
        // is what cloud-init hits at boot.
        Some(JinjaRender::Dropped {
            why: JinjaDrop::NoInstanceData,
            ..
        }) => {
            let engine = Engine::new(opts.release.jinja(), JinjaLimits::default());
            let (body, _) = template_body(content);
            if let Some((message, line)) = engine.check_syntax(&body)
                && !message.starts_with("No filter named")
            {
                out.push(syntax(&message, line + 1));
            }
            out.push(
                Diagnostic::new(&PartKind::JinjaDropped {
                    part: n,
                    reason: JinjaDrop::NoInstanceData.describe(),
                })
                .with_primary(whole.clone()),
            );
        }
        Some(JinjaRender::Dropped {
            why: JinjaDrop::Syntax { message, line, .. },
            ..
        }) => {
            if !message.starts_with("No filter named") {
                out.push(syntax(message, *line));
            }
        }
        Some(JinjaRender::Dropped {
            why: JinjaDrop::Ignored(msg),
            ..
        }) => {
            let mut d = Diagnostic::new(&PartKind::JinjaDropped {
                part: n,
                reason: JinjaDrop::Ignored(msg.clone()).describe(),
            });
            // The `a-b` trap: point at `a-b`, suggest `a_b`.
            let trap = msg
                .strip_prefix("Undefined jinja variable: \"")
                .and_then(|r| r.split_once('"'))
                .map(|(ab, _)| ab.to_owned());
            match trap
                .as_deref()
                .and_then(|ab| find(ps.source, &lines, ab).map(|s| (ab, s)))
            {
                Some((ab, span)) => {
                    d = d
                        .with_primary(Label::new(span).with_message("Jinja reads this as a subtraction"))
                        .with_help(format!(
                            "write `{}` (cloud-init gives keys with `-` an alias with `_`), or `['{ab}']` on its parent",
                            ab.replace('-', "_")
                        ));
                }
                None => d = d.with_primary(whole.clone()),
            }
            out.push(d.with_note(format!(
                "cloud-init logs: Ignoring jinja template for {}: {msg}",
                report.filename()
            )));
        }
        Some(JinjaRender::Dropped { why, .. }) => out.push(
            Diagnostic::new(&PartKind::JinjaDropped {
                part: n,
                reason: why.describe(),
            })
            .with_primary(whole.clone()),
        ),
        Some(JinjaRender::Unsupported(m)) => out.push(
            Diagnostic::new(&PartKind::JinjaDropped {
                part: n,
                reason: format!("cloudfold cannot reproduce its result exactly ({m})"),
            })
            .with_primary(whole.clone()),
        ),
        Some(JinjaRender::Limit(m)) => out.push(
            Diagnostic::new(&PartKind::JinjaDropped {
                part: n,
                reason: m.clone(),
            })
            .with_primary(whole.clone()),
        ),
        Some(JinjaRender::Rendered { .. }) | None => {}
    }
    // Undefined variables (the part is still handled, with the placeholder in it).
    let missing = match report.jinja.as_deref() {
        Some(JinjaRender::Rendered { missing, .. } | JinjaRender::Dropped { missing, .. }) => {
            missing.clone()
        }
        _ => Vec::new(),
    };
    let keys: Vec<String> = opts
        .instance_data
        .as_ref()
        .map(|d| d.var_names())
        .unwrap_or_default();
    let key_refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    for name in missing {
        let placeholder = format!("{}{name}", crate::jinja::MISSING_JINJA_PREFIX);
        let label = find(ps.source, &lines, &placeholder).map_or(whole.clone(), |s| {
            Label::new(s).with_message("rendered from an undefined variable")
        });
        let mut d = Diagnostic::new(&PartKind::JinjaUndefined {
            part: n,
            name: name.clone(),
        })
        .with_primary(label)
        .with_note(format!(
            "cloud-init logs: Could not render jinja template variables in file '{}': '{name}', and keeps CI_MISSING_JINJA_VAR/{name} in the text",
            report.filename()
        ));
        if let Some(s) = did_you_mean(&name, &key_refs) {
            d = d.with_help(format!("the instance data has `{s}`"));
        } else if !keys.is_empty() {
            let shown: Vec<&str> = key_refs.iter().take(12).copied().collect();
            d = d.with_help(format!("top-level variables: {}", shown.join(", ")));
        }
        out.push(d);
    }
    out
}
