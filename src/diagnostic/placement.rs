//! `Placement`: where a source's text is in the file the user wrote, so annotations can point at the file's own lines.

/// Where a source text sits in the input file as written (the file an editor,
/// a pull request or a code-scanning view shows).
///
/// A diagnostic's span indexes its source's text (a part's decoded payload); a
/// CI annotation needs the file's line. A MIME part written as plain text in the
/// file is a slice of it, so its positions map exactly; a part cloud-init gets
/// only after decoding (gzip, base64, quoted-printable), an archive entry or an
/// `#include`d document has no line in the file, and the renderers say so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Placement {
    /// Not known (a source not read from the input file).
    #[default]
    Unknown,
    /// The source is the input file's own text.
    File,
    /// The source is the file's text from byte `offset` on, byte for byte.
    Slice {
        /// Byte offset in the file's text.
        offset: usize,
    },
    /// The source has the file's lines from `first_line` (0-based) on, but not
    /// its bytes (an 8-bit MIME body with non-ASCII text, which Python re-decodes):
    /// lines map exactly, columns are counted in the source.
    Lines {
        /// 0-based line of the file where the source's first line is.
        first_line: u32,
    },
    /// Not in the file as written; why (`part 2 is base64-encoded in the file`).
    NotInFile(String),
}
