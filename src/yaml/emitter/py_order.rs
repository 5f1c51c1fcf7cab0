//! `sort_like_python`: `sorted(dict.items())` as CPython 3.11 computes it.
//!
//! PyYAML sorts a mapping's `(key, value)` pairs and keeps insertion order
//! when Python raises `TypeError` (keys of incomparable types). Keys of a dict
//! are never equal, so only the keys' `<` matters. With NaN keys `<` is not an
//! order and the result depends on the exact comparisons CPython makes: for
//! fewer than 64 items (one binary-insertion-sorted run) that is reproduced
//! exactly here; longer lists use a merge sort, which agrees whenever `<` is a
//! total order on the keys.

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

/// Sort `items` by key as Python's `sorted` would; on `TypeError` leave them
/// in their original order (as PyYAML does).
pub(super) fn sort_like_python<T>(items: &mut [T], key: impl Fn(&T) -> &Node) {
    let lt = |a: &T, b: &T| py_lt(key(a), key(b));
    // On `Incomparable` the items are not touched: insertion order stays.
    let _type_error = if items.len() < 64 {
        binary_insertion(items, &lt)
    } else {
        merge_sort(items, &lt)
    };
}

type Lt<'f, T> = &'f dyn Fn(&T, &T) -> Result<bool, Incomparable>;

/// CPython's path for short lists: find the leading run (reversing a
/// strictly descending one), then binary-insert the rest. Works on a copy of
/// the order so that a `TypeError` leaves `items` untouched.
fn binary_insertion<T>(items: &mut [T], lt: Lt<'_, T>) -> Result<(), Incomparable> {
    let n = items.len();
    if n < 2 {
        return Ok(());
    }
    let mut order: Vec<usize> = (0..n).collect();
    let at = |order: &[usize], i: usize| order.get(i).and_then(|&j| items.get(j));
    let less = |order: &[usize], i: usize, j: usize| match (at(order, i), at(order, j)) {
        (Some(a), Some(b)) => lt(a, b),
        _ => Ok(false),
    };
    // Leading run.
    let mut run = 2;
    if less(&order, 1, 0)? {
        while run < n && less(&order, run, run - 1)? {
            run += 1;
        }
        order[..run].reverse();
    } else {
        while run < n && !less(&order, run, run - 1)? {
            run += 1;
        }
    }
    for start in run..n {
        let pivot = order[start];
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + (r - l) / 2;
            let (Some(pv), Some(pp)) = (items.get(pivot), at(&order, p)) else {
                break;
            };
            if lt(pv, pp)? {
                r = p;
            } else {
                l = p + 1;
            }
        }
        order.copy_within(l..start, l + 1);
        order[l] = pivot;
    }
    apply_order(items, &order);
    Ok(())
}

/// A stable merge sort with a fallible `<` (long lists).
fn merge_sort<T>(items: &mut [T], lt: Lt<'_, T>) -> Result<(), Incomparable> {
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
fn apply_order<T>(items: &mut [T], order: &[usize]) {
    // Follow each cycle of the permutation with swaps.
    let mut done = vec![false; items.len()];
    for i in 0..items.len() {
        if done[i] {
            continue;
        }
        let mut cur = i;
        loop {
            done[cur] = true;
            let next = order[cur];
            if next == i {
                break;
            }
            items.swap(cur, next);
            cur = next;
        }
    }
}
