//! `HumanRenderer`: diagnostics as rustc/Butane-style text (`error[code]: message`, `--> part 2 (x):4:11`, snippet, `= help:`).

use super::{Diagnostic, Label, Severity, SourceMap};
use crate::source::SourceId;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::ops::Range;

/// Renders diagnostics for people.
#[derive(Clone, Copy, Debug, Default)]
pub struct HumanRenderer {
    color: bool,
}

impl HumanRenderer {
    /// Plain text (no ANSI colors).
    pub fn new() -> Self {
        HumanRenderer { color: false }
    }

    /// With or without ANSI colors.
    pub fn with_color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// One diagnostic, ending in a newline.
    ///
    /// ```
    /// use cloudfold::diagnostic::*;
    /// use cloudfold::source::{Mark, SourceId, Span};
    /// # struct K; impl std::fmt::Display for K { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("bad") } }
    /// # impl DiagnosticKind for K { fn code(&self) -> &'static str { "demo-bad" } fn severity(&self) -> Severity { Severity::Error } }
    /// let mut sources = SourceMap::new();
    /// sources.insert(SourceId(0), SourceFile::part(1, "a.yaml", "a: 1\nb: 2\n"));
    /// let span = Span::new(SourceId(0), Mark::new(8, 1, 3), Mark::new(9, 1, 4));
    /// let d = Diagnostic::new(&K).with_primary(Label::new(span).with_message("here"));
    /// let text = HumanRenderer::new().render(&d, &sources);
    /// assert!(text.starts_with("error[demo-bad]: bad\n --> part 1 (a.yaml):2:4\n"));
    /// ```
    pub fn render(&self, d: &Diagnostic, sources: &SourceMap) -> String {
        let level = level(d.severity);
        let mut title = level.primary_title(d.message.as_str());
        title = title.id(d.code);
        let mut group = Group::with_title(title);
        // One snippet per source, in the order labels first name them (primary first).
        let mut order: Vec<SourceId> = Vec::new();
        for label in d.labels() {
            if let Some(id) = label.source()
                && sources.get(id).is_some()
                && !order.contains(&id)
            {
                order.push(id);
            }
        }
        for id in &order {
            let Some(file) = sources.get(*id) else {
                continue;
            };
            let mut snippet = Snippet::source(file.text.as_str()).path(file.name.as_str());
            for (i, label) in d.labels().enumerate() {
                if label.source() != Some(*id) {
                    continue;
                }
                let kind = if i == 0 && d.primary.is_some() {
                    AnnotationKind::Primary
                } else {
                    AnnotationKind::Context
                };
                let ann = kind.span(clamp(label, &file.text));
                snippet = snippet.annotation(match &label.message {
                    Some(m) => ann.label(m.as_str()),
                    None => ann,
                });
            }
            group = group.element(snippet);
        }
        // Labels with no quotable text still say which value they mean.
        let mut located = Vec::new();
        for label in d.labels() {
            let quoted = label.source().is_some_and(|id| sources.get(id).is_some());
            if !quoted && let Some(path) = &label.path {
                located.push(match &label.message {
                    Some(m) => format!("at {path}: {m}"),
                    None => format!("at {path}"),
                });
            }
        }
        for line in &located {
            group = group.element(Level::NOTE.message(line.as_str()));
        }
        for note in &d.notes {
            group = group.element(Level::NOTE.message(note.as_str()));
        }
        if let Some(help) = &d.help {
            group = group.element(Level::HELP.message(help.as_str()));
        }
        let renderer = if self.color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        let mut out = renderer.render(&[group]);
        out.push('\n');
        out
    }

    /// All diagnostics, separated by blank lines.
    pub fn render_all(&self, diags: &[Diagnostic], sources: &SourceMap) -> String {
        let mut out = String::new();
        for (i, d) in diags.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&self.render(d, sources));
        }
        out
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
        Severity::Help => Level::HELP,
    }
}

/// The label's byte range, kept inside `text` and on character boundaries
/// (a span made from other text must not panic the renderer).
fn clamp(label: &Label, text: &str) -> Range<usize> {
    let mut start = label.span.start.index.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = label.span.end.index.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}
