//! `AbortKind`: problems that make cloud-init abort all user-data processing (nothing is merged).

use crate::diagnostic::{DiagnosticKind, Severity};
use crate::userdata::ProcessError;
use std::fmt;

/// cloud-init stops processing user-data altogether: no part is merged, no
/// `cloud-config.txt` is written, no script runs (errors all).
///
/// Codes by cause:
/// * `userdata-gzip-invalid`: a part declared `application/gzip` (or x-gzip) that is not
///   gzip, or does not decompress to UTF-8 — e.g. a MIME part
///   `Content-Type: application/x-gzip` with body `hello`.
/// * `userdata-not-utf8`: the payload mentions `MIME-Version:` but is not UTF-8
///   (a stray Latin-1 byte).
/// * `userdata-archive-crash`: a `#cloud-config-archive` entry that makes cloud-init
///   crash, e.g. `- {type: cloud-config, content: "a: 1"}` (a type without `/`).
/// * `userdata-launch-index-overflow`: `launch-index: .inf`.
/// * `userdata-mime-raises`: Python's `email` raises on the document (malformed RFC 2231
///   parameters).
/// * `userdata-limit`: a cloudfold safety limit (decompression bomb, include depth).
#[derive(Clone, Debug, PartialEq)]
pub struct AbortKind(pub ProcessError);

impl fmt::Display for AbortKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cloud-init aborts all user-data processing: {}", self.0)
    }
}

/// The code of a fold stopped at one of cloudfold's own limits ([`ProcessError::is_limit`]).
pub(super) const LIMIT_CODE: &str = "userdata-limit";

impl DiagnosticKind for AbortKind {
    fn code(&self) -> &'static str {
        match &self.0 {
            ProcessError::GzipPart { .. } => "userdata-gzip-invalid",
            ProcessError::MimeNotUtf8(_) => "userdata-not-utf8",
            ProcessError::ArchiveEntry { .. } => "userdata-archive-crash",
            ProcessError::LaunchIndexOverflow { .. } => "userdata-launch-index-overflow",
            ProcessError::Mime(_) => "userdata-mime-raises",
            ProcessError::Include { .. } => "include-not-fetched",
            ProcessError::Limit(_) | ProcessError::IncludeDepth(_) => LIMIT_CODE,
        }
    }

    fn severity(&self) -> Severity {
        Severity::Error
    }

    fn help(&self) -> Option<String> {
        match &self.0 {
            ProcessError::GzipPart { .. } => Some(
                "gzip the part's content (and base64 it in MIME), or declare its real type".into(),
            ),
            ProcessError::MimeNotUtf8(_) => {
                Some("a MIME payload must be UTF-8: base64-encode binary or Latin-1 parts".into())
            }
            _ => None,
        }
    }
}
