//! `HumanRenderer`: diagnostics as rustc/Butane-style text (`error[code]: message`, `--> part 2 (x):4:11`, snippet, `= help:`).

use super::{Diagnostic, Label, Severity, SourceMap};
use crate::source::{LineIndex, SourceId};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::collections::HashMap;
use std::ops::Range;

/// Longest line quoted, in bytes (a terminal shows a few hundred at most).
const MAX_QUOTED_LINE: usize = 4096;
/// Most bytes quoted from one source for one diagnostic (its labelled lines and those between).
const MAX_QUOTED: usize = 64 << 10;

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
        self.render_with(d, sources, &mut HashMap::new())
    }

    /// [`HumanRenderer::render`] with the sources' line tables kept in `lines`
    /// (built once per source however many diagnostics point into it).
    fn render_with<'s>(
        &self,
        d: &Diagnostic,
        sources: &'s SourceMap,
        lines: &mut HashMap<SourceId, LineIndex<'s>>,
    ) -> String {
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
        // Labels on lines too long to quote, said in notes instead.
        let mut unquoted = Vec::new();
        for id in &order {
            let Some(file) = sources.get(*id) else {
                continue;
            };
            let index = lines
                .entry(*id)
                .or_insert_with(|| LineIndex::new(file.text.as_str()));
            let here: Vec<(usize, &Label, Range<usize>)> = d
                .labels()
                .enumerate()
                .filter(|(_, l)| l.source() == Some(*id))
                .map(|(i, l)| (i, l, clamp(l, &file.text)))
                .collect();
            // annotate-snippets puts the end of a text that ends in a line
            // break on the last line, not on an empty one after it.
            let line_of = |at: usize| {
                let at = if at > 0 && at == file.text.len() && file.text.ends_with('\n') {
                    at - 1
                } else {
                    at
                };
                index.line_of(at)
            };
            let first = here.iter().map(|h| line_of(h.2.start)).min();
            let last = here.iter().map(|h| line_of(h.2.end)).max();
            let (Some(first), Some(last)) = (first, last) else {
                continue;
            };
            // Only the labelled lines go to annotate-snippets: it splits its
            // whole source into lines for every snippet, and the document of a
            // payload is one source (5000 header diagnostics x 4 MB).
            let lo = index.line_range(first).start;
            let hi = index.line_range(last).end;
            let quotable = hi - lo <= MAX_QUOTED
                && (first..=last).all(|l| index.line_range(l).len() <= MAX_QUOTED_LINE);
            let Some(text) = file.text.get(lo..hi).filter(|_| quotable) else {
                // Located but not quoted: annotate-snippets reads a quoted line
                // whole for each diagnostic (0.35 s for a 1 MiB line).
                let Some((_, label, range)) = here.first() else {
                    continue;
                };
                let line = line_of(range.start);
                group = group.element(
                    Origin::path(file.name.as_str())
                        .line(line + 1)
                        .char_column(label.span.start.column as usize + 1),
                );
                let bytes = hi - lo;
                unquoted.push(if first == last {
                    format!("line {} is {bytes} bytes long: not quoted", first + 1)
                } else {
                    format!(
                        "lines {}-{} are {bytes} bytes long: not quoted",
                        first + 1,
                        last + 1
                    )
                });
                for (_, l, r) in &here {
                    if let Some(m) = &l.message {
                        unquoted.push(format!(
                            "at {}:{}: {m}",
                            line_of(r.start) + 1,
                            l.span.start.column as usize + 1
                        ));
                    }
                }
                continue;
            };
            let mut snippet = Snippet::source(text)
                .line_start(first + 1)
                .path(file.name.as_str());
            for (i, label, range) in &here {
                let kind = if *i == 0 && d.primary.is_some() {
                    AnnotationKind::Primary
                } else {
                    AnnotationKind::Context
                };
                let ann = kind.span(range.start - lo..range.end - lo);
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
        for line in unquoted.iter().chain(&located) {
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
        let mut lines = HashMap::new();
        for (i, d) in diags.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&self.render_with(d, sources, &mut lines));
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
