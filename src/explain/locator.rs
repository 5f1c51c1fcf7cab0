//! `Locator`: a value's span as a part and a line:column of that part's decoded text.

use super::explanation::{Origin, Position, jsonp_shift, part_text};
use super::history::part_of;
use crate::source::{Mark, Span};
use crate::userdata::Folded;

/// Turns spans of a fold's values into [`Origin`]s (part number, 1-based
/// line and column), the way `explain` reports them: a JSON patch part's
/// positions are shifted past its `#cloud-config-jsonp` marker.
///
/// ```
/// use cloudfold::explain::Locator;
/// use cloudfold::userdata::{render, NoIncludes, UserDataOptions};
/// let folded = render(b"#cloud-config\nruncmd: [echo hi]\n", &UserDataOptions::default(), &NoIncludes).unwrap();
/// let item = folded.config.as_ref().unwrap().as_map().unwrap().get_str("runcmd").unwrap().as_seq().unwrap().items()[0].clone();
/// let o = Locator::new(&folded).origin(item.span()).unwrap();
/// assert_eq!((o.part, o.start.line, o.start.column), (1, 2, 10));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Locator {
    /// Per part (0-based): the JSON patch shift, if it is a patch part.
    shifts: Vec<Option<(u32, u32)>>,
}

impl Locator {
    /// The locator for `folded`'s parts.
    pub fn new(folded: &Folded) -> Locator {
        Locator {
            shifts: folded
                .parts
                .iter()
                .map(|p| {
                    (p.content_type() == "text/cloud-config-jsonp")
                        .then(|| jsonp_shift(&part_text(&p.leaf.payload())))
                })
                .collect(),
        }
    }

    fn position(&self, part: usize, m: Mark) -> Position {
        let (mut line, mut column) = (m.line, m.column);
        if let Some(Some((dl, dc))) = part.checked_sub(1).and_then(|i| self.shifts.get(i)) {
            if line == 0 {
                column = column.saturating_add(*dc);
            }
            line = line.saturating_add(*dl);
        }
        Position {
            line: line.saturating_add(1),
            column: column.saturating_add(1),
        }
    }

    /// Where a value with this span was read (`None`: built by cloudfold or
    /// cloud-init, not read from a part).
    pub fn origin(&self, span: Span) -> Option<Origin> {
        let part = part_of(span.source)?;
        if part > self.shifts.len() {
            return None;
        }
        Some(Origin {
            part,
            start: self.position(part, span.start),
            end: self.position(part, span.end),
        })
    }

    /// Whether part `part` (1-based) is a JSON patch part.
    pub fn is_patch_part(&self, part: usize) -> bool {
        matches!(
            part.checked_sub(1).and_then(|i| self.shifts.get(i)),
            Some(Some(_))
        )
    }
}
