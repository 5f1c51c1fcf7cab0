//! `PartRef`: the user-data part a diagnostic is about, as cloud-init numbers and names it.

use std::fmt;

/// A user-data part as cloud-init numbers and names it (`part 2 (part-002)`),
/// and where it is in the payload's MIME structure.
///
/// A diagnostic located in the part's own text names it through its label's
/// source; one located elsewhere (a `Merge-Type` header line in the document,
/// a MIME defect) or nowhere (processing aborted on the part) carries it here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartRef {
    /// 1-based number in cloud-init's order (the handlers' order; for a part
    /// processing stops on, the number it would have had).
    pub number: usize,
    /// Its filename: the one it was given, else cloud-init's `part-NNN`.
    pub name: String,
    /// 1-based position among the document's MIME parts, multipart containers
    /// included (`MIME part 3`), when it is one of them.
    pub mime: Option<usize>,
}

impl PartRef {
    /// Both places: `part 2 (part-002), MIME part 3`.
    pub fn describe(&self) -> String {
        match self.mime {
            Some(m) => format!("{self}, MIME part {m}"),
            None => self.to_string(),
        }
    }
}

impl fmt::Display for PartRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "part {} ({})", self.number, self.name)
    }
}
