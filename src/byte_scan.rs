//! `find_any`: the first of a few given bytes, eight bytes at a time — for
//! the MIME reader's line breaks and the YAML fast loader's scalar and line
//! scans, which were byte loops (there ~15 % of a load); `find_below_or_any`
//! adds a bound, for the bytes JSON escapes in strings written by hand.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// High bit set in the bytes of `x` equal to `b`. Only the lowest flagged byte
/// is exact (a borrow can flag bytes above a match), which is all that is used.
fn eq_mask(x: u64, b: u8) -> u64 {
    let v = x ^ (ONES * u64::from(b));
    v.wrapping_sub(ONES) & !v & HIGHS
}

/// Whether some byte of the word `x` is `b` (exact: a borrow flags a byte
/// only above a true match).
#[inline]
pub(crate) fn has_byte(x: u64, b: u8) -> bool {
    eq_mask(x, b) != 0
}

/// The index of the first byte of `bytes` that is in `set`.
pub(crate) fn find_any<const N: usize>(bytes: &[u8], set: [u8; N]) -> Option<usize> {
    // The lowest flag of each mask is exact, so the lowest of their union is.
    first_flagged(
        bytes,
        |x| set.iter().fold(0, |acc, &b| acc | eq_mask(x, b)),
        |c| set.contains(&c),
    )
}

/// The index of the first byte of `bytes` that `mask` flags in its word (the
/// lowest flag exact) or, in the tail shorter than a word, that `hit` takes.
#[inline(always)]
fn first_flagged(
    bytes: &[u8],
    mask: impl Fn(u64) -> u64,
    hit: impl Fn(u8) -> bool,
) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let hits = mask(u64::from_le_bytes(word));
        if hits != 0 {
            return Some(base + (hits.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| hit(c))
        .map(|i| base + i)
}

/// High bit set in the bytes of `x` below `n` (at most 0x80). As in
/// [`eq_mask`], only the lowest flagged byte is exact.
fn below_mask(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGHS
}

/// The index of the first byte of `bytes` below `below` (at most 0x80) or in
/// `set`: for JSON's escaped bytes (controls, `"`, `\`) in strings written
/// by hand.
pub(crate) fn find_below_or_any<const N: usize>(
    bytes: &[u8],
    below: u8,
    set: [u8; N],
) -> Option<usize> {
    debug_assert!(below <= 0x80);
    first_flagged(
        bytes,
        |x| {
            set.iter()
                .fold(below_mask(x, below), |acc, &b| acc | eq_mask(x, b))
        },
        |c| c < below || set.contains(&c),
    )
}

#[cfg(test)]
mod tests {
    use super::{find_any, find_below_or_any};

    #[test]
    fn find_any_is_the_first_byte_of_the_set() {
        // All byte values around the set, at every offset of a 20-byte text.
        let alphabet = [
            b'\n', b':', b'#', b' ', b'a', 0x7f, 0x80, 0xff, 0x00, b'9', b';',
        ];
        let mut seed = 0x1234_5678_u64;
        for _ in 0..20_000 {
            let len = (seed % 21) as usize;
            let mut text = Vec::with_capacity(len);
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = ((seed >> 33) % alphabet.len() as u64) as usize;
                text.push(alphabet.get(i).copied().unwrap_or(b'a'));
            }
            let want = text.iter().position(|c| b"\n:#".contains(c));
            assert_eq!(find_any(&text, [b'\n', b':', b'#']), want, "{text:?}");
            let want = text.iter().position(|&c| c == b'\n');
            assert_eq!(find_any(&text, [b'\n']), want, "{text:?}");
        }
    }

    #[test]
    fn find_below_or_any_is_the_first_escaped_byte() {
        // Every byte value, at every offset of texts of every length to 20.
        let mut seed = 0x9e37_79b9_u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = ((seed >> 33) % 21) as usize;
            let mut text = Vec::with_capacity(len);
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Mostly plain bytes, sometimes any byte.
                let b = (seed >> 40) as u8;
                text.push(if seed >> 62 == 0 { b } else { b'a' + b % 26 });
            }
            let want = text
                .iter()
                .position(|&c| c < 0x20 || c == b'"' || c == b'\\');
            assert_eq!(
                find_below_or_any(&text, 0x20, [b'"', b'\\']),
                want,
                "{text:?}"
            );
        }
        for b in 0..=255u8 {
            let text = [b'a', b'a', b'a', b'a', b'a', b'a', b'a', b, b'a'];
            let want = (b < 0x20 || b == b'"' || b == b'\\').then_some(7);
            assert_eq!(find_below_or_any(&text, 0x20, [b'"', b'\\']), want, "{b}");
        }
    }
}
