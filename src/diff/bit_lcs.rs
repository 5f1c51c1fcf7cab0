//! `bit_lcs`: a longest common subsequence of two class-number lists, 64 items to a machine word — for long lists of few distinct values, where Myers' search costs ~D².
//!
//! L. Allison and T. I. Dix, "A bit-string longest-common-subsequence
//! algorithm" (1986), in H. Hyyrö's form ("Bit-parallel LCS-length
//! computation revisited", 2004): one bit vector over the old list per item
//! of the new one, `V' = (V + (V & M)) | (V & !M)` with `M` the old items
//! equal to the new item; bit `i` of the vector after new item `j` is 0
//! exactly when the table of LCS lengths grows from `L[i][j+1]` to
//! `L[i+1][j+1]`. All the vectors are kept, and the script read back from
//! the end: a match when the two items are equal, else a removal when the
//! bit says the length did not grow, else an insertion. Time and memory are
//! `m · ⌈n / 64⌉` words whatever the distance, so this is used only where
//! that table is small and the distance is known to be large
//! ([`bit_runs`]); every other list keeps Myers' script.

use super::alignment::{Budget, Run};

/// Words of table (the vectors kept, and the match masks) past which the
/// lists are left to Myers: 8 MB.
const MAX_WORDS: usize = 1 << 20;

/// Distances below this are left to Myers whatever the table costs: short
/// scripts (all the goldens') keep the alignment Myers picks.
const MIN_DISTANCE: usize = 256;

/// The shortest script turning `a` into `b` (class numbers below `classes`),
/// by the bit-parallel table, when that is clearly cheaper than Myers' search:
/// the distance is at least the classes' count differences
/// (`Σ |#a(c) - #b(c)|`), and Myers visits ~D² diagonals against the
/// table's `m · ⌈n / 64⌉` words. `None` leaves the lists to Myers (also when
/// `budget` cannot pay for the table: Myers then falls back as it does).
pub(super) fn bit_runs(
    a: &[u32],
    b: &[u32],
    classes: usize,
    budget: &mut Budget,
) -> Option<Vec<Run>> {
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (a.get(p..)?, b.get(p..)?);
    let s = ra
        .iter()
        .rev()
        .zip(rb.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (ra.get(..ra.len() - s)?, rb.get(..rb.len() - s)?);
    let (n, m) = (ma.len(), mb.len());
    let words = n.div_ceil(64);
    let table = m
        .checked_mul(words)?
        .checked_add(classes.checked_mul(words)?)?;
    if n == 0 || m == 0 || table > MAX_WORDS {
        return None;
    }
    let mut count = vec![0isize; classes];
    for &c in ma {
        *count.get_mut(c as usize)? += 1;
    }
    for &c in mb {
        *count.get_mut(c as usize)? -= 1;
    }
    let bound: usize = count.iter().map(|c| c.unsigned_abs()).sum();
    if bound < MIN_DISTANCE || bound.saturating_mul(bound) < table.saturating_mul(16) {
        return None;
    }
    if !budget.spend(table as u64) {
        return None;
    }
    let middle = script(ma, mb, classes, words)?;
    let mut out = Vec::with_capacity(middle.len() + 2);
    push(
        &mut out,
        Run::Same {
            old: 0,
            new: 0,
            len: p,
        },
    );
    for r in middle {
        push(
            &mut out,
            match r {
                Run::Same { old, new, len } => Run::Same {
                    old: old + p,
                    new: new + p,
                    len,
                },
                Run::Removed { old, len } => Run::Removed { old: old + p, len },
                Run::Inserted { new, len } => Run::Inserted { new: new + p, len },
            },
        );
    }
    push(
        &mut out,
        Run::Same {
            old: p + n,
            new: p + m,
            len: s,
        },
    );
    Some(out)
}

/// The table's script for `a` against `b` (both non-empty).
fn script(a: &[u32], b: &[u32], classes: usize, words: usize) -> Option<Vec<Run>> {
    let (n, m) = (a.len(), b.len());
    let mut masks = vec![0u64; classes * words];
    for (i, &c) in a.iter().enumerate() {
        *masks.get_mut(c as usize * words + i / 64)? |= 1 << (i % 64);
    }
    // rows[j]: the vector after b[j].
    let mut rows = vec![0u64; m * words];
    let mut v = vec![u64::MAX; words];
    for (j, &c) in b.iter().enumerate() {
        let mask = masks.get(c as usize * words..(c as usize + 1) * words)?;
        let mut carry = false;
        for (w, &mk) in v.iter_mut().zip(mask) {
            let u = *w & mk;
            let (sum, c1) = w.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *w = sum | (*w & !mk);
        }
        rows.get_mut(j * words..(j + 1) * words)?
            .copy_from_slice(&v);
    }
    // Back from the end, one item at a time.
    let mut back: Vec<Run> = Vec::with_capacity(n + m);
    let (mut i, mut j) = (n, m);
    while i > 0 && j > 0 {
        if a.get(i - 1) == b.get(j - 1) {
            back.push(Run::Same {
                old: i - 1,
                new: j - 1,
                len: 1,
            });
            i -= 1;
            j -= 1;
        } else if rows.get((j - 1) * words + (i - 1) / 64)? >> ((i - 1) % 64) & 1 == 1 {
            back.push(Run::Removed { old: i - 1, len: 1 });
            i -= 1;
        } else {
            back.push(Run::Inserted { new: j - 1, len: 1 });
            j -= 1;
        }
    }
    let mut out = Vec::new();
    push(&mut out, Run::Removed { old: 0, len: i });
    push(&mut out, Run::Inserted { new: 0, len: j });
    for r in back.into_iter().rev() {
        push(&mut out, r);
    }
    Some(out)
}

/// Append `r`, merged into the last run when it continues it.
fn push(out: &mut Vec<Run>, r: Run) {
    match (out.last_mut(), r) {
        (
            _,
            Run::Same { len: 0, .. } | Run::Removed { len: 0, .. } | Run::Inserted { len: 0, .. },
        ) => {}
        (
            Some(Run::Same { old, new, len }),
            Run::Same {
                old: o,
                new: n,
                len: l,
            },
        ) if *old + *len == o && *new + *len == n => {
            *len += l;
        }
        (Some(Run::Removed { old, len }), Run::Removed { old: o, len: l }) if *old + *len == o => {
            *len += l;
        }
        (Some(Run::Inserted { new, len }), Run::Inserted { new: n, len: l })
            if *new + *len == n =>
        {
            *len += l;
        }
        _ => out.push(r),
    }
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// LCS length by the quadratic table.
    fn lcs(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        for x in a {
            let mut cur = vec![0usize; b.len() + 1];
            for (j, y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    prev[j + 1].max(cur[j])
                };
            }
            prev = cur;
        }
        prev[b.len()]
    }

    /// The script is a correct one (same runs equal, removals and insertions
    /// cover the rest in order); returns how many items it matches.
    fn matched(a: &[u32], b: &[u32], runs: &[Run]) -> usize {
        let (mut i, mut j, mut same) = (0, 0, 0);
        for r in runs {
            match *r {
                Run::Same { old, new, len } => {
                    assert_eq!((old, new), (i, j));
                    assert_eq!(a[old..old + len], b[new..new + len]);
                    (i, j, same) = (i + len, j + len, same + len);
                }
                Run::Removed { old, len } => {
                    assert_eq!(old, i);
                    i += len;
                }
                Run::Inserted { new, len } => {
                    assert_eq!(new, j);
                    j += len;
                }
            }
        }
        assert_eq!((i, j), (a.len(), b.len()));
        same
    }

    /// The table's script is a longest common subsequence, across word
    /// boundaries (lists of up to 300 items, few classes).
    #[test]
    fn scripts_are_longest() {
        let mut seed = 0x9e37_79b9_u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as usize
        };
        for _ in 0..400 {
            let classes = 1 + next(6);
            let a: Vec<u32> = (0..1 + next(300))
                .map(|_| next(classes as u64) as u32)
                .collect();
            let b: Vec<u32> = (0..1 + next(300))
                .map(|_| next(classes as u64) as u32)
                .collect();
            let runs = script(&a, &b, classes, a.len().div_ceil(64)).unwrap();
            assert_eq!(matched(&a, &b, &runs), lcs(&a, &b), "{a:?} {b:?}");
        }
    }

    /// Used only for a large distance: short scripts stay Myers'; a long list
    /// of few values against a short one goes by the table, and is shortest.
    #[test]
    fn only_where_myers_is_quadratic() {
        let a: Vec<u32> = (0..2400).map(|i| (i * 7 % 15) as u32).collect();
        let b: Vec<u32> = (0..400).map(|i| (i * 11 % 15) as u32).collect();
        let mut budget = Budget::new(u64::MAX);
        let runs = bit_runs(&a, &b, 15, &mut budget).unwrap();
        assert_eq!(matched(&a, &b, &runs), lcs(&a, &b));
        let mut near = a.clone();
        near.insert(100, 3);
        assert!(bit_runs(&a, &near, 15, &mut budget).is_none());
        // Out of budget: left to Myers (which then falls back).
        let mut poor = Budget::new(10);
        assert!(bit_runs(&a, &b, 15, &mut poor).is_none());
        assert!(poor.exhausted);
    }
}
