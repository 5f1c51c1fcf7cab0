//! `TextUnit`: one character of scalar text — a byte of ASCII text or a code point.
//!
//! Scalars are analysed and written over slices of units. ASCII text (nearly
//! all of a cloud-config) is used in place as bytes; other text is decoded
//! once into code points, so positions and column counts are Python's.

/// A character of scalar text.
pub(super) trait TextUnit: Copy + Into<u32> {
    /// Append `run` to `out` (only characters that may be written raw).
    fn push_run(out: &mut Vec<u8>, run: &[Self]);

    /// The text as bytes, when units are bytes (ASCII text).
    fn as_ascii(text: &[Self]) -> Option<&[u8]>;
}

impl TextUnit for u8 {
    fn push_run(out: &mut Vec<u8>, run: &[u8]) {
        // Only used for ASCII text.
        out.extend_from_slice(run);
    }

    fn as_ascii(text: &[u8]) -> Option<&[u8]> {
        Some(text)
    }
}

impl TextUnit for u32 {
    fn push_run(out: &mut Vec<u8>, run: &[u32]) {
        let mut buf = [0; 4];
        for &c in run {
            let c = char::from_u32(c).unwrap_or('\u{FFFD}');
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }

    fn as_ascii(_: &[u32]) -> Option<&[u8]> {
        None
    }
}

/// Decode generalized UTF-8 (UTF-8 that may encode lone surrogates, as
/// `PyStr` stores it) into code points.
pub(super) fn decode_wtf8(bytes: &[u8], out: &mut Vec<u32>) {
    let mut i = 0;
    while let Some(&b0) = bytes.get(i) {
        let (len, init) = match b0 {
            0x00..=0x7F => (1, u32::from(b0)),
            0xC0..=0xDF => (2, u32::from(b0 & 0x1F)),
            0xE0..=0xEF => (3, u32::from(b0 & 0x0F)),
            _ => (4, u32::from(b0 & 0x07)),
        };
        let tail = bytes.get(i + 1..i + len).unwrap_or(&[]);
        out.push(
            tail.iter()
                .fold(init, |acc, &b| (acc << 6) | u32::from(b & 0x3F)),
        );
        i += len;
    }
}
