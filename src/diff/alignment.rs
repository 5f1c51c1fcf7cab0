//! `Alignment`: which items of two sequences match — Myers' diff in linear space, within a work budget.
//!
//! E. W. Myers, "An O(ND) difference algorithm and its variations" (1986),
//! section 4b: the middle snake found by searching from both ends at once,
//! then each half solved the same way. Memory is two vectors of `n + m`
//! entries whatever the distance; time is O((n + m) · D). The halves are
//! kept on an explicit stack (no recursion), and every diagonal step is
//! charged to a [`Budget`]: past it, what is left is aligned as "all removed,
//! all inserted" (still a correct script, only not the shortest). Long lists
//! of few values far apart go by a bit-parallel LCS table instead
//! (`bit_lcs`), where the middle-snake search would visit ~D² diagonals.

use super::bit_lcs::bit_runs;

/// One run of an edit script, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// `len` items alike: old `old..old + len` and new `new..new + len`.
    Same {
        /// First old index.
        old: usize,
        /// First new index.
        new: usize,
        /// How many.
        len: usize,
    },
    /// Old items `old..old + len` are not in new.
    Removed {
        /// First old index.
        old: usize,
        /// How many.
        len: usize,
    },
    /// New items `new..new + len` are not in old.
    Inserted {
        /// First new index.
        new: usize,
        /// How many.
        len: usize,
    },
}

impl Run {
    /// The same run seen from the other side: old and new swapped.
    #[must_use]
    pub fn mirrored(self) -> Self {
        match self {
            Self::Same { old, new, len } => Self::Same {
                old: new,
                new: old,
                len,
            },
            Self::Removed { old, len } => Self::Inserted { new: old, len },
            Self::Inserted { new, len } => Self::Removed { old: new, len },
        }
    }
}

/// Steps of alignment work left, shared by every alignment of one diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    left: u64,
    /// Whether some alignment ran out (and fell back).
    pub exhausted: bool,
}

impl Budget {
    /// A budget of `steps` diagonal steps.
    pub fn new(steps: u64) -> Budget {
        Budget {
            left: steps,
            exhausted: false,
        }
    }

    /// Spend `n` steps; false (and exhausted from now on) when there were not enough.
    pub(super) fn spend(&mut self, n: u64) -> bool {
        if self.exhausted || n > self.left {
            self.exhausted = true;
            self.left = 0;
            return false;
        }
        self.left -= n;
        true
    }
}

/// The edit script turning `a` into `b` (items compared by `==`): runs in
/// order, adjacent runs of one kind merged. The shortest such script unless
/// `budget` runs out on the way (then `budget.exhausted` is set).
///
/// ```
/// use cloudfold::diff::{Budget, Run, align};
/// let runs = align(&[1, 2, 3], &[1, 9, 2, 3], &mut Budget::new(1000));
/// assert_eq!(runs, [
///     Run::Same { old: 0, new: 0, len: 1 },
///     Run::Inserted { new: 1, len: 1 },
///     Run::Same { old: 1, new: 2, len: 2 },
/// ]);
/// ```
pub fn align<T: PartialEq>(a: &[T], b: &[T], budget: &mut Budget) -> Vec<Run> {
    let mut out = Vec::new();
    // Diagonals run from -(n + m) to n + m at most; two spare on each side.
    let d_max = (a.len() + b.len()) / 2 + 2;
    let offset = d_max + 1;
    let mut vf = vec![0isize; 2 * d_max + 3];
    let mut vb = vec![0isize; 2 * d_max + 3];
    let mut stack = vec![Task::Region {
        a0: 0,
        a1: a.len(),
        b0: 0,
        b1: b.len(),
    }];
    while let Some(task) = stack.pop() {
        let (mut a0, mut a1, mut b0, mut b1) = match task {
            Task::Emit(r) => {
                push(&mut out, r);
                continue;
            }
            Task::Region { a0, a1, b0, b1 } => (a0, a1, b0, b1),
        };
        let p = prefix(a, a0, a1, b, b0, b1);
        push(
            &mut out,
            Run::Same {
                old: a0,
                new: b0,
                len: p,
            },
        );
        a0 += p;
        b0 += p;
        let s = suffix(a, a0, a1, b, b0, b1);
        a1 -= s;
        b1 -= s;
        stack.push(Task::Emit(Run::Same {
            old: a1,
            new: b1,
            len: s,
        }));
        let all_removed_inserted = [
            Task::Emit(Run::Inserted {
                new: b0,
                len: b1 - b0,
            }),
            Task::Emit(Run::Removed {
                old: a0,
                len: a1 - a0,
            }),
        ];
        if a0 == a1 || b0 == b1 {
            stack.extend(all_removed_inserted);
            continue;
        }
        let region = Region { a0, a1, b0, b1 };
        match middle_snake(a, b, region, &mut vf, &mut vb, offset, budget) {
            Some((x, y)) if (x, y) != (a0, b0) && (x, y) != (a1, b1) => {
                stack.push(Task::Region {
                    a0: x,
                    a1,
                    b0: y,
                    b1,
                });
                stack.push(Task::Region {
                    a0,
                    a1: x,
                    b0,
                    b1: y,
                });
            }
            // Out of budget (or, defensively, no split inside the region).
            _ => stack.extend(all_removed_inserted),
        }
    }
    out
}

/// [`align`] of class numbers (equal items numbered alike, numbers dense
/// from 0), in the direction fixed by the inputs rather than by which is
/// old: the shorter sequence (or, at equal length, the one whose keys sort
/// first) is aligned against the other and the script turned round if need
/// be, so that aligning `b` to `a` gives exactly the mirror image of aligning
/// `a` to `b` (Myers' choice between equally short scripts depends on the
/// direction).
///
/// Items whose class the other side lacks cannot be matched, so they are
/// set aside before the search (GNU diff's "discard" step): a block of
/// removed `runcmd` lines costs the search nothing, and the script found is
/// still a shortest one.
///
/// ```
/// use cloudfold::diff::{Budget, Run, align_symmetric};
/// let (a, b) = ([0, 1, 2, 3], [0, 3, 4]);
/// let runs = align_symmetric(&a, &b, &a, &b, &mut Budget::new(1000));
/// assert_eq!(runs, [
///     Run::Same { old: 0, new: 0, len: 1 },
///     Run::Removed { old: 1, len: 2 },
///     Run::Same { old: 3, new: 1, len: 1 },
///     Run::Inserted { new: 2, len: 1 },
/// ]);
/// ```
pub fn align_symmetric<F: Ord>(
    a: &[u32],
    b: &[u32],
    a_key: &[F],
    b_key: &[F],
    budget: &mut Budget,
) -> Vec<Run> {
    align_directed(a, b, (a.len(), a_key) <= (b.len(), b_key), budget)
}

/// [`align_symmetric`] with its direction decided (`forward`: `a` against
/// `b`), so that the keys that decided it can be freed before the search.
pub(crate) fn align_directed(a: &[u32], b: &[u32], forward: bool, budget: &mut Budget) -> Vec<Run> {
    let runs = if forward {
        align_shared(a, b, budget)
    } else {
        align_shared(b, a, budget)
            .into_iter()
            .map(Run::mirrored)
            .collect()
    };
    removed_first(&runs, a.len(), b.len())
}

/// The script with each gap between matched runs written as its removal,
/// then its insertion, whichever direction found it: `diff A B` then lists
/// a removed part before the added one in its place, as `diff B A` does.
fn removed_first(runs: &[Run], a_len: usize, b_len: usize) -> Vec<Run> {
    let mut out = Vec::with_capacity(runs.len());
    let (mut i, mut j) = (0usize, 0usize);
    for r in runs {
        if let Run::Same { old, new, len } = *r {
            push(
                &mut out,
                Run::Removed {
                    old: i,
                    len: old.saturating_sub(i),
                },
            );
            push(
                &mut out,
                Run::Inserted {
                    new: j,
                    len: new.saturating_sub(j),
                },
            );
            push(&mut out, *r);
            (i, j) = (old + len, new + len);
        }
    }
    push(
        &mut out,
        Run::Removed {
            old: i,
            len: a_len.saturating_sub(i),
        },
    );
    push(
        &mut out,
        Run::Inserted {
            new: j,
            len: b_len.saturating_sub(j),
        },
    );
    out
}

/// [`align`] of the items whose class both sides have, mapped back.
fn align_shared(a: &[u32], b: &[u32], budget: &mut Budget) -> Vec<Run> {
    let classes = a
        .iter()
        .chain(b)
        .map(|&c| c as usize + 1)
        .max()
        .unwrap_or(0);
    // Numbers that are not dense would make the table below as large as the
    // largest: align them as they are (a shortest script all the same).
    if classes > a.len() + b.len() {
        return align(a, b, budget);
    }
    // Bit 1: in a; bit 2: in b.
    let mut seen = vec![0u8; classes];
    for (side, items) in [(1u8, a), (2u8, b)] {
        for &c in items {
            if let Some(s) = seen.get_mut(c as usize) {
                *s |= side;
            }
        }
    }
    let shared = |c: &u32| seen.get(*c as usize) == Some(&3);
    let (na, nb) = (
        a.iter().filter(|c| shared(c)).count(),
        b.iter().filter(|c| shared(c)).count(),
    );
    if na == a.len() && nb == b.len() {
        return align_classes(a, b, classes, budget);
    }
    // Each table sized once (counted above): collected from a filter, they
    // grew by doubling, copying and touching about twice their size.
    let kept = |items: &[u32], n: usize| -> (Vec<usize>, Vec<u32>) {
        let (mut at, mut cs) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (i, c) in items.iter().enumerate().filter(|(_, c)| shared(c)) {
            at.push(i);
            cs.push(*c);
        }
        (at, cs)
    };
    let (ia, sa) = kept(a, na);
    let (ib, sb) = kept(b, nb);
    // The matched pairs, in the original indexes, then the script around them.
    let mut out = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    let gap = |out: &mut Vec<Run>, i: &mut usize, j: &mut usize, to_i: usize, to_j: usize| {
        push(
            out,
            Run::Removed {
                old: *i,
                len: to_i - *i,
            },
        );
        push(
            out,
            Run::Inserted {
                new: *j,
                len: to_j - *j,
            },
        );
        (*i, *j) = (to_i, to_j);
    };
    for r in align_classes(&sa, &sb, classes, budget) {
        if let Run::Same { old, new, len } = r {
            for d in 0..len {
                let (Some(&x), Some(&y)) = (ia.get(old + d), ib.get(new + d)) else {
                    continue;
                };
                gap(&mut out, &mut i, &mut j, x, y);
                push(
                    &mut out,
                    Run::Same {
                        old: x,
                        new: y,
                        len: 1,
                    },
                );
                (i, j) = (x + 1, y + 1);
            }
        }
    }
    gap(&mut out, &mut i, &mut j, a.len(), b.len());
    out
}

/// [`align`] of dense class numbers, or the bit-parallel table's shortest
/// script where Myers' search would be quadratic (long lists of few values
/// far apart: [`bit_runs`]).
fn align_classes(a: &[u32], b: &[u32], classes: usize, budget: &mut Budget) -> Vec<Run> {
    bit_runs(a, b, classes, budget).unwrap_or_else(|| align(a, b, budget))
}

enum Task {
    Region {
        a0: usize,
        a1: usize,
        b0: usize,
        b1: usize,
    },
    Emit(Run),
}

#[derive(Clone, Copy)]
struct Region {
    a0: usize,
    a1: usize,
    b0: usize,
    b1: usize,
}

fn push(out: &mut Vec<Run>, r: Run) {
    let merged = match (out.last_mut(), r) {
        (
            _,
            Run::Same { len: 0, .. } | Run::Removed { len: 0, .. } | Run::Inserted { len: 0, .. },
        ) => {
            return;
        }
        (Some(Run::Same { len, .. }), Run::Same { len: n, .. })
        | (Some(Run::Removed { len, .. }), Run::Removed { len: n, .. })
        | (Some(Run::Inserted { len, .. }), Run::Inserted { len: n, .. }) => {
            *len += n;
            true
        }
        _ => false,
    };
    if !merged {
        out.push(r);
    }
}

fn prefix<T: PartialEq>(a: &[T], a0: usize, a1: usize, b: &[T], b0: usize, b1: usize) -> usize {
    match (a.get(a0..a1), b.get(b0..b1)) {
        (Some(x), Some(y)) => x.iter().zip(y).take_while(|(p, q)| p == q).count(),
        _ => 0,
    }
}

fn suffix<T: PartialEq>(a: &[T], a0: usize, a1: usize, b: &[T], b0: usize, b1: usize) -> usize {
    match (a.get(a0..a1), b.get(b0..b1)) {
        (Some(x), Some(y)) => x
            .iter()
            .rev()
            .zip(y.iter().rev())
            .take_while(|(p, q)| p == q)
            .count(),
        _ => 0,
    }
}

/// How many items are alike from `a[x]` and `b[y]` on.
fn forward_run<T: PartialEq>(a: &[T], b: &[T], x: usize, y: usize) -> usize {
    match (a.get(x..), b.get(y..)) {
        (Some(p), Some(q)) => p.iter().zip(q).take_while(|(u, v)| u == v).count(),
        _ => 0,
    }
}

/// How many items are alike from `a[x - 1]` and `b[y - 1]` back.
fn backward_run<T: PartialEq>(a: &[T], b: &[T], x: usize, y: usize) -> usize {
    match (a.get(..x), b.get(..y)) {
        (Some(p), Some(q)) => p
            .iter()
            .rev()
            .zip(q.iter().rev())
            .take_while(|(u, v)| u == v)
            .count(),
        _ => 0,
    }
}

/// A vector indexed by diagonal (`k` from `-d_max - 1` to `d_max + 1`).
fn at(v: &[isize], offset: usize, k: isize) -> isize {
    v.get((offset as isize + k) as usize).copied().unwrap_or(0)
}

fn set(v: &mut [isize], offset: usize, k: isize, x: isize) {
    if let Some(slot) = v.get_mut((offset as isize + k) as usize) {
        *slot = x;
    }
}

/// The start of the middle snake of `r` (absolute indexes), or `None` when
/// the budget ran out first.
fn middle_snake<T: PartialEq>(
    a: &[T],
    b: &[T],
    r: Region,
    vf: &mut [isize],
    vb: &mut [isize],
    offset: usize,
    budget: &mut Budget,
) -> Option<(usize, usize)> {
    let n = (r.a1 - r.a0) as isize;
    let m = (r.b1 - r.b0) as isize;
    let delta = n - m;
    let odd = delta & 1 == 1;
    let (Some(ra), Some(rb)) = (a.get(r.a0..r.a1), b.get(r.b0..r.b1)) else {
        return None;
    };
    set(vf, offset, 1, 0);
    set(vb, offset, 1, 0);
    let d_max = (n + m + 1) / 2 + 1;
    for d in 0..d_max {
        // Each diagonal of this step, both directions.
        if !budget.spend(2 * (d as u64 + 1)) {
            return None;
        }
        let mut k = d;
        while k >= -d {
            let mut x = if k == -d || (k != d && at(vf, offset, k - 1) < at(vf, offset, k + 1)) {
                at(vf, offset, k + 1)
            } else {
                at(vf, offset, k - 1) + 1
            };
            let (x0, y0) = (x, x - k);
            if x >= 0 && y0 >= 0 && x < n && y0 < m {
                x += forward_run(ra, rb, x as usize, y0 as usize) as isize;
            }
            if !budget.spend((x - x0) as u64) {
                return None;
            }
            set(vf, offset, k, x);
            if odd && (k - delta).abs() < d && x + at(vb, offset, delta - k) >= n {
                return inside(r, x0, y0);
            }
            k -= 2;
        }
        let mut k = d;
        while k >= -d {
            let mut x = if k == -d || (k != d && at(vb, offset, k - 1) < at(vb, offset, k + 1)) {
                at(vb, offset, k + 1)
            } else {
                at(vb, offset, k - 1) + 1
            };
            let mut y = x - k;
            let x0 = x;
            if x >= 0 && y >= 0 && x < n && y < m {
                let run = backward_run(ra, rb, (n - x) as usize, (m - y) as usize) as isize;
                x += run;
                y += run;
            }
            if !budget.spend((x - x0) as u64) {
                return None;
            }
            set(vb, offset, k, x);
            if !odd && (k - delta).abs() <= d && x + at(vf, offset, delta - k) >= n {
                return inside(r, n - x, m - y);
            }
            k -= 2;
        }
    }
    None
}

/// A split point relative to `r` as absolute indexes, if it lies in `r`.
fn inside(r: Region, x: isize, y: isize) -> Option<(usize, usize)> {
    let x = usize::try_from(x).ok()?;
    let y = usize::try_from(y).ok()?;
    (x <= r.a1 - r.a0 && y <= r.b1 - r.b0).then_some((r.a0 + x, r.b0 + y))
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// The script's removals and insertions, applied to `a`, give `b`; its
    /// same runs hold equal items; the runs cover both sides in order.
    fn check(a: &[u8], b: &[u8], runs: &[Run]) -> usize {
        let (mut i, mut j, mut edits) = (0, 0, 0);
        for r in runs {
            match *r {
                Run::Same { old, new, len } => {
                    assert_eq!((old, new), (i, j));
                    assert_eq!(a[old..old + len], b[new..new + len]);
                    i += len;
                    j += len;
                }
                Run::Removed { old, len } => {
                    assert_eq!(old, i);
                    i += len;
                    edits += len;
                }
                Run::Inserted { new, len } => {
                    assert_eq!(new, j);
                    j += len;
                    edits += len;
                }
            }
        }
        assert_eq!((i, j), (a.len(), b.len()));
        edits
    }

    /// The shortest edit distance, by the quadratic table.
    fn distance(a: &[u8], b: &[u8]) -> usize {
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, x) in a.iter().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j]
                } else {
                    1 + prev[j + 1].min(cur[j])
                };
            }
            prev = cur;
        }
        prev[b.len()]
    }

    #[test]
    fn shortest_scripts_on_random_pairs() {
        let mut seed = 0x1234_5678_u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as usize
        };
        for _ in 0..3000 {
            let alphabet = 1 + next(5) as u64;
            let a: Vec<u8> = (0..next(14)).map(|_| next(alphabet) as u8).collect();
            let b: Vec<u8> = (0..next(14)).map(|_| next(alphabet) as u8).collect();
            let runs = align(&a, &b, &mut Budget::new(u64::MAX));
            assert_eq!(check(&a, &b, &runs), distance(&a, &b), "{a:?} {b:?}");
            // With unmatched items set aside, in either direction: as short, and mirrored.
            let (ca, cb): (Vec<u32>, Vec<u32>) = (
                a.iter().map(|&x| u32::from(x)).collect(),
                b.iter().map(|&x| u32::from(x) + 2).collect(),
            );
            let (ka, kb): (Vec<u8>, Vec<u8>) = (
                ca.iter().map(|&x| x as u8).collect(),
                cb.iter().map(|&x| x as u8).collect(),
            );
            let ab = align_symmetric(&ca, &cb, &ca, &cb, &mut Budget::new(u64::MAX));
            assert_eq!(check(&ka, &kb, &ab), distance(&ka, &kb), "{ka:?} {kb:?}");
            // Each gap written as its removal, then its insertion.
            assert!(
                !ab.windows(2)
                    .any(|w| matches!(w, [Run::Inserted { .. }, Run::Removed { .. }])),
                "{ab:?}"
            );
            let ba = align_symmetric(&cb, &ca, &cb, &ca, &mut Budget::new(u64::MAX));
            let mirrored: Vec<Run> = ba.iter().copied().map(Run::mirrored).collect();
            let pairs = |rs: &[Run]| -> Vec<(usize, usize)> {
                rs.iter()
                    .flat_map(|r| match *r {
                        Run::Same { old, new, len } => {
                            (0..len).map(|d| (old + d, new + d)).collect()
                        }
                        _ => Vec::new(),
                    })
                    .collect()
            };
            assert_eq!(pairs(&ab), pairs(&mirrored), "{ka:?} {kb:?}");
        }
    }

    /// Out of budget: still a correct script, and the budget says so.
    #[test]
    fn exhausted_budget_still_gives_a_script() {
        let a: Vec<u8> = (0..200).map(|i| (i % 7) as u8).collect();
        let b: Vec<u8> = (0..180).map(|i| (i % 5) as u8).collect();
        let mut budget = Budget::new(50);
        let runs = align(&a, &b, &mut budget);
        check(&a, &b, &runs);
        assert!(budget.exhausted);
    }

    /// One insertion into a long list is one run, found in linear work.
    #[test]
    fn one_insertion_in_a_long_list() {
        let a: Vec<u32> = (0..100_000).collect();
        let mut b = a.clone();
        b.insert(50_000, 7);
        let mut budget = Budget::new(1_000);
        let runs = align(&a, &b, &mut budget);
        assert!(!budget.exhausted);
        assert_eq!(runs.len(), 3);
        assert_eq!(
            runs[1],
            Run::Inserted {
                new: 50_000,
                len: 1
            }
        );
    }
}
