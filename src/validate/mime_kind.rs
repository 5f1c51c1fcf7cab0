//! `MimeKind`: MIME structure problems Python's `email` parser records (its defects) and goes on.

use crate::diagnostic::{DiagnosticKind, Severity};
use crate::mime::DefectKind;
use std::fmt;

/// A MIME structure problem, from the defects Python's parser records.
///
/// Each code groups the `email.errors` defect classes that mean the same to a user:
///
/// * `mime-not-split` (error): the multipart is never split, so every part in it is lost —
///   `NoBoundaryInMultipartDefect`, `StartBoundaryNotFoundDefect`. Triggered by
///   `Content-Type: multipart/mixed` without `boundary=`, or by a boundary that no
///   `--B` line uses.
/// * `mime-missing-close-boundary` (warning): no `--B--` line; the last part runs to the
///   end of its container (trailing text becomes part of it).
/// * `mime-header-defect` (warning): a malformed header line is ignored or ends the
///   headers early (`MissingHeaderBodySeparatorDefect`, `FirstHeaderLineIsContinuationDefect`,
///   `MisplacedEnvelopeHeaderDefect`, `InvalidHeaderDefect`), e.g. `Content-Type text/x`
///   (no colon) as a part's first line.
/// * `mime-multipart-encoding` (warning): a multipart with `Content-Transfer-Encoding: base64`.
/// * `mime-empty-multipart` (warning): a multipart with a boundary but no part.
/// * `mime-bad-base64` (warning): a base64 body with bad padding or characters
///   (decoded leniently).
/// * `mime-undecodable-base64` (error): a base64 body of impossible length, e.g. `abcde`:
///   Python hands the raw text to the handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimeKind(pub DefectKind);

impl fmt::Display for MimeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.describe())
    }
}

impl DiagnosticKind for MimeKind {
    fn code(&self) -> &'static str {
        match self.0 {
            DefectKind::NoBoundaryInMultipart | DefectKind::StartBoundaryNotFound => {
                "mime-not-split"
            }
            DefectKind::CloseBoundaryNotFound => "mime-missing-close-boundary",
            DefectKind::MissingHeaderBodySeparator
            | DefectKind::FirstHeaderLineIsContinuation
            | DefectKind::MisplacedEnvelopeHeader
            | DefectKind::InvalidHeader => "mime-header-defect",
            DefectKind::InvalidMultipartContentTransferEncoding => "mime-multipart-encoding",
            DefectKind::MultipartInvariantViolation => "mime-empty-multipart",
            DefectKind::InvalidBase64Padding | DefectKind::InvalidBase64Characters => {
                "mime-bad-base64"
            }
            DefectKind::InvalidBase64Length => "mime-undecodable-base64",
        }
    }

    fn severity(&self) -> Severity {
        match self.0 {
            DefectKind::NoBoundaryInMultipart
            | DefectKind::StartBoundaryNotFound
            | DefectKind::InvalidBase64Length => Severity::Error,
            _ => Severity::Warning,
        }
    }

    fn help(&self) -> Option<String> {
        Some(
            match self.0 {
                DefectKind::NoBoundaryInMultipart | DefectKind::StartBoundaryNotFound => {
                    "give the multipart a `boundary=` parameter and start each part with a `--BOUNDARY` line"
                }
                DefectKind::CloseBoundaryNotFound => "end the last part with a `--BOUNDARY--` line",
                DefectKind::MissingHeaderBodySeparator => {
                    "put a blank line between a part's headers and its body"
                }
                DefectKind::InvalidBase64Length
                | DefectKind::InvalidBase64Padding
                | DefectKind::InvalidBase64Characters => {
                    "re-encode the body (e.g. `base64 -w76 FILE`), or drop `Content-Transfer-Encoding: base64`"
                }
                _ => return None,
            }
            .to_owned(),
        )
    }
}
