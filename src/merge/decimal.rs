//! `Decimal`: an exact decimal number (mantissa × 10^exp), for Nickel's rational numbers and numeric priorities.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};
use std::cmp::Ordering;
use std::fmt;

/// Exponents beyond this are refused (aligning two decimals costs
/// `10^|exp difference|`; written numbers never come near it).
const MAX_EXP: i64 = 4096;

/// Longest number text parsed.
const MAX_TEXT: usize = 1024;

/// An exact decimal, normalised (no trailing zero digits in the mantissa;
/// zero has exponent 0), so derived equality is numeric equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal {
    mantissa: BigInt,
    exp: i64,
}

impl Decimal {
    /// Zero.
    pub fn zero() -> Decimal {
        Decimal {
            mantissa: BigInt::zero(),
            exp: 0,
        }
    }

    /// An integer.
    pub fn from_int(i: BigInt) -> Decimal {
        Decimal::normalised(i, 0)
    }

    fn normalised(mut mantissa: BigInt, mut exp: i64) -> Decimal {
        if mantissa.is_zero() {
            return Decimal::zero();
        }
        let ten = BigInt::from(10);
        while (&mantissa % &ten).is_zero() {
            mantissa /= &ten;
            exp += 1;
        }
        Decimal { mantissa, exp }
    }

    /// Parse `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5`, `5.`,
    /// Python's `1e+22` and `inf`-free float reprs); `None` otherwise.
    pub fn parse(text: &str) -> Option<Decimal> {
        // Written numbers are short; a long one would only cost time.
        if text.len() > MAX_TEXT {
            return None;
        }
        let b = text.as_bytes();
        let mut i = 0;
        let neg = match b.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        let mut digits = String::new();
        let mut frac = 0i64;
        let mut seen_digit = false;
        while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
            digits.push(char::from(*c));
            seen_digit = true;
            i += 1;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
                digits.push(char::from(*c));
                frac += 1;
                seen_digit = true;
                i += 1;
            }
        }
        if !seen_digit {
            return None;
        }
        let mut exp = 0i64;
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            let eneg = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let start = i;
            while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
                exp = exp.saturating_mul(10).saturating_add(i64::from(*c - b'0'));
                i += 1;
            }
            if i == start {
                return None;
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != b.len() {
            return None;
        }
        let exp = exp.checked_sub(frac)?;
        // Leading zeros do not count; the digit string is bounded by the text.
        let mut mantissa: BigInt = digits.parse().ok()?;
        if neg {
            mantissa = -mantissa;
        }
        let d = Decimal::normalised(mantissa, exp);
        if d.exp.abs() > MAX_EXP {
            return None;
        }
        Some(d)
    }

    /// Whether this is an integer.
    pub fn is_integer(&self) -> bool {
        self.exp >= 0
    }

    /// The integer value, if this is an integer.
    pub fn to_int(&self) -> Option<BigInt> {
        let e = u32::try_from(self.exp).ok()?;
        Some(&self.mantissa * BigInt::from(10).pow(e))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (&self.mantissa, &other.mantissa);
        let sign = |x: &BigInt| {
            if x.is_zero() {
                0
            } else if x.is_negative() {
                -1
            } else {
                1
            }
        };
        match sign(a).cmp(&sign(b)) {
            Ordering::Equal => {}
            o => return o,
        }
        // Align exponents (both bounded by MAX_EXP).
        let shift = |m: &BigInt, by: i64| m * BigInt::from(10).pow(u32::try_from(by).unwrap_or(0));
        match self.exp.cmp(&other.exp) {
            Ordering::Equal => a.cmp(b),
            Ordering::Greater => shift(a, self.exp - other.exp).cmp(b),
            Ordering::Less => a.cmp(&shift(b, other.exp - self.exp)),
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Decimal {
    /// Plain decimal notation (`-1.5`, `10`, `0.001`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp >= 0 {
            return match self.to_int() {
                Some(i) => write!(f, "{i}"),
                None => write!(f, "{}e{}", self.mantissa, self.exp),
            };
        }
        let neg = self.mantissa.is_negative();
        let digits = self.mantissa.abs().to_string();
        let frac = usize::try_from(-self.exp).unwrap_or(0);
        let padded = if digits.len() <= frac {
            format!("{}{digits}", "0".repeat(frac - digits.len() + 1))
        } else {
            digits
        };
        let (int_part, frac_part) = padded.split_at(padded.len() - frac);
        write!(f, "{}{int_part}.{frac_part}", if neg { "-" } else { "" })
    }
}
