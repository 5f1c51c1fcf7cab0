//! `Diagnostic`: one problem — code, severity, message, labelled places, help and notes.

use super::{DiagnosticKind, Label, PartRef, Severity};

/// One problem, with everything needed to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable kebab-case code (see the module docs).
    pub code: &'static str,
    /// How bad it is.
    pub severity: Severity,
    /// One sentence, no trailing period.
    pub message: String,
    /// Where it is (`None`: the payload as a whole, e.g. its size).
    pub primary: Option<Label>,
    /// The part it is about, when its primary label's source does not say
    /// (a label on a MIME header line in the document, or none at all).
    pub part: Option<PartRef>,
    /// Other places involved (a conflict labels both places: the earlier value here).
    pub secondary: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// More context, one line each.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic of `kind`: its code, severity, message and help.
    pub fn new(kind: &dyn DiagnosticKind) -> Self {
        Diagnostic {
            code: kind.code(),
            severity: kind.severity(),
            message: kind.to_string(),
            primary: None,
            part: None,
            secondary: Vec::new(),
            help: kind.help(),
            notes: Vec::new(),
        }
    }

    /// The same diagnostic pointing at `label`.
    pub fn with_primary(mut self, label: Label) -> Self {
        self.primary = Some(label);
        self
    }

    /// The same diagnostic about `part`.
    pub fn with_part(mut self, part: PartRef) -> Self {
        self.part = Some(part);
        self
    }

    /// The same diagnostic with another place involved.
    pub fn with_secondary(mut self, label: Label) -> Self {
        self.secondary.push(label);
        self
    }

    /// The same diagnostic with `help` (replaces the kind's own help).
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The same diagnostic with one more note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// The same diagnostic at another severity (e.g. a lint promoted by configuration).
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The message, then each note and the help on lines of their own
    /// (`note: …`, `help: …`): the whole text for formats with one message field.
    pub fn message_with_notes(&self) -> String {
        let mut out = self.message.clone();
        for note in &self.notes {
            out.push_str("\nnote: ");
            out.push_str(note);
        }
        if let Some(help) = &self.help {
            out.push_str("\nhelp: ");
            out.push_str(help);
        }
        out
    }

    /// All labels, primary first.
    pub fn labels(&self) -> impl Iterator<Item = &Label> {
        self.primary.iter().chain(self.secondary.iter())
    }
}
