//! `mime_diagnostics`: the defects Python's `email` parser records, located in the document.

use super::MimeKind;
use super::spans::rest_of_line;
use crate::diagnostic::{Diagnostic, Label};
use crate::mime::{self, Message, TransferEncoding};
use crate::source::{LineIndex, SourceId};

/// Parse the document `lines` indexes as cloud-init does (when it is MIME)
/// and report every defect, at its line, with the 0-based walk index of the
/// MIME part it was found in (the index of [`crate::userdata::Origin::Mime`]).
pub(super) fn mime_diagnostics(
    lines: &LineIndex<'_>,
    doc: SourceId,
) -> (Option<Message>, Vec<(usize, Diagnostic)>) {
    let mut out = Vec::new();
    let Ok(msg) = mime::parse(lines.text()) else {
        return (None, out);
    };
    for (index, part) in msg.walk().enumerate() {
        for d in part.defects() {
            let kind = MimeKind(d.kind);
            out.push((
                index,
                Diagnostic::new(&kind)
                    .with_primary(Label::new(rest_of_line(doc, lines, d.at.index)))
                    .with_note(format!(
                        "Python's email package records {}",
                        d.kind.python_name()
                    )),
            ));
        }
        if part.is_multipart() || part.transfer_encoding() != TransferEncoding::Base64 {
            continue;
        }
        if let Some((_, defects)) = part.decode_payload() {
            for k in defects {
                let kind = MimeKind(k);
                out.push((
                    index,
                    Diagnostic::new(&kind)
                        .with_primary(Label::new(rest_of_line(
                            doc,
                            lines,
                            part.body_start().index,
                        )))
                        .with_note(format!(
                            "Python's email package records {}",
                            k.python_name()
                        )),
                ));
            }
        }
    }
    (Some(msg), out)
}
