//! `GithubRenderer`: diagnostics as GitHub Actions workflow commands (`::error file=…,line=…::message`), one per line.

use super::file_locator::{FileLocator, Unplaced};
use super::{Diagnostic, Label, Severity, SourceMap};

/// Renders diagnostics as GitHub Actions annotations.
///
/// One workflow command per diagnostic: `::error`, `::warning` or `::notice`
/// (notes and help), with `file`, `line`, `col`, `endLine`, `endColumn` (the
/// end column exclusive, as SARIF counts it) of the input file when the
/// diagnostic's place is in it, and `title` = the code. The message is the
/// diagnostic's, then its other places, notes and help, one per line. A place
/// that is not a line of the file as written (inside a gzip'ed or base64 part,
/// an archive entry, an `#include`d document) is named in the message instead:
/// `at part 2 (x.yaml):4:3 (part 2 is base64-encoded in the file)`, and the
/// annotation names the file alone. Escaping is that of GitHub's
/// `@actions/core` toolkit (`escape_data`, `escape_property`).
#[derive(Clone, Debug, Default)]
pub struct GithubRenderer {
    file: Option<String>,
}

impl GithubRenderer {
    /// Annotations on `file` (the path as the repository names it); `None` (stdin):
    /// no `file` property, places are given in the message.
    pub fn new(file: Option<String>) -> Self {
        GithubRenderer { file }
    }

    /// One diagnostic as one workflow command, ending in a newline.
    ///
    /// ```
    /// use cloudfold::diagnostic::*;
    /// use cloudfold::source::{Mark, SourceId, Span};
    /// # struct K; impl std::fmt::Display for K { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("bad: 100%") } }
    /// # impl DiagnosticKind for K { fn code(&self) -> &'static str { "demo-bad" } fn severity(&self) -> Severity { Severity::Warning } }
    /// let mut sources = SourceMap::new();
    /// sources.insert(SourceId(0), SourceFile::new("a,b.yaml", "a: 1\nb: 2\n").placed(Placement::File));
    /// let span = Span::new(SourceId(0), Mark::new(8, 1, 3), Mark::new(9, 1, 4));
    /// let d = Diagnostic::new(&K).with_primary(Label::new(span));
    /// let r = GithubRenderer::new(Some("a,b.yaml".into()));
    /// assert_eq!(
    ///     r.render(&d, &FileLocator::new(&sources)),
    ///     "::warning file=a%2Cb.yaml,line=2,col=4,endLine=2,endColumn=5,title=demo-bad::bad: 100%25\n"
    /// );
    /// ```
    pub fn render(&self, d: &Diagnostic, locator: &FileLocator<'_>) -> String {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note | Severity::Help => "notice",
        };
        let mut props: Vec<(&str, String)> = Vec::new();
        if let Some(file) = &self.file {
            props.push(("file", file.clone()));
        }
        let mut body = d.message.clone();
        if let Some(primary) = &d.primary {
            match (locator.region(&primary.span), &self.file) {
                (Ok(r), Some(_)) => {
                    props.push(("line", r.start_line.to_string()));
                    props.push(("col", r.start_column.to_string()));
                    if (r.end_line, r.end_column) != (r.start_line, r.start_column) {
                        props.push(("endLine", r.end_line.to_string()));
                        props.push(("endColumn", r.end_column.to_string()));
                    }
                    if let Some(m) = &primary.message {
                        body.push_str(&format!("\nline {}: {m}", r.start_line));
                    }
                }
                _ => {
                    if let Some(place) = self.place(primary, locator) {
                        body.push_str("\nat ");
                        body.push_str(&place);
                    }
                }
            }
        }
        for label in &d.secondary {
            if let Some(place) = self.place(label, locator) {
                body.push_str("\nsee ");
                body.push_str(&place);
            }
        }
        for note in &d.notes {
            body.push_str("\nnote: ");
            body.push_str(note);
        }
        if let Some(help) = &d.help {
            body.push_str("\nhelp: ");
            body.push_str(help);
        }
        props.push(("title", d.code.to_owned()));
        let props: Vec<String> = props
            .iter()
            .map(|(k, v)| format!("{k}={}", escape_property(v)))
            .collect();
        format!("::{command} {}::{}\n", props.join(","), escape_data(&body))
    }

    /// Every diagnostic, one line each.
    pub fn render_all(&self, diags: &[Diagnostic], sources: &SourceMap) -> String {
        let locator = FileLocator::new(sources);
        diags.iter().map(|d| self.render(d, &locator)).collect()
    }

    /// A label's place as text: `FILE:LINE:COL` in the input file, else the
    /// source's own `NAME:LINE:COL` and why that is not a line of the file, else
    /// its logical path; with the label's message.
    fn place(&self, label: &Label, locator: &FileLocator<'_>) -> Option<String> {
        let at = match locator.region(&label.span) {
            Ok(r) => Some(format!(
                "{}:{}:{}",
                self.file.as_deref().unwrap_or("<stdin>"),
                r.start_line,
                r.start_column
            )),
            Err(Unplaced::NotInFile(why)) => locator.source(label.span.source).map(|f| {
                format!(
                    "{}:{}:{} ({why})",
                    f.name,
                    label.span.start.line.saturating_add(1),
                    label.span.start.column.saturating_add(1)
                )
            }),
            Err(Unplaced::NoSource) => None,
        };
        let at = match (at, &label.path) {
            (Some(at), Some(path)) => format!("{at} ({path})"),
            (Some(at), None) => at,
            (None, Some(path)) => path.clone(),
            (None, None) => return None,
        };
        Some(match &label.message {
            Some(m) => format!("{at}: {m}"),
            None => at,
        })
    }
}

/// A workflow command's message escaped as `@actions/core` does (`escapeData`):
/// `%` → `%25`, CR → `%0D`, LF → `%0A`.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value escaped as `@actions/core` does
/// (`escapeProperty`): [`escape_data`], then `:` → `%3A` and `,` → `%2C`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}
