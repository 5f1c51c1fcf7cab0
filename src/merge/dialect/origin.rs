//! `Origin` and [`origins`]: which file and line every value of a merged document came from.

use crate::merge::{Path, PathSeg};
use crate::source::{Mark, SourceId};
use crate::yaml::value::{Node, Value};

/// Where one value of a merged document was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The value's logical path (`$.services.web.ports[1]`).
    pub path: String,
    /// The layer whose text holds it (`SourceId::UNKNOWN` for a value the
    /// dialect built, e.g. a de-duplicated list).
    pub source: SourceId,
    /// Where it starts in that text.
    pub start: Mark,
}

/// The walk visited more values than its budget (shared aliases can make a
/// small document expand enormously).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the merged document expands to more than {0} values (shared aliases); raise the limit")]
pub struct ExpansionExceeded(pub usize);

/// Every mapping value and sequence item under `root`, depth first in
/// document order, with its origin; at most `budget` of them.
pub fn origins(root: &Node, budget: usize) -> Result<Vec<Origin>, ExpansionExceeded> {
    let mut out = Vec::new();
    // Explicit stack: nesting depth is the input's, not ours to recurse on.
    let mut stack: Vec<(Path, Node)> = vec![(Path::root(), root.clone())];
    while let Some((path, node)) = stack.pop() {
        if out.len() >= budget {
            return Err(ExpansionExceeded(budget));
        }
        let span = node.span();
        out.push(Origin {
            path: path.to_string(),
            source: span.source,
            start: span.start,
        });
        let mut children: Vec<(Path, Node)> = Vec::new();
        match node.value() {
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    let mut p = path.clone();
                    p.push(PathSeg::Key(k.clone()));
                    children.push((p, v.clone()));
                }
            }
            Value::Seq(s) | Value::Tuple(s) => {
                for (i, v) in s.iter().enumerate() {
                    let mut p = path.clone();
                    p.push(PathSeg::Index(i));
                    children.push((p, v.clone()));
                }
            }
            _ => {}
        }
        stack.extend(children.into_iter().rev());
    }
    Ok(out)
}
