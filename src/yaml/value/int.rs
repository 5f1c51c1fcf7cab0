//! `Int`: a Python `int` (unbounded), small values inline.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use std::fmt;
use std::sync::Arc;

/// A Python integer. Invariant: `Big` only holds values outside `i64`, so
/// derived equality is numeric equality.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Int {
    /// Fits in 64 bits.
    Small(i64),
    /// Does not fit in 64 bits.
    Big(Arc<BigInt>),
}

impl Int {
    /// Normalise a big integer (uses `Small` when it fits).
    pub fn from_big(b: BigInt) -> Int {
        match b.to_i64() {
            Some(v) => Int::Small(v),
            None => Int::Big(Arc::new(b)),
        }
    }

    /// As a big integer.
    pub fn to_big(&self) -> BigInt {
        match self {
            Int::Small(v) => BigInt::from(*v),
            Int::Big(b) => (**b).clone(),
        }
    }

    /// The value if it fits in `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Int::Small(v) => Some(*v),
            Int::Big(_) => None,
        }
    }

    /// Python `float(int)` (rounds; `None` when Python raises OverflowError).
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            Int::Small(v) => Some(*v as f64),
            Int::Big(b) => b.to_f64().filter(|f| f.is_finite()),
        }
    }

    /// Parse digits (no sign, no underscores) in `radix`; `None` on a bad digit
    /// or empty input.
    pub fn parse_radix(digits: &str, radix: u32) -> Option<Int> {
        if digits.is_empty() {
            return None;
        }
        if (digits.len() <= 15 || (radix <= 10 && digits.len() <= 18))
            && let Ok(v) = i64::from_str_radix(digits, radix)
        {
            return Some(Int::Small(v));
        }
        BigInt::parse_bytes(digits.as_bytes(), radix).map(Int::from_big)
    }

    /// `-self`.
    pub fn neg(&self) -> Int {
        match self {
            Int::Small(v) => match v.checked_neg() {
                Some(n) => Int::Small(n),
                None => Int::from_big(-BigInt::from(*v)),
            },
            Int::Big(b) => Int::from_big(-(**b).clone()),
        }
    }

    /// Whether this is negative.
    pub fn is_negative(&self) -> bool {
        match self {
            Int::Small(v) => *v < 0,
            Int::Big(b) => b.sign() == num_bigint::Sign::Minus,
        }
    }

    /// Compare with a float the way Python does (exactly, no rounding);
    /// `None` for NaN.
    pub fn cmp_f64(&self, f: f64) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering;
        if f.is_nan() {
            return None;
        }
        if f.is_infinite() {
            return Some(if f > 0.0 {
                Ordering::Less
            } else {
                Ordering::Greater
            });
        }
        let t = f.trunc();
        // Compare integer parts exactly via BigInt, then the fraction decides ties.
        let ti = float_trunc_to_big(t);
        let me = self.to_big();
        match me.cmp(&ti) {
            Ordering::Equal => {
                let frac = f - t;
                Some(if frac > 0.0 {
                    Ordering::Less
                } else if frac < 0.0 {
                    Ordering::Greater
                } else {
                    Ordering::Equal
                })
            }
            o => Some(o),
        }
    }
}

/// Exact integer value of an integral, finite float.
pub fn float_trunc_to_big(t: f64) -> BigInt {
    if t.abs() < 9.0e15 {
        return BigInt::from(t as i64);
    }
    let bits = t.to_bits();
    let sign = if (bits >> 63) != 0 { -1 } else { 1 };
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mant = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let mut b = BigInt::from(mant);
    if exp >= 0 {
        b <<= exp as usize;
    } else {
        b >>= (-exp) as usize;
    }
    b * sign
}

impl From<i64> for Int {
    fn from(v: i64) -> Self {
        Int::Small(v)
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(v) => write!(f, "{v}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_normalise() {
        assert_eq!(Int::parse_radix("755", 8), Some(Int::Small(493)));
        let big = Int::parse_radix("123456789012345678901234567890", 10).unwrap();
        assert!(matches!(big, Int::Big(_)));
        assert_eq!(big.to_string(), "123456789012345678901234567890");
        assert_eq!(
            Int::parse_radix("7fffffffffffffff", 16),
            Some(Int::Small(i64::MAX))
        );
        assert_eq!(Int::Small(i64::MIN).neg().neg(), Int::Small(i64::MIN));
    }

    #[test]
    fn compare_with_float() {
        use std::cmp::Ordering::*;
        assert_eq!(Int::Small(1).cmp_f64(1.0), Some(Equal));
        assert_eq!(Int::Small(1).cmp_f64(1.5), Some(Less));
        assert_eq!(Int::Small(-1).cmp_f64(-1.5), Some(Greater));
        assert_eq!(
            Int::Small(9007199254740993).cmp_f64(9007199254740992.0),
            Some(Greater)
        );
    }
}
