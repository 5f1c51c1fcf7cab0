//! `ValueClasses`: exact value equality, a fingerprint consistent with it, and equal values numbered alike.
//!
//! "The same" here is what makes two values indistinguishable in
//! `cloud-config.txt` and to the modules reading it: the same Python type
//! (`1`, `1.0`, `true` and `'1'` all differ; an int equals an int of the same
//! value, however large), the same value (floats by their bits, so `-0.0` is
//! not `0.0`, but every NaN is the NaN `.nan` loads back), the same items in
//! the same order, mappings and sets with the same keys in the same order.
//! Where two values differ only in ways cloud-init cannot see (key order, a
//! tuple against a list) the diff says so separately.

use super::diff_error::DiffError;
use crate::yaml::value::{DateTime, Node, Value};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

/// Deepest nesting compared: past what cloud-init's loaders build (PyYAML
/// stops near 500 levels, `json` near 1,000); an alias that refers to its
/// own ancestor stops here too. Walks deeper than `deep_stack`'s inline
/// depth move to its large-stack thread.
pub(crate) const MAX_DEPTH: usize = 1_100;

/// Representatives compared per fingerprint before a value is given a class
/// of its own: colliding fingerprints cannot make numbering quadratic. (Equal
/// values then merely fail to align, and are compared again when paired.)
const MAX_CHAIN: usize = 8;

/// Node visits left, and the deepest level a walk may go.
#[derive(Debug)]
pub(crate) struct Meter {
    visited: usize,
    limit: usize,
    max_depth: usize,
}

impl Meter {
    pub(crate) fn new(limit: usize, max_depth: usize) -> Meter {
        Meter {
            visited: 0,
            limit,
            max_depth,
        }
    }

    pub(crate) fn visit(&mut self, depth: usize) -> Result<(), DiffError> {
        self.visited += 1;
        if self.visited > self.limit {
            return Err(DiffError::TooManyNodes { limit: self.limit });
        }
        if depth > self.max_depth {
            return Err(DiffError::TooDeep {
                limit: self.max_depth,
            });
        }
        Ok(())
    }
}

fn datetime_fields(d: &DateTime) -> (crate::yaml::value::Date, u8, u8, u8, u32, Option<i32>) {
    (
        d.date,
        d.hour,
        d.minute,
        d.second,
        d.microsecond,
        d.offset_minutes,
    )
}

/// Whether two scalars are the same (`None`: not both scalars).
pub(crate) fn scalar_same(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => {
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Date(x), Value::Date(y)) => x == y,
        (Value::DateTime(x), Value::DateTime(y)) => datetime_fields(x) == datetime_fields(y),
        (Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_), _)
        | (_, Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_)) => return None,
        _ => false,
    })
}

/// Whether `a` and `b` are the same value exactly (see the module doc).
pub(crate) fn same(a: &Node, b: &Node, meter: &mut Meter, depth: usize) -> Result<bool, DiffError> {
    if Node::ptr_eq(a, b) {
        return Ok(true);
    }
    meter.visit(depth)?;
    if let Some(s) = scalar_same(a.value(), b.value()) {
        return Ok(s);
    }
    match (a.value(), b.value()) {
        (Value::Seq(x), Value::Seq(y)) | (Value::Tuple(x), Value::Tuple(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                if !same(p, q, meter, depth + 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (Value::Map(x), Value::Map(y)) | (Value::Set(x), Value::Set(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for ((k1, v1), (k2, v2)) in x.iter().zip(y.iter()) {
                if !same(k1, k2, meter, depth + 1)? || !same(v1, v2, meter, depth + 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Fingerprints (memoized per container node, so a shared value is hashed
/// once) and the numbering of list items into classes of the same values.
#[derive(Debug, Default)]
pub(crate) struct ValueClasses {
    memo: HashMap<usize, u64, foldhash::fast::FixedState>,
}

/// Fixed seed: fingerprints, and so the choice of alignment direction, are
/// the same in every process (`diff A B` and `diff B A` mirror each other).
const HASH: foldhash::fast::FixedState =
    foldhash::fast::FixedState::with_seed(0x636c_6f75_6466_6f6c);

impl ValueClasses {
    /// A hash equal for values that are [`same`].
    pub(crate) fn fingerprint(
        &mut self,
        n: &Node,
        meter: &mut Meter,
        depth: usize,
    ) -> Result<u64, DiffError> {
        let container = matches!(
            n.value(),
            Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_)
        );
        if container && let Some(&h) = self.memo.get(&n.id()) {
            return Ok(h);
        }
        meter.visit(depth)?;
        let mut h = HASH.build_hasher();
        match n.value() {
            Value::Null => 0u8.hash(&mut h),
            Value::Bool(b) => (1u8, b).hash(&mut h),
            Value::Int(i) => (2u8, i).hash(&mut h),
            Value::Float(f) => (3u8, if f.is_nan() { 0 } else { f.to_bits() }).hash(&mut h),
            Value::Str(s) => (4u8, s.as_wtf8()).hash(&mut h),
            Value::Bytes(b) => (5u8, b).hash(&mut h),
            Value::Date(d) => (6u8, d).hash(&mut h),
            Value::DateTime(d) => (7u8, datetime_fields(d)).hash(&mut h),
            Value::Seq(s) | Value::Tuple(s) => {
                (8u8, matches!(n.value(), Value::Tuple(_)), s.len()).hash(&mut h);
                for item in s.iter() {
                    self.fingerprint(item, meter, depth + 1)?.hash(&mut h);
                }
            }
            Value::Map(m) | Value::Set(m) => {
                (9u8, matches!(n.value(), Value::Set(_)), m.len()).hash(&mut h);
                for (k, v) in m.iter() {
                    self.fingerprint(k, meter, depth + 1)?.hash(&mut h);
                    self.fingerprint(v, meter, depth + 1)?.hash(&mut h);
                }
            }
        }
        let h = h.finish();
        if container {
            self.memo.insert(n.id(), h);
        }
        Ok(h)
    }

    /// Each item of `a` and `b` numbered so that the same values (nearly
    /// always: see `MAX_CHAIN`) get the same number, and their fingerprints.
    pub(crate) fn number(
        &mut self,
        a: &[Node],
        b: &[Node],
        meter: &mut Meter,
        depth: usize,
    ) -> Result<Numbered, DiffError> {
        let mut reps: HashMap<u64, Vec<(Node, u32)>, foldhash::fast::FixedState> =
            HashMap::default();
        let mut next = 0u32;
        let mut out = Numbered::default();
        for (side, items) in [(0, a), (1, b)] {
            for item in items {
                let fp = self.fingerprint(item, meter, depth)?;
                let chain = reps.entry(fp).or_default();
                let mut class = None;
                for (rep, id) in chain.iter() {
                    if same(rep, item, meter, depth)? {
                        class = Some(*id);
                        break;
                    }
                }
                let class = match class {
                    Some(c) => c,
                    None => {
                        let c = next;
                        next += 1;
                        if chain.len() < MAX_CHAIN {
                            chain.push((item.clone(), c));
                        }
                        c
                    }
                };
                if side == 0 {
                    out.a.push(class);
                    out.a_fp.push(fp);
                } else {
                    out.b.push(class);
                    out.b_fp.push(fp);
                }
            }
        }
        Ok(out)
    }
}

/// Two lists' items as class numbers and fingerprints.
#[derive(Debug, Default)]
pub(crate) struct Numbered {
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    pub a_fp: Vec<u64>,
    pub b_fp: Vec<u64>,
}
