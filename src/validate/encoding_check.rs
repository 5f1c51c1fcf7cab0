//! `encoding_diagnostics`: base64 of base64, gzip inside gzip, base64 text in a part that does not declare it.

use super::spans::first_line;
use super::{EncodingKind, PartSource};
use crate::diagnostic::{Diagnostic, Label};
use crate::source::{LineIndex, SourceId};
use crate::userdata::{Origin, PartReport, gunzip, type_from_starts_with};
use base64::Engine;

const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];

/// Base64 text (alphabet, `=` padding, line breaks), at least 8 characters:
/// its decoding, else `None`.
fn decode_base64(data: &[u8]) -> Option<Vec<u8>> {
    // Checked before anything is copied: a YAML or MIME payload fails at its
    // first byte, and a compact copy of a large one was fresh memory to fault in.
    let mut len = 0usize;
    for &b in data {
        if b.is_ascii_whitespace() {
            continue;
        }
        if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')) {
            return None;
        }
        len += 1;
    }
    if len < 8 {
        return None;
    }
    let mut compact = Vec::with_capacity(len);
    compact.extend(data.iter().copied().filter(|b| !b.is_ascii_whitespace()));
    base64::engine::general_purpose::STANDARD
        .decode(&compact)
        .ok()
}

/// What decoded bytes are, if they are something cloud-init would read.
fn describe(decoded: &[u8]) -> Option<&'static str> {
    if decoded.starts_with(GZIP_MAGIC) {
        return Some("gzip data");
    }
    let head = decoded.get(..4096).unwrap_or(decoded);
    if head
        .to_ascii_lowercase()
        .windows(13)
        .any(|w| w == b"mime-version:")
    {
        return Some("MIME");
    }
    type_from_starts_with(decoded).map(|_| "user-data")
}

/// Checks on the payload as given.
pub(super) fn payload_encoding(
    raw: &[u8],
    limit: u64,
    doc: SourceId,
    doc_lines: &LineIndex<'_>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let whole = || Label::new(first_line(doc, doc_lines));
    if let Some(once) = decode_base64(raw) {
        if decode_base64(&once).is_some_and(|twice| describe(&twice).is_some()) {
            out.push(Diagnostic::new(&EncodingKind::DoubleBase64).with_primary(whole()));
        } else if let Some(what) = describe(&once) {
            out.push(
                Diagnostic::new(&EncodingKind::Base64Payload { decoded: what })
                    .with_primary(whole()),
            );
        }
    }
    if raw.starts_with(GZIP_MAGIC)
        && let Ok(inner) = gunzip(raw, limit)
        && inner.starts_with(GZIP_MAGIC)
    {
        out.push(Diagnostic::new(&EncodingKind::DoubleGzip));
    }
    out
}

/// Checks on one dispatched part.
pub(super) fn part_encoding(report: &PartReport, ps: &PartSource) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let bytes = ps.text.as_bytes();
    if !matches!(report.leaf.origin, Origin::Whole)
        && report.leaf.maintype() == "text"
        && let Some(once) = decode_base64(bytes)
        && let Some(what) = describe(&once)
    {
        out.push(
            Diagnostic::new(&EncodingKind::UndeclaredBase64 {
                part: report.number,
                decoded: what,
            })
            .with_primary(Label::new(first_line(ps.source, &LineIndex::new(&ps.text)))),
        );
    }
    out
}
