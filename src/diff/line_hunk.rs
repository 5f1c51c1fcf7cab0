//! `LineHunk`: a run of changed lines between two texts (a part's payload, a rendered YAML view).

use super::alignment::{Budget, Run, align_symmetric};
use std::collections::HashMap;

/// Lines `old_start..` of the old text replaced by lines `new_start..` of
/// the new one (1-based; a side with no lines names the line before which
/// the other's go, as `diff -u` does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineHunk {
    /// First old line (1-based).
    pub old_start: usize,
    /// The old lines, without their line ends.
    pub old_lines: Vec<String>,
    /// First new line (1-based).
    pub new_start: usize,
    /// The new lines, without their line ends.
    pub new_lines: Vec<String>,
}

/// `text` split after each `\n` (a last line without one counts).
pub fn split_lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Each line numbered so that equal lines get equal numbers, and its hash
/// (the alignment direction's tie-break).
fn number<'t>(old: &[&'t str], new: &[&'t str]) -> (Vec<u32>, Vec<u32>, Vec<u64>, Vec<u64>) {
    use std::hash::BuildHasher;
    let fixed = foldhash::fast::FixedState::with_seed(7);
    // Sized once for every line distinct (SipHash and doubling rehashes took a
    // 1M-line diff's numbering out of the cache).
    let mut ids: HashMap<&'t str, u32, _> =
        HashMap::with_capacity_and_hasher(old.len().max(new.len()), fixed.clone());
    let mut id = |l: &'t str| {
        let next = ids.len() as u32;
        *ids.entry(l).or_insert(next)
    };
    let a: Vec<u32> = old.iter().map(|l| id(l)).collect();
    let b: Vec<u32> = new.iter().map(|l| id(l)).collect();
    let a_fp = old.iter().map(|l| fixed.hash_one(l)).collect();
    let b_fp = new.iter().map(|l| fixed.hash_one(l)).collect();
    (a, b, a_fp, b_fp)
}

/// The line-level edit script of two texts (each line with its end).
pub(crate) fn line_runs(old: &[&str], new: &[&str], budget: &mut Budget) -> Vec<Run> {
    let (a, b, a_fp, b_fp) = number(old, new);
    align_symmetric(&a, &b, &a_fp, &b_fp, budget)
}

fn strip_end(l: &str) -> String {
    l.strip_suffix('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .unwrap_or(l)
        .to_owned()
}

/// The changed lines of `old` against `new`, hunk by hunk.
pub fn line_hunks(old: &str, new: &str, budget: &mut Budget) -> Vec<LineHunk> {
    let (a, b) = (split_lines(old), split_lines(new));
    let runs = line_runs(&a, &b, budget);
    let mut out: Vec<LineHunk> = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let mut open: Option<LineHunk> = None;
    for r in runs {
        match r {
            Run::Same { len, .. } => {
                out.extend(open.take());
                i += len;
                j += len;
            }
            Run::Removed { old, len } => {
                let h = open.get_or_insert_with(|| LineHunk {
                    old_start: i + 1,
                    old_lines: Vec::new(),
                    new_start: j + 1,
                    new_lines: Vec::new(),
                });
                h.old_lines.extend(
                    a.get(old..old + len)
                        .unwrap_or_default()
                        .iter()
                        .map(|l| strip_end(l)),
                );
                i += len;
            }
            Run::Inserted { new, len } => {
                let h = open.get_or_insert_with(|| LineHunk {
                    old_start: i + 1,
                    old_lines: Vec::new(),
                    new_start: j + 1,
                    new_lines: Vec::new(),
                });
                h.new_lines.extend(
                    b.get(new..new + len)
                        .unwrap_or_default()
                        .iter()
                        .map(|l| strip_end(l)),
                );
                j += len;
            }
        }
    }
    out.extend(open);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_changed_line_is_one_hunk() {
        let h = line_hunks("a\nb\nc\n", "a\nB\nc\nd", &mut Budget::new(1000));
        assert_eq!(
            h,
            [
                LineHunk {
                    old_start: 2,
                    old_lines: vec!["b".into()],
                    new_start: 2,
                    new_lines: vec!["B".into()],
                },
                LineHunk {
                    old_start: 4,
                    old_lines: vec![],
                    new_start: 4,
                    new_lines: vec!["d".into()],
                },
            ]
        );
    }
}
