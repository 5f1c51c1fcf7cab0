//! `SourceFile`: one named source text a diagnostic can quote (a part, a file), and where it is in the input file.

use super::Placement;

/// A named source text.
///
/// `name` is what the reader sees after `-->` (`part 2 (base.yaml)`); `part` and
/// `filename` are the same facts for machines. Spans index `text` by byte
/// (`Mark::index`), so `text` must be the text the spans were made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Display name (`part 2 (base.yaml)`, `manifest.toml`).
    pub name: String,
    /// 1-based part number, when the source is a user-data part.
    pub part: Option<usize>,
    /// The part's filename or the file's path.
    pub filename: Option<String>,
    /// The text.
    pub text: String,
    /// Where the text is in the input file (for annotations on the file's lines).
    pub placement: Placement,
}

impl SourceFile {
    /// A source named `name`, not a part.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            part: None,
            filename: None,
            text: text.into(),
            placement: Placement::Unknown,
        }
    }

    /// User-data part `number` (1-based) named `filename`: shown as `part 2 (base.yaml)`.
    pub fn part(number: usize, filename: impl Into<String>, text: impl Into<String>) -> Self {
        let filename = filename.into();
        SourceFile {
            name: format!("part {number} ({filename})"),
            part: Some(number),
            filename: Some(filename),
            text: text.into(),
            placement: Placement::Unknown,
        }
    }

    /// The same source, placed in the input file.
    pub fn placed(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }
}
