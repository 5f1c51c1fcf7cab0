//! `Defect`: the irregularities Python's parser records instead of failing.

use crate::source::Mark;

/// The kind of a defect, named after the Python `email.errors` class it mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefectKind {
    /// A line that is neither a header nor blank ended the headers; it starts the body.
    MissingHeaderBodySeparator,
    /// The first header line was a continuation line (it is ignored).
    FirstHeaderLineIsContinuation,
    /// A `From ` line inside the headers (ignored).
    MisplacedEnvelopeHeader,
    /// A header line starting with `:` (ignored).
    InvalidHeader,
    /// A `multipart/*` without a `boundary` parameter: the body stays text.
    NoBoundaryInMultipart,
    /// A multipart with a Content-Transfer-Encoding other than 7bit/8bit/binary.
    InvalidMultipartContentTransferEncoding,
    /// The multipart's first boundary line never appears: the body stays text.
    StartBoundaryNotFound,
    /// The closing `--boundary--` line never appears: the last part runs to the end.
    CloseBoundaryNotFound,
    /// The top-level message says multipart but has no parts.
    MultipartInvariantViolation,
    /// Base64 body whose length needed padding (decoding only).
    InvalidBase64Padding,
    /// Base64 body with characters outside the alphabet (decoding only).
    InvalidBase64Characters,
    /// Base64 body that cannot be decoded at all; the raw bytes are returned (decoding only).
    InvalidBase64Length,
}

impl DefectKind {
    /// The Python class name (`email.errors.<name>`).
    pub fn python_name(self) -> &'static str {
        match self {
            DefectKind::MissingHeaderBodySeparator => "MissingHeaderBodySeparatorDefect",
            DefectKind::FirstHeaderLineIsContinuation => "FirstHeaderLineIsContinuationDefect",
            DefectKind::MisplacedEnvelopeHeader => "MisplacedEnvelopeHeaderDefect",
            DefectKind::InvalidHeader => "InvalidHeaderDefect",
            DefectKind::NoBoundaryInMultipart => "NoBoundaryInMultipartDefect",
            DefectKind::InvalidMultipartContentTransferEncoding => {
                "InvalidMultipartContentTransferEncodingDefect"
            }
            DefectKind::StartBoundaryNotFound => "StartBoundaryNotFoundDefect",
            DefectKind::CloseBoundaryNotFound => "CloseBoundaryNotFoundDefect",
            DefectKind::MultipartInvariantViolation => "MultipartInvariantViolationDefect",
            DefectKind::InvalidBase64Padding => "InvalidBase64PaddingDefect",
            DefectKind::InvalidBase64Characters => "InvalidBase64CharactersDefect",
            DefectKind::InvalidBase64Length => "InvalidBase64LengthDefect",
        }
    }

    /// A short English description for diagnostics.
    pub fn describe(self) -> &'static str {
        match self {
            DefectKind::MissingHeaderBodySeparator => {
                "a line that is not a header ends the headers (no blank line before the body)"
            }
            DefectKind::FirstHeaderLineIsContinuation => {
                "the first header line starts with whitespace and is ignored"
            }
            DefectKind::MisplacedEnvelopeHeader => "a `From ` line among the headers is ignored",
            DefectKind::InvalidHeader => "a header line with an empty name is ignored",
            DefectKind::NoBoundaryInMultipart => {
                "multipart without a boundary parameter: the body is not split into parts"
            }
            DefectKind::InvalidMultipartContentTransferEncoding => {
                "multipart with a transfer encoding other than 7bit, 8bit or binary"
            }
            DefectKind::StartBoundaryNotFound => {
                "the boundary never appears: the body is not split into parts"
            }
            DefectKind::CloseBoundaryNotFound => {
                "no closing boundary: the last part runs to the end of its container"
            }
            DefectKind::MultipartInvariantViolation => "multipart message without any part",
            DefectKind::InvalidBase64Padding => "base64 body with missing padding",
            DefectKind::InvalidBase64Characters => "base64 body with non-alphabet characters",
            DefectKind::InvalidBase64Length => "base64 body of impossible length: kept undecoded",
        }
    }
}

impl std::fmt::Display for DefectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

/// One recorded defect and where it was seen (the start of the offending line, or
/// of the part, in the parsed text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Defect {
    /// What went wrong.
    pub kind: DefectKind,
    /// Where (byte offset, 0-based line; column 0).
    pub at: Mark,
}
