//! `LineHunk`: a run of changed lines between two texts (a part's payload, a rendered YAML view).

use super::alignment::{Budget, Run, align_directed};

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
    // Sized by a count of the line ends first: grown by doubling, a long
    // text's table was copied (and its fresh pages touched) about twice over.
    let ends = text.bytes().filter(|&b| b == b'\n').count();
    let mut lines = Vec::with_capacity(ends + 1);
    lines.extend(text.split_inclusive('\n'));
    lines
}

/// Each line numbered so that equal lines get equal numbers, and its hash
/// (the alignment direction's tie-break). Each line is hashed once, and the
/// table of distinct lines holds two `u32`s per line (where its first
/// occurrence is, its number), not the text: a std map hashed every line a
/// second time and held 24 bytes per line of fresh memory.
fn number(old: &[&str], new: &[&str]) -> (Vec<u32>, Vec<u32>, Vec<u64>, Vec<u64>) {
    use std::hash::BuildHasher;
    let fixed = foldhash::fast::FixedState::with_seed(7);
    let a_fp: Vec<u64> = old.iter().map(|l| fixed.hash_one(l)).collect();
    let b_fp: Vec<u64> = new.iter().map(|l| fixed.hash_one(l)).collect();
    // A line by its place in `old` then `new`, with its hash.
    let line = |g: u32| -> (&str, u64) {
        let g = g as usize;
        match g.checked_sub(old.len()) {
            None => (
                old.get(g).copied().unwrap_or_default(),
                a_fp.get(g).copied().unwrap_or_default(),
            ),
            Some(j) => (
                new.get(j).copied().unwrap_or_default(),
                b_fp.get(j).copied().unwrap_or_default(),
            ),
        }
    };
    // Sized once for every line distinct (doubling rehashes took a 1M-line
    // diff's numbering out of the cache).
    let mut ids: hashbrown::HashTable<(u32, u32)> =
        hashbrown::HashTable::with_capacity(old.len().max(new.len()));
    // A line's number and where the first line with its text is.
    let mut id = |g: u32, text: &str, hash: u64| -> (u32, u32) {
        let next = ids.len() as u32;
        let &(first, n) = ids
            .entry(
                hash,
                |&(f, _)| {
                    let (t, h) = line(f);
                    h == hash && t == text
                },
                |&(f, _)| line(f).1,
            )
            .or_insert((g, next))
            .get();
        (n, first)
    };
    let mut g: u32 = 0;
    let mut a = Vec::with_capacity(old.len());
    for (l, &h) in old.iter().zip(&a_fp) {
        a.push(id(g, l, h).0);
        g = g.wrapping_add(1);
    }
    // A new line equal to the old line after the one the previous new line
    // matched has that line's number, found without a probe: two versions
    // of one text mostly run in step, and at millions of lines each probe
    // of the table is a cache miss.
    let mut in_step: Option<usize> = None;
    let mut b = Vec::with_capacity(new.len());
    for (l, &h) in new.iter().zip(&b_fp) {
        let same = in_step
            .filter(|&i| a_fp.get(i) == Some(&h) && old.get(i) == Some(l))
            .and_then(|i| Some((i, *a.get(i)?)));
        let n = match same {
            Some((i, n)) => {
                in_step = Some(i + 1);
                n
            }
            None => {
                let (n, first) = id(g, l, h);
                let first = first as usize;
                in_step = (first < old.len()).then_some(first + 1);
                n
            }
        };
        b.push(n);
        g = g.wrapping_add(1);
    }
    (a, b, a_fp, b_fp)
}

/// The line-level edit script of two texts (each line with its end).
pub(crate) fn line_runs(old: &[&str], new: &[&str], budget: &mut Budget) -> Vec<Run> {
    let (a, b, a_fp, b_fp) = number(old, new);
    // The hashes only decide the direction (as `align_symmetric` would):
    // freed before the search, whose tables are as long as the texts.
    let forward = (a.len(), &a_fp) <= (b.len(), &b_fp);
    drop((a_fp, b_fp));
    align_directed(&a, &b, forward, budget)
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

    /// Lines numbered by first appearance over `old` then `new`, as a map
    /// from text to number gives them.
    fn numbered_plainly<'a>(old: &[&'a str], new: &[&'a str]) -> (Vec<u32>, Vec<u32>) {
        let mut ids: std::collections::HashMap<&'a str, u32> = std::collections::HashMap::new();
        let mut n = |l: &&'a str| {
            let next = ids.len() as u32;
            *ids.entry(*l).or_insert(next)
        };
        let a = old.iter().map(&mut n).collect();
        let b = new.iter().map(&mut n).collect();
        (a, b)
    }

    proptest::proptest! {
        #[test]
        fn numbers_are_first_appearances(
            old in proptest::collection::vec("[abc]{0,2}", 0..40),
            edits in proptest::collection::vec((0usize..40, 0u8..3, "[abcd]{0,2}"), 0..6),
        ) {
            // `new` is `old` edited in a few places, so most of it runs in step.
            let mut new = old.clone();
            for (at, op, text) in edits {
                let at = at.min(new.len());
                match (op, new.get_mut(at)) {
                    (0, _) | (_, None) => new.insert(at, text),
                    (1, Some(_)) => { new.remove(at); }
                    (_, Some(line)) => *line = text,
                }
            }
            let old: Vec<&str> = old.iter().map(String::as_str).collect();
            let new: Vec<&str> = new.iter().map(String::as_str).collect();
            let (a, b, _, _) = number(&old, &new);
            proptest::prop_assert_eq!((a, b), numbered_plainly(&old, &new));
        }
    }
}
