//! `yaml_diff`: a unified diff (`diff -u`) of two texts — the readable YAML views of the merged configs, for review comments.

use super::alignment::{Budget, Run};
use super::line_hunk::{line_runs, split_lines};
use std::fmt::Write;

/// Lines of context around each change, as `diff -u`.
const CONTEXT: usize = 3;

/// `old` against `new` as a unified diff headed `--- names.0` / `+++
/// names.1` (empty when they are the same), 3 lines of context.
///
/// ```
/// use cloudfold::diff::{Budget, yaml_diff};
/// let d = yaml_diff("a\nb\nc\n", "a\nB\nc\n", ("old", "new"), &mut Budget::new(1000));
/// assert_eq!(d, "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
/// ```
pub fn yaml_diff(old: &str, new: &str, names: (&str, &str), budget: &mut Budget) -> String {
    let (a, b) = (split_lines(old), split_lines(new));
    let runs = line_runs(&a, &b, budget);
    // Each line of the script: (old line, new line) as (Some, Some) for
    // context, (Some, None) removed, (None, Some) added.
    // Within a change, removed lines come before added ones, as `diff -u` writes them.
    let mut ops: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    let mut added: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    for r in runs {
        match r {
            Run::Same { old, new, len } => {
                ops.append(&mut added);
                ops.extend((0..len).map(|d| (Some(old + d), Some(new + d))));
            }
            Run::Removed { old, len } => ops.extend((old..old + len).map(|i| (Some(i), None))),
            Run::Inserted { new, len } => added.extend((new..new + len).map(|j| (None, Some(j)))),
        }
    }
    ops.append(&mut added);
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, (x, y))| x.is_none() || y.is_none())
        .map(|(i, _)| i)
        .collect();
    if changed.is_empty() {
        return String::new();
    }
    let mut out = format!("--- {}\n+++ {}\n", names.0, names.1);
    // Group changed lines whose contexts touch into hunks.
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &i in &changed {
        let lo = i.saturating_sub(CONTEXT);
        let hi = (i + CONTEXT + 1).min(ops.len());
        match groups.last_mut() {
            Some(g) if lo <= g.1 => g.1 = hi,
            _ => groups.push((lo, hi)),
        }
    }
    // Lines of each side before the hunk, counted once as the hunks go.
    let (mut pos, mut old_before, mut new_before) = (0usize, 0usize, 0usize);
    for (lo, hi) in groups {
        for (x, y) in ops.get(pos..lo).unwrap_or_default() {
            old_before += usize::from(x.is_some());
            new_before += usize::from(y.is_some());
        }
        pos = lo;
        let span = ops.get(lo..hi).unwrap_or_default();
        let old_n = span.iter().filter(|(x, _)| x.is_some()).count();
        let new_n = span.iter().filter(|(_, y)| y.is_some()).count();
        // Where the hunk starts on each side: its first line there, or the
        // line before when it has none (`diff -u`).
        let old_start = old_before + usize::from(old_n > 0);
        let new_start = new_before + usize::from(new_n > 0);
        let range = |start: usize, n: usize| {
            if n == 1 {
                format!("{start}")
            } else {
                format!("{start},{n}")
            }
        };
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(old_start, old_n),
            range(new_start, new_n)
        );
        for (x, y) in span {
            let (mark, line) = match (x, y) {
                (Some(i), Some(_)) => (' ', a.get(*i)),
                (Some(i), None) => ('-', a.get(*i)),
                (None, Some(j)) => ('+', b.get(*j)),
                (None, None) => continue,
            };
            let line = line.copied().unwrap_or_default();
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}
