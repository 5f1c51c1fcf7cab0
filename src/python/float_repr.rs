//! Python's `repr(float)`: shortest round-trip digits, Python's exponent rules.

/// `repr(f)` as CPython writes it: `1.0`, `0.1`, `1e+16`, `1.5e-05`, `inf`,
/// `-inf`, `nan`.
pub fn py_float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "-1.2345e-7".
    let sci = format!("{f:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mant) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant),
    };
    let mut digits: String = mant.chars().filter(|c| *c != '.').collect();
    round_half_even(f.abs(), &mut digits, exp);
    let mut out = String::with_capacity(digits.len() + 8);
    if neg {
        out.push('-');
    }
    if !(-4..16).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.unsigned_abs()));
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let point = exp as usize + 1;
        if digits.len() <= point {
            out.push_str(&digits);
            for _ in digits.len()..point {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point]);
            out.push('.');
            out.push_str(&digits[point..]);
        }
    }
    out
}

/// Rust's shortest digits break an exact tie between two shortest
/// candidates upwards; CPython's `repr` picks the even last digit
/// (894167907754606.25 → `894167907754606.2`). Fix the last digit when the
/// value lies exactly halfway and the lower candidate is even.
fn round_half_even(f: f64, digits: &mut String, exp: i32) {
    use num_bigint::BigInt;
    let Some(last) = digits.bytes().last().filter(|d| d % 2 == 1) else {
        return;
    };
    let n = digits.len() as i32;
    let s = exp - (n - 1); // digits × 10^s is the decimal value
    let Ok(q_up) = digits.parse::<BigInt>() else {
        return;
    };
    // Tie: 2f == (2·q_up − 1)·10^s, exactly.
    let bits = f.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (m, e2) = if e == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), e - 1075)
    };
    let mut lhs = BigInt::from(m);
    let mut rhs: BigInt = q_up * 2 - 1;
    let e2 = e2 + 1;
    if e2 >= 0 {
        lhs <<= e2 as usize;
    } else {
        rhs <<= (-e2) as usize;
    }
    let ten = BigInt::from(10u8);
    if s >= 0 {
        rhs *= ten.pow(s as u32);
    } else {
        lhs *= ten.pow((-s) as u32);
    }
    if lhs != rhs {
        return;
    }
    let mut lower = digits.clone();
    lower.pop();
    lower.push(char::from(last - 1));
    let back: Option<f64> = format!("{}.{}e{}", &lower[..1], &lower[1..], exp)
        .parse()
        .ok();
    if back == Some(f) {
        *digits = lower;
    }
}

#[cfg(test)]
mod tests {
    use super::py_float_repr;

    #[test]
    fn matches_python() {
        let cases = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1.5, "1.5"),
            (-0.0, "-0.0"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e100, "1e+100"),
            (f64::INFINITY, "inf"),
            (12345.678, "12345.678"),
        ];
        for (f, want) in cases {
            assert_eq!(py_float_repr(f), want, "{f}");
        }
        // Exact ties between two shortest candidates go to the even digit.
        for (text, want) in [
            ("894167907754606.25", "894167907754606.2"),
            ("894167907754606.75", "894167907754606.8"),
            ("562949953421312.25", "562949953421312.2"),
        ] {
            assert_eq!(py_float_repr(text.parse().unwrap()), want);
        }
    }
}
