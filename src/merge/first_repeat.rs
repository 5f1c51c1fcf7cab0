//! `first_repeat`: the first key of a sequence equal to an earlier one, found by a radix sort of hashes rather than a growing hash table.
//!
//! A hash table over a million keys lives out of the cache: each insert and
//! lookup is a few random memory accesses, which made a keyed merge of one
//! huge list grow faster than its input. Sorting the keys' hashes by radix
//! reads and writes memory in order, and is linear.

use crate::yaml::value::Key;
use std::hash::BuildHasher;

/// Lists up to this long are compared pair by pair.
const SMALL: usize = 32;
/// Bits of the hash sorted per radix pass (three passes cover 32 bits).
const DIGIT: u32 = 11;

/// `(a, b)` with `b` the smallest index whose key equals an earlier one and
/// `a` the first index with that key; `None` when all keys differ.
pub fn first_repeat(keys: &[Key]) -> Option<(usize, usize)> {
    if keys.len() <= SMALL {
        return keys.iter().enumerate().find_map(|(b, k)| {
            keys.iter()
                .take(b)
                .position(|earlier| earlier == k)
                .map(|a| (a, b))
        });
    }
    // The repeats as they are found, the earliest kept: a vector of every
    // key's first index was a fresh list-sized block only to be scanned.
    let mut best: Option<(usize, usize)> = None;
    repeats(keys, |a, b| {
        if best.is_none_or(|(_, first_b)| b < first_b) {
            best = Some((a, b));
        }
    });
    best
}

/// For each key, the first index whose key equals it (itself when none
/// earlier does), as [`FirstEqual::of`].
pub fn first_equal(keys: &[Key]) -> FirstEqual {
    let mut first = match u32::try_from(keys.len()) {
        Ok(n) => FirstEqual::Narrow((0..n).collect()),
        Err(_) => FirstEqual::Wide((0..keys.len()).collect()),
    };
    repeats(keys, |a, b| first.set(b, a));
    first
}

/// Each key's first equal index, from [`first_equal`]; 32-bit indices
/// where they fit (half the fresh memory of a list-sized table).
#[derive(Debug)]
pub enum FirstEqual {
    /// Indices below 2³².
    Narrow(Vec<u32>),
    /// Longer lists.
    Wide(Vec<usize>),
}

impl FirstEqual {
    /// The first index whose key equals key `b`'s (`b` itself when none
    /// earlier does, or when `b` is out of range).
    pub fn of(&self, b: usize) -> usize {
        match self {
            FirstEqual::Narrow(v) => v.get(b).map_or(b, |&a| a as usize),
            FirstEqual::Wide(v) => v.get(b).copied().unwrap_or(b),
        }
    }

    fn set(&mut self, b: usize, a: usize) {
        match self {
            FirstEqual::Narrow(v) => {
                if let (Some(slot), Ok(a)) = (v.get_mut(b), u32::try_from(a)) {
                    *slot = a;
                }
            }
            FirstEqual::Wide(v) => {
                if let Some(slot) = v.get_mut(b) {
                    *slot = a;
                }
            }
        }
    }
}

/// Calls `found(a, b)` for every index `b` whose key equals an earlier one,
/// with `a` the first index with that key, in no particular order.
fn repeats(keys: &[Key], mut found: impl FnMut(usize, usize)) {
    if u32::try_from(keys.len()).is_err() {
        // Past 32-bit indices: a hash table, slower but the same answer.
        let mut seen: indexmap::IndexMap<&Key, usize> = indexmap::IndexMap::new();
        for (i, k) in keys.iter().enumerate() {
            let a = *seen.entry(k).or_insert(i);
            if a != i {
                found(a, i);
            }
        }
        return;
    }
    // foldhash, not SipHash: the hash of a million keys was a twentieth of a keyed merge.
    let state = foldhash::fast::RandomState::default();
    // 32 bits of hash beside each index: equal keys share them, and the
    // few unequal keys that also do are told apart by comparing.
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        pairs.push((state.hash_one(k) as u32, i as u32));
    }
    let mut scratch: Vec<(u32, u32)> = Vec::new();
    radix_sort(&mut pairs, &mut scratch);
    // Runs of one hash, indices ascending (the sort is stable); within a
    // run, each key is compared with the first of each distinct key before
    // it (more than one only where unequal keys share 32 bits of hash).
    // Runs of two (a key and its one repeat, by far the most) are set aside
    // and compared in index order instead: in hash order each comparison
    // read two nodes at random places, and a million of them grew faster
    // than the list. They are kept at the front of `pairs` itself (a run of
    // two leaves one entry, so writing never overtakes reading).
    let mut twos = 0;
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
            if let Some(slot) = pairs.get_mut(twos) {
                *slot = (b, a);
            }
            twos += 1;
            start = end;
            continue;
        }
        firsts.clear();
        for &(_, b) in pairs.get(start..end).unwrap_or_default() {
            let b = b as usize;
            let key = keys.get(b);
            match firsts.iter().find(|&&a| keys.get(a) == key) {
                Some(&a) => found(a, b),
                None => firsts.push(b),
            }
        }
        start = end;
    }
    pairs.truncate(twos);
    radix_sort(&mut pairs, &mut scratch);
    for &(b, a) in &pairs {
        let (a, b) = (a as usize, b as usize);
        if keys.get(a) == keys.get(b) {
            found(a, b);
        }
    }
}

/// Stable LSD radix sort by the first field (a hash, or an index).
/// `other` is scratch space, reused between sorts.
fn radix_sort(pairs: &mut Vec<(u32, u32)>, other: &mut Vec<(u32, u32)>) {
    let buckets = 1usize << DIGIT;
    let mask = (buckets - 1) as u32;
    let passes = 32usize.div_ceil(DIGIT as usize);
    // Every digit's counts in one read of the pairs (a read per digit was a
    // third of the sort's passes over memory).
    let mut counts = vec![0usize; buckets * passes];
    for p in pairs.iter() {
        let mut v = p.0;
        for digit in counts.chunks_mut(buckets) {
            if let Some(c) = digit.get_mut((v & mask) as usize) {
                *c += 1;
            }
            v >>= DIGIT;
        }
    }
    other.clear();
    other.resize(pairs.len(), (0, 0));
    for (d, digit) in counts.chunks_mut(buckets).enumerate() {
        // A digit all pairs share (the high bits of an index) leaves the
        // order as it is.
        if digit.contains(&pairs.len()) {
            continue;
        }
        let shift = d as u32 * DIGIT;
        let mut sum = 0;
        for c in digit.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for p in pairs.iter() {
            if let Some(c) = digit.get_mut(((p.0 >> shift) & mask) as usize) {
                if let Some(slot) = other.get_mut(*c) {
                    *slot = *p;
                }
                *c += 1;
            }
        }
        std::mem::swap(pairs, other);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::indexing_slicing)]
    use super::*;
    use crate::yaml::value::{Node, Value};

    fn keys(xs: &[i64]) -> Vec<Key> {
        xs.iter()
            .map(|&x| {
                Key(Node::synthetic(Value::Int(crate::yaml::value::Int::Small(
                    x,
                ))))
            })
            .collect()
    }

    /// The repeat a hash table filled in order would meet first.
    fn by_table(ks: &[Key]) -> Option<(usize, usize)> {
        let mut seen: indexmap::IndexMap<&Key, usize> = indexmap::IndexMap::new();
        for (b, k) in ks.iter().enumerate() {
            if let Some(&a) = seen.get(k) {
                return Some((a, b));
            }
            seen.insert(k, b);
        }
        None
    }

    #[test]
    fn first_equal_groups_equal_keys() {
        let mut xs: Vec<i64> = (0..5000).collect();
        xs[4000] = 17;
        xs[4500] = 17;
        xs[100] = 3;
        let f = first_equal(&keys(&xs));
        let of = |b| f.of(b);
        assert_eq!(
            (of(4000), of(4500), of(17), of(100), of(3), of(7)),
            (17, 17, 17, 3, 3, 7)
        );
    }

    #[test]
    fn agrees_with_a_hash_table_small_and_large() {
        for n in [0usize, 1, 5, 32, 33, 1000, 50_000] {
            let mut xs: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 1_000_003).collect();
            assert_eq!(first_repeat(&keys(&xs)), None, "n={n}");
            if n >= 5 {
                // two repeats; the one whose second comes first wins
                xs[n - 1] = xs[1];
                xs[n / 2] = xs[3];
                let ks = keys(&xs);
                assert_eq!(first_repeat(&ks), by_table(&ks), "n={n}");
                if n / 2 > 3 {
                    assert_eq!(first_repeat(&ks), Some((3, n / 2)), "n={n}");
                }
            }
        }
        // many equal keys: the second of them
        let ks = keys(&[9; 100]);
        assert_eq!(first_repeat(&ks), Some((0, 1)));
    }
}
