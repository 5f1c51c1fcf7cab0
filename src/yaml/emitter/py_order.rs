//! `sort_like_python`: `sorted(dict.items())` as CPython 3.11 computes it.
//!
//! PyYAML sorts a mapping's `(key, value)` pairs and keeps insertion order
//! when Python raises `TypeError` (keys of incomparable types). Keys of a dict
//! are never equal, so only the keys' `<` matters. With NaN keys `<` is not an
//! order and the result depends on the exact comparisons CPython makes: for
//! fewer than 64 items (one binary-insertion-sorted run) that is reproduced
//! exactly here; longer lists use a merge sort, which agrees whenever `<` is a
//! total order on the keys.

// The sort indexes only its own scratch arrays, with positions it computed
// within their lengths (run boundaries, merge cursors); no index comes from
// the input, and the tests compare it with CPython on random key lists.
#![allow(clippy::indexing_slicing)]

use crate::yaml::value::{Int, Node, Value, py_eq};
use std::cmp::Ordering;

/// Python raised `TypeError` ("'<' not supported between instances …").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Incomparable;

/// A number as Python's `<` sees it.
enum Num<'a> {
    Int(&'a Int),
    Float(f64),
}

fn as_num(v: &Value) -> Option<Num<'_>> {
    const FALSE: Int = Int::Small(0);
    const TRUE: Int = Int::Small(1);
    match v {
        Value::Bool(false) => Some(Num::Int(&FALSE)),
        Value::Bool(true) => Some(Num::Int(&TRUE)),
        Value::Int(i) => Some(Num::Int(i)),
        Value::Float(f) => Some(Num::Float(*f)),
        _ => None,
    }
}

fn int_cmp(a: &Int, b: &Int) -> Ordering {
    match (a, b) {
        (Int::Small(x), Int::Small(y)) => x.cmp(y),
        _ => a.to_big().cmp(&b.to_big()),
    }
}

/// Python's `a < b` for the values a mapping key can hold.
pub(super) fn py_lt(a: &Node, b: &Node) -> Result<bool, Incomparable> {
    if let (Some(x), Some(y)) = (as_num(a.value()), as_num(b.value())) {
        return Ok(match (x, y) {
            (Num::Int(x), Num::Int(y)) => int_cmp(x, y) == Ordering::Less,
            (Num::Int(i), Num::Float(f)) => i.cmp_f64(f) == Some(Ordering::Less),
            (Num::Float(f), Num::Int(i)) => i.cmp_f64(f) == Some(Ordering::Greater),
            (Num::Float(x), Num::Float(y)) => x < y,
        });
    }
    match (a.value(), b.value()) {
        (Value::Str(x), Value::Str(y)) => Ok(x < y),
        (Value::Bytes(x), Value::Bytes(y)) => Ok(x < y),
        (Value::Date(x), Value::Date(y)) => Ok(x < y),
        (Value::DateTime(x), Value::DateTime(y)) => {
            let (xa, xk) = x.instant_key();
            let (ya, yk) = y.instant_key();
            if xa != ya {
                return Err(Incomparable); // naive vs aware
            }
            Ok(xk < yk)
        }
        (Value::Tuple(x), Value::Tuple(y)) | (Value::Seq(x), Value::Seq(y)) => {
            // Lexicographic: the first items that differ (by `==`) decide.
            for (p, q) in x.iter().zip(y.iter()) {
                if !py_eq(p, q) {
                    return py_lt(p, q);
                }
            }
            Ok(x.len() < y.len())
        }
        _ => Err(Incomparable),
    }
}

/// Type families whose members Python can always order among themselves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Str,
    Num,
    Bytes,
    Date,
    NaiveDateTime,
    AwareDateTime,
}

fn family(v: &Value) -> Option<Family> {
    Some(match v {
        Value::Str(_) => Family::Str,
        Value::Bool(_) | Value::Int(_) | Value::Float(_) => Family::Num,
        Value::Bytes(_) => Family::Bytes,
        Value::Date(_) => Family::Date,
        Value::DateTime(d) if d.offset_minutes.is_none() => Family::NaiveDateTime,
        Value::DateTime(_) => Family::AwareDateTime,
        _ => return None,
    })
}

/// Sort `items` by key as Python's `sorted` would; on `TypeError` leave them
/// in their original order (as PyYAML does).
pub(super) fn sort_like_python<'k, T: Copy>(items: &mut [T], key: impl Fn(&T) -> &'k Node) {
    let Some((first, rest)) = items.split_first() else {
        return;
    };
    let fam = family(key(first).value());
    let same = fam.is_some() && rest.iter().all(|x| family(key(x).value()) == fam);
    let lt = |a: &T, b: &T| py_lt(key(a), key(b));
    if same && fam == Some(Family::Str) {
        // Distinct strings: every correct sort gives the same order.
        items.sort_by(|a, b| match (key(a).value(), key(b).value()) {
            (Value::Str(x), Value::Str(y)) => x.cmp(y),
            _ => Ordering::Equal,
        });
    } else if same {
        // No TypeError possible: sort in place.
        let _never_fails = if items.len() < 64 {
            binary_insertion(items, &lt)
        } else {
            merge_sort(items, &lt)
        };
    } else {
        // Python may raise part-way: sort a copy, keep it only on success.
        let mut copy = items.to_vec();
        let done = if copy.len() < 64 {
            binary_insertion(&mut copy, &lt)
        } else {
            merge_sort(&mut copy, &lt)
        };
        if done.is_ok() {
            items.copy_from_slice(&copy);
        }
    }
}

/// A `str` key gathered for sorting: its first 16 bytes as a big-endian
/// number (zero-padded), then all of it.
pub(super) type StrSortKey<'a, T> = (u128, &'a [u8], T);

/// [`sort_like_python`], faster when every key is a `str` (nearly always):
/// the keys' bytes are gathered in one pass into `buf`, so that comparisons
/// mostly compare the prefixes there instead of reading the keys' nodes
/// again (a cache miss each in a large mapping). Byte order is code point
/// order, and the keys of a dict are distinct, so the order is the same.
pub(super) fn sort_like_python_fast<'a, T: Copy>(
    items: &mut [T],
    key: impl Fn(&T) -> &'a Node,
    buf: &mut Vec<StrSortKey<'a, T>>,
) {
    buf.clear();
    if items.len() < 2 {
        return;
    }
    buf.reserve(items.len());
    // The kinds of the keys a few places ahead, read early: the key nodes
    // of a large mapping lie apart, and misses on reads in a row overlap.
    let mut ahead = 0usize;
    for (i, &item) in items.iter().enumerate() {
        if let Some(a) = items.get(i + KEYS_AHEAD) {
            ahead = ahead.wrapping_add(usize::from(matches!(key(a).value(), Value::Str(_))));
        }
        let Value::Str(s) = key(&item).value() else {
            buf.clear();
            return sort_like_python(items, key);
        };
        let bytes = s.as_wtf8();
        buf.push((prefix16(bytes), bytes, item));
    }
    std::hint::black_box(ahead);
    buf.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    for (dst, k) in items.iter_mut().zip(buf.iter()) {
        *dst = k.2;
    }
    buf.clear();
}

/// Keys read ahead of the one gathered (see [`sort_like_python_fast`]).
const KEYS_AHEAD: usize = 8;

/// The first 16 bytes of `b` as a big-endian number, zero-padded: built
/// from whole-word reads (bytes stored one by one and read back as one
/// number stall the load).
fn prefix16(b: &[u8]) -> u128 {
    let word = |at: usize| {
        b.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_be_bytes)
    };
    // The first `n` (< 8) bytes at the top of a word.
    let short = |bytes: &[u8]| {
        let w = bytes.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
        w.checked_shl(8 * (8 - bytes.len() as u32)).unwrap_or(0)
    };
    let n = b.len();
    let (hi, lo) = if n >= 16 {
        (word(0), word(8))
    } else if n > 8 {
        // The last eight bytes, shifted so that those past the first eight
        // lead (the ones before drop out).
        (word(0), word(n - 8) << (8 * (16 - n)))
    } else if n == 8 {
        (word(0), 0)
    } else {
        (short(b), 0)
    };
    (u128::from(hi) << 64) | u128::from(lo)
}

type Lt<'f, T> = &'f dyn Fn(&T, &T) -> Result<bool, Incomparable>;

/// CPython's path for short lists: find the leading run (reversing a
/// strictly descending one), then binary-insert the rest, in place.
fn binary_insertion<T: Copy>(items: &mut [T], lt: Lt<'_, T>) -> Result<(), Incomparable> {
    let n = items.len();
    if n < 2 {
        return Ok(());
    }
    let less = |items: &[T], i: usize, j: usize| match (items.get(i), items.get(j)) {
        (Some(a), Some(b)) => lt(a, b),
        _ => Ok(false),
    };
    let mut run = 2;
    if less(items, 1, 0)? {
        while run < n && less(items, run, run - 1)? {
            run += 1;
        }
        items[..run].reverse();
    } else {
        while run < n && !less(items, run, run - 1)? {
            run += 1;
        }
    }
    for start in run..n {
        let pivot = items[start];
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + (r - l) / 2;
            if lt(&pivot, &items[p])? {
                r = p;
            } else {
                l = p + 1;
            }
        }
        items.copy_within(l..start, l + 1);
        items[l] = pivot;
    }
    Ok(())
}

/// A stable merge sort with a fallible `<` (long lists).
fn merge_sort<T: Copy>(items: &mut [T], lt: Lt<'_, T>) -> Result<(), Incomparable> {
    let n = items.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut buf: Vec<usize> = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                let (Some(a), Some(b)) = (items.get(order[j]), items.get(order[i])) else {
                    break;
                };
                // Take from the right only when strictly less: stable.
                if lt(a, b)? {
                    buf[k] = order[j];
                    j += 1;
                } else {
                    buf[k] = order[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&order[i..mid]);
            k += mid - i;
            buf[k..k + (hi - j)].copy_from_slice(&order[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut order, &mut buf);
        width *= 2;
    }
    apply_order(items, &order);
    Ok(())
}

/// Permute `items` so that position `i` holds the old `items[order[i]]`.
fn apply_order<T: Copy>(items: &mut [T], order: &[usize]) {
    let old = items.to_vec();
    for (dst, &src) in items.iter_mut().zip(order) {
        if let Some(&v) = old.get(src) {
            *dst = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{sort_like_python, sort_like_python_fast};
    use crate::yaml::value::{Node, PyStr, Value};

    #[test]
    fn prefix16_is_the_zero_padded_first_16_bytes() {
        let text: Vec<u8> = (1..=40).collect();
        for len in 0..=40 {
            let b = text.get(..len).unwrap_or(&[]);
            let mut p = [0u8; 16];
            for (d, &x) in p.iter_mut().zip(b) {
                *d = x;
            }
            assert_eq!(super::prefix16(b), u128::from_be_bytes(p), "{len}");
        }
    }

    #[test]
    fn str_key_fast_path_sorts_as_the_general_sort() {
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Code points that share long prefixes, non-ASCII, surrogates, NUL.
        let pool = [
            0x61, 0x62, 0x5F, 0x31, 0x00, 0xE9, 0x20AC, 0x1F600, 0xD800, 0xDC00, 0x7F,
        ];
        for round in 0..3000 {
            let mut buf = Vec::new();
            let n = (next() % 40) as usize;
            let mut keys: Vec<Node> = Vec::new();
            for _ in 0..n {
                let len = (next() % 24) as usize;
                let cps: Vec<u32> = (0..len)
                    .map(|i| {
                        let r = next();
                        if i < 14 && r % 4 != 0 {
                            0x6B // long shared prefixes
                        } else {
                            pool.get((r >> 8) as usize % pool.len())
                                .copied()
                                .unwrap_or(0x61)
                        }
                    })
                    .collect();
                let s = PyStr::from_code_points(cps);
                // Distinct keys, as in a dict.
                if !keys
                    .iter()
                    .any(|k| matches!(k.value(), Value::Str(t) if *t == s))
                {
                    keys.push(Node::synthetic(Value::Str(s)));
                }
            }
            if round % 10 == 0 && !keys.is_empty() {
                // A non-str key sends the fast path to the general one.
                keys.push(Node::synthetic(Value::Int(crate::yaml::value::Int::Small(
                    1,
                ))));
            }
            let mut a: Vec<(&Node, usize)> = keys.iter().zip(0..).collect();
            let mut b = a.clone();
            sort_like_python(&mut a, |e| e.0);
            sort_like_python_fast(&mut b, |e| e.0, &mut buf);
            let ia: Vec<usize> = a.iter().map(|e| e.1).collect();
            let ib: Vec<usize> = b.iter().map(|e| e.1).collect();
            assert_eq!(ia, ib);
        }
    }
}
