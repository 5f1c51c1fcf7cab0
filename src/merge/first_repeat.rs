//! `first_repeat` and `first_equal`: list items whose identities repeat, found by a radix sort of the identities' hashes rather than a growing hash table.
//!
//! A hash table over a million keys lives out of the cache: each insert and
//! lookup is a few random memory accesses, which made a keyed merge of one
//! huge list grow faster than its input. Sorting the keys' hashes by radix
//! reads and writes memory in order, and is linear.

use crate::yaml::value::{Key, Node};

/// Lists up to this long are compared pair by pair.
const SMALL: usize = 32;
/// Bits of the hash sorted per radix pass (three passes cover 32 bits).
const DIGIT: u32 = 11;

/// The identities of a list's items as 32 bits of their hash beside the
/// item's index, pushed while the items are walked: the identities
/// themselves are only borrowed (a list of their clones was a write to every
/// node to make it and one more to drop it, and a third pass to hash it).
#[derive(Debug)]
pub struct Hashed {
    state: foldhash::fast::RandomState,
    pairs: Vec<(u32, u32)>,
}

impl Hashed {
    /// Room for `n` identities, hashed with a fresh seed.
    pub fn with_capacity(n: usize) -> Hashed {
        // foldhash, not SipHash: the hash of a million keys was a twentieth
        // of a keyed merge.
        Hashed::with_state(foldhash::fast::RandomState::default(), n)
    }

    /// Room for `n` identities, hashed with `state` (the same state as
    /// another table's, for [`Hashed::extend_from`]).
    pub fn with_state(state: foldhash::fast::RandomState, n: usize) -> Hashed {
        Hashed {
            state,
            pairs: Vec::with_capacity(n),
        }
    }

    /// The state this table hashes with.
    pub fn state(&self) -> &foldhash::fast::RandomState {
        &self.state
    }

    /// Adds `id`, the identity of the item at `index` (indices ascending;
    /// equal identities are those equal as dict keys).
    pub fn push(&mut self, id: &Node, index: u32) {
        self.pairs
            .push((Key::hash_node(id, &self.state) as u32, index));
    }

    /// Adds `other`'s identities (hashed with this table's state), their
    /// indices moved up by `offset`.
    pub fn extend_from(&mut self, other: &Hashed, offset: u32) {
        self.pairs.extend(
            other
                .pairs
                .iter()
                .map(|&(h, i)| (h, i.saturating_add(offset))),
        );
    }

    /// How many identities it holds.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// `(a, b)` with `b` the smallest index whose identity equals an earlier
/// one's and `a` the first index with that identity; `None` when all
/// differ. `same(a, b)`: whether the identities at `a` and `b` are equal
/// (asked only of indices `hashed` holds, mostly of equal hashes).
/// Leaves `hashed` sorted by hash (the merge of two such tables is then one
/// pass, not a sort).
pub fn first_repeat(
    hashed: &mut Hashed,
    mut same: impl FnMut(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    let pairs = &mut hashed.pairs;
    if pairs.len() <= SMALL {
        return pairs.iter().enumerate().find_map(|(j, &(h, b))| {
            pairs
                .iter()
                .take(j)
                .find(|&&(g, a)| g == h && same(a as usize, b as usize))
                .map(|&(_, a)| (a as usize, b as usize))
        });
    }
    // The repeats as they are found, the earliest kept: a vector of every
    // key's first index was a fresh list-sized block only to be scanned.
    let mut best: Option<(usize, usize)> = None;
    repeats(pairs, same, true, |a, b| {
        if best.is_none_or(|(_, first_b)| b < first_b) {
            best = Some((a, b));
        }
    });
    best
}

/// For each index below `len`, the first index whose identity may equal
/// its own, as [`FirstEqual::of`]; `same` as for [`first_repeat`], but not
/// asked of the pairs [`FirstEqual::of`] leaves to the caller.
pub fn first_equal(hashed: Hashed, len: u32, same: impl FnMut(usize, usize) -> bool) -> FirstEqual {
    let mut first = FirstEqual((0..len).collect());
    let mut pairs = hashed.pairs;
    repeats(&mut pairs, same, false, |a, b| first.set(b, a));
    first
}

/// Each index's first equal index, from [`first_equal`].
#[derive(Debug)]
pub struct FirstEqual(Vec<u32>);

impl FirstEqual {
    /// The first index whose identity equals index `b`'s (`b` itself when
    /// none earlier does, or when `b` is out of range) — or one that only
    /// shares 32 bits of its hash: the caller asks `same(a, b)` of an `a`
    /// below `b`, and when they differ no earlier identity equals `b`'s.
    /// (The caller reads both items then anyway: compared here, in index
    /// order, they were a pass more over both lists.)
    pub fn of(&self, b: usize) -> usize {
        self.0.get(b).map_or(b, |&a| a as usize)
    }

    fn set(&mut self, b: usize, a: usize) {
        if let (Some(slot), Ok(a)) = (self.0.get_mut(b), u32::try_from(a)) {
            *slot = a;
        }
    }
}

/// Calls `found(a, b)` for every index `b` whose identity equals an earlier
/// one's, with `a` the first index with that identity, in no particular
/// order. Without `check_twos`, also for the `b` that only share their hash
/// with one other index `a` and are not compared with it. Leaves `pairs`
/// sorted by hash, indices ascending within one hash.
fn repeats(
    pairs: &mut Vec<(u32, u32)>,
    mut same: impl FnMut(usize, usize) -> bool,
    check_twos: bool,
    mut found: impl FnMut(usize, usize),
) {
    // 32 bits of hash beside each index: equal identities share them, and
    // the few unequal ones that also do are told apart by comparing.
    let mut scratch: Vec<(u32, u32)> = Vec::new();
    sort_pairs(pairs, &mut scratch);
    // Runs of one hash, indices ascending; within a run, each identity is
    // compared with the first of each distinct one before it (more than one
    // only where unequal ones share 32 bits of hash).
    // Runs of two (an identity and its one repeat, by far the most) are set aside
    // and compared in index order instead: in hash order each comparison
    // read two nodes at random places, and a million of them grew faster
    // than the list.
    let mut twos: Vec<(u32, u32)> = Vec::new();
    let mut firsts: Vec<usize> = Vec::new();
    let mut start = 0;
    while start < pairs.len() {
        let h = pairs.get(start).map_or(0, |p| p.0);
        let end = pairs
            .get(start..)
            .and_then(|rest| rest.iter().position(|p| p.0 != h))
            .map_or(pairs.len(), |n| start + n);
        if end - start == 2 {
            let a = pairs.get(start).map_or(0, |p| p.1);
            let b = pairs.get(start + 1).map_or(0, |p| p.1);
            if check_twos {
                twos.push((b, a));
            } else {
                found(a as usize, b as usize);
            }
            start = end;
            continue;
        }
        firsts.clear();
        for &(_, b) in pairs.get(start..end).unwrap_or_default() {
            let b = b as usize;
            match firsts.iter().find(|&&a| same(a, b)) {
                Some(&a) => found(a, b),
                None => firsts.push(b),
            }
        }
        start = end;
    }
    radix_sort(&mut twos, &mut scratch);
    for &(b, a) in &twos {
        let (a, b) = (a as usize, b as usize);
        if same(a, b) {
            found(a, b);
        }
    }
}

/// Sorts `pairs` by hash, indices ascending within one hash: nothing to do
/// when they are already (a table [`first_repeat`] sorted), one merge when
/// they are two such runs (two of them, one after the other), else a radix
/// sort (the indices are pushed ascending).
fn sort_pairs(pairs: &mut Vec<(u32, u32)>, scratch: &mut Vec<(u32, u32)>) {
    let descent = |from: usize| {
        pairs.get(from..).and_then(|rest| {
            rest.windows(2)
                .position(|w| matches!(w, [x, y] if x > y))
                .map(|i| from + i + 1)
        })
    };
    let Some(mid) = descent(0) else {
        return;
    };
    if descent(mid).is_some() {
        radix_sort(pairs, scratch);
        return;
    }
    let (a, b) = pairs.split_at(mid);
    let mut merged = Vec::with_capacity(pairs.len());
    let (mut a, mut b) = (a.iter().peekable(), b.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x <= y => a.next(),
            (Some(_), Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, _) => b.next(),
        };
        match next {
            Some(&p) => merged.push(p),
            None => break,
        }
    }
    *pairs = merged;
}

/// Stable radix sort by the first field (a hash, or an index). `other` is
/// scratch space, reused between sorts.
///
/// A long list is first split by the field's top bits into [`TOP`] buckets,
/// then each bucket is sorted by the rest while it is in the cache: passes
/// over the whole list by 11-bit digits wrote each pair to one of 2048
/// places far apart, and past the cache (and the TLB) that cost a miss a
/// pair and grew faster than the list.
fn radix_sort(pairs: &mut Vec<(u32, u32)>, other: &mut Vec<(u32, u32)>) {
    other.clear();
    other.resize(pairs.len(), (0, 0));
    let mut counts = Vec::new();
    if pairs.len() <= IN_CACHE {
        if lsd(pairs, other, 32, DIGIT, &mut counts) {
            std::mem::swap(pairs, other);
        }
        return;
    }
    let mut starts = vec![0usize; TOP];
    for p in pairs.iter() {
        if let Some(c) = starts.get_mut((p.0 >> TOP_SHIFT) as usize) {
            *c += 1;
        }
    }
    let mut sum = 0;
    for c in starts.iter_mut() {
        let n = *c;
        *c = sum;
        sum += n;
    }
    let bounds: Vec<usize> = starts.clone();
    for p in pairs.iter() {
        if let Some(c) = starts.get_mut((p.0 >> TOP_SHIFT) as usize) {
            if let Some(slot) = other.get_mut(*c) {
                *slot = *p;
            }
            *c += 1;
        }
    }
    // `starts` now holds each bucket's end.
    for (&from, &to) in bounds.iter().zip(&starts) {
        let (Some(a), Some(b)) = (other.get_mut(from..to), pairs.get_mut(from..to)) else {
            continue;
        };
        if !lsd(a, b, TOP_SHIFT, 8, &mut counts) {
            b.copy_from_slice(a);
        }
    }
}

/// Buckets of the first pass of a long sort (by the top 8 bits).
const TOP: usize = 256;
/// Where a long sort's first pass digit starts.
const TOP_SHIFT: u32 = 24;
/// Lists up to this many pairs (256 KiB) are sorted in one go.
const IN_CACHE: usize = 1 << 15;

/// Stable LSD radix sort of `a` by the low `bits` bits of the first field,
/// `digit` bits a pass, with `b` (as long) as scratch; whether the sorted
/// pairs ended in `b`. `counts` is scratch space too.
fn lsd(
    a: &mut [(u32, u32)],
    b: &mut [(u32, u32)],
    bits: u32,
    digit: u32,
    counts: &mut Vec<usize>,
) -> bool {
    let buckets = 1usize << digit;
    let mask = (buckets - 1) as u32;
    let passes = bits.div_ceil(digit) as usize;
    // Every digit's counts in one read of the pairs (a read per digit was a
    // third of the sort's passes over memory).
    counts.clear();
    counts.resize(buckets * passes, 0);
    for p in a.iter() {
        let mut v = p.0;
        for digit_counts in counts.chunks_mut(buckets) {
            if let Some(c) = digit_counts.get_mut((v & mask) as usize) {
                *c += 1;
            }
            v >>= digit;
        }
    }
    let mut in_b = false;
    for (d, digit_counts) in counts.chunks_mut(buckets).enumerate() {
        // A digit all pairs share (the high bits of an index) leaves the
        // order as it is.
        if digit_counts.contains(&a.len()) {
            continue;
        }
        let shift = d as u32 * digit;
        let mut sum = 0;
        for c in digit_counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        let (src, dst) = if in_b { (&*b, &mut *a) } else { (&*a, &mut *b) };
        for p in src {
            if let Some(c) = digit_counts.get_mut(((p.0 >> shift) & mask) as usize) {
                if let Some(slot) = dst.get_mut(*c) {
                    *slot = *p;
                }
                *c += 1;
            }
        }
        in_b = !in_b;
    }
    in_b
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing)]
    use super::*;
    use crate::yaml::value::Value;

    fn nodes(xs: &[i64]) -> Vec<Node> {
        xs.iter()
            .map(|&x| Node::synthetic(Value::Int(crate::yaml::value::Int::Small(x))))
            .collect()
    }

    fn hashed(ns: &[Node]) -> Hashed {
        let mut h = Hashed::with_capacity(ns.len());
        for (i, n) in ns.iter().enumerate() {
            h.push(n, i as u32);
        }
        h
    }

    fn same(ns: &[Node]) -> impl FnMut(usize, usize) -> bool + '_ {
        |a, b| Key::eq_nodes(&ns[a], &ns[b])
    }

    /// The repeat a hash table filled in order would meet first.
    fn by_table(ns: &[Node]) -> Option<(usize, usize)> {
        let mut seen: indexmap::IndexMap<Key, usize> = indexmap::IndexMap::new();
        for (b, n) in ns.iter().enumerate() {
            if let Some(&a) = seen.get(&Key(n.clone())) {
                return Some((a, b));
            }
            seen.insert(Key(n.clone()), b);
        }
        None
    }

    #[test]
    fn radix_sort_is_a_stable_sort_short_and_long() {
        for n in [0usize, 1, 7, IN_CACHE, IN_CACHE + 1, 200_000] {
            // Multiplicative hashing spreads the values; `% 5000` repeats them.
            let mut pairs: Vec<(u32, u32)> = (0..n as u32)
                .map(|i| ((i % 5000).wrapping_mul(2_654_435_761), i))
                .collect();
            let mut expected = pairs.clone();
            expected.sort_by_key(|p| p.0);
            radix_sort(&mut pairs, &mut Vec::new());
            assert_eq!(pairs, expected, "n={n}");
        }
    }

    #[test]
    fn first_equal_groups_equal_keys() {
        let mut xs: Vec<i64> = (0..5000).collect();
        xs[4000] = 17;
        xs[4500] = 17;
        xs[100] = 3;
        let ns = nodes(&xs);
        let f = first_equal(hashed(&ns), 5000, same(&ns));
        let of = |b| f.of(b);
        assert_eq!(
            (of(4000), of(4500), of(17), of(100), of(3), of(7)),
            (17, 17, 17, 3, 3, 7)
        );
    }

    #[test]
    fn indices_without_an_identity_are_their_own_first() {
        let ns = nodes(&[5, 6, 5, 6, 5]);
        // Items 1 and 3 have no identity here.
        let mut h = Hashed::with_capacity(3);
        for i in [0, 2, 4] {
            h.push(&ns[i], i as u32);
        }
        let f = first_equal(h, 5, same(&ns));
        assert_eq!((0..5).map(|b| f.of(b)).collect::<Vec<_>>(), [0, 1, 0, 3, 0]);
    }

    #[test]
    fn agrees_with_a_hash_table_small_and_large() {
        for n in [0usize, 1, 5, 32, 33, 1000, 50_000] {
            let mut xs: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 1_000_003).collect();
            let ns = nodes(&xs);
            assert_eq!(first_repeat(&mut hashed(&ns), same(&ns)), None, "n={n}");
            if n >= 5 {
                // two repeats; the one whose second comes first wins
                xs[n - 1] = xs[1];
                xs[n / 2] = xs[3];
                let ns = nodes(&xs);
                assert_eq!(
                    first_repeat(&mut hashed(&ns), same(&ns)),
                    by_table(&ns),
                    "n={n}"
                );
                if n / 2 > 3 {
                    assert_eq!(
                        first_repeat(&mut hashed(&ns), same(&ns)),
                        Some((3, n / 2)),
                        "n={n}"
                    );
                }
            }
        }
        // many equal keys: the second of them
        let ns = nodes(&[9; 100]);
        assert_eq!(first_repeat(&mut hashed(&ns), same(&ns)), Some((0, 1)));
    }
}
