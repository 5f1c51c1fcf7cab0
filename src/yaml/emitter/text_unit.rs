//! `TextUnit`: one character of scalar text — a byte of ASCII text or a code point.
//!
//! Scalars are analysed and written over slices of units. ASCII text (nearly
//! all of a cloud-config) is used in place as bytes; other text is decoded
//! once into code points, so positions and column counts are Python's.

/// A character of scalar text.
pub(super) trait TextUnit: Copy + Into<u32> {
    /// Append `run` to `out` (only characters that may be written raw).
    fn push_run(out: &mut String, run: &[Self]);
}

impl TextUnit for u8 {
    fn push_run(out: &mut String, run: &[u8]) {
        // Only used for ASCII text, so this always succeeds.
        out.push_str(std::str::from_utf8(run).unwrap_or_default());
    }
}

impl TextUnit for u32 {
    fn push_run(out: &mut String, run: &[u32]) {
        out.extend(run.iter().map(|&c| char::from_u32(c).unwrap_or('\u{FFFD}')));
    }
}
