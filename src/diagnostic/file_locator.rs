//! `FileLocator`: a span in any source turned into lines and columns of the input file (for CI annotations).

use super::{Placement, SourceFile, SourceMap};
use crate::source::{LineIndex, Mark, SourceId, Span};

/// A region of the input file: 1-based lines and columns (columns count
/// characters), the end column exclusive (as SARIF's `endColumn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileRegion {
    /// First line.
    pub start_line: u32,
    /// First column.
    pub start_column: u32,
    /// Last line.
    pub end_line: u32,
    /// The column after the last character.
    pub end_column: u32,
}

/// Why a span has no region in the input file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unplaced<'a> {
    /// The span points at no source text (a value built in code, the payload as a whole).
    NoSource,
    /// The source is not in the file as written; the reason.
    NotInFile(&'a str),
}

/// Maps spans of a report's sources onto the input file (see [`Placement`]).
///
/// The file's lines are indexed once, so locating every diagnostic of a large
/// payload stays linear.
#[derive(Debug)]
pub struct FileLocator<'a> {
    sources: &'a SourceMap,
    file: Option<LineIndex<'a>>,
}

impl<'a> FileLocator<'a> {
    /// A locator over `sources`; the file's text is the source placed as [`Placement::File`].
    pub fn new(sources: &'a SourceMap) -> Self {
        let file = sources
            .iter()
            .find(|(_, f)| f.placement == Placement::File)
            .map(|(_, f)| LineIndex::new(f.text.as_str()));
        FileLocator { sources, file }
    }

    /// The source a span points into, if it is registered.
    pub fn source(&self, id: SourceId) -> Option<&'a SourceFile> {
        (id != SourceId::UNKNOWN)
            .then(|| self.sources.get(id))
            .flatten()
    }

    /// Where `span` is in the input file.
    ///
    /// ```
    /// use cloudfold::diagnostic::*;
    /// use cloudfold::source::{Mark, SourceId, Span};
    /// let doc = "Content-Type: text/cloud-config\n\n#cloud-config\nruncmd: x\n";
    /// let mut sources = SourceMap::new();
    /// sources.insert(SourceId(9), SourceFile::new("user-data", doc).placed(Placement::File));
    /// let part = SourceFile::part(1, "a", "#cloud-config\nruncmd: x\n")
    ///     .placed(Placement::Slice { offset: 33 });
    /// sources.insert(SourceId(0), part);
    /// // `x` on the part's line 2 (0-based 1) is on the file's line 4.
    /// let span = Span::new(SourceId(0), Mark::new(22, 1, 8), Mark::new(23, 1, 9));
    /// let region = FileLocator::new(&sources).region(&span).unwrap();
    /// assert_eq!((region.start_line, region.start_column, region.end_column), (4, 9, 10));
    /// ```
    pub fn region(&self, span: &Span) -> Result<FileRegion, Unplaced<'a>> {
        let file = self.source(span.source).ok_or(Unplaced::NoSource)?;
        let (start, end) = match &file.placement {
            Placement::File => {
                let lines = self.file.as_ref().ok_or(Unplaced::NoSource)?;
                (lines.mark(span.start.index), lines.mark(span.end.index))
            }
            Placement::Slice { offset } => {
                let lines = self.file.as_ref().ok_or(Unplaced::NoSource)?;
                (
                    lines.mark(offset.saturating_add(span.start.index)),
                    lines.mark(offset.saturating_add(span.end.index)),
                )
            }
            Placement::Lines { first_line } => {
                let shift =
                    |m: Mark| Mark::new(m.index, first_line.saturating_add(m.line), m.column);
                (shift(span.start), shift(span.end))
            }
            Placement::NotInFile(why) => return Err(Unplaced::NotInFile(why.as_str())),
            Placement::Unknown => return Err(Unplaced::NoSource),
        };
        let end = if (end.line, end.column) < (start.line, start.column) {
            start
        } else {
            end
        };
        Ok(FileRegion {
            start_line: start.line.saturating_add(1),
            start_column: start.column.saturating_add(1),
            end_line: end.line.saturating_add(1),
            end_column: end.column.saturating_add(1),
        })
    }
}
