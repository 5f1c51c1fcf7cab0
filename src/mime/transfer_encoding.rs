//! Content-Transfer-Encoding decoders with CPython's exact leniency:
//! base64 (`email._encoded_words.decode_b` over `binascii.a2b_base64`),
//! quoted-printable (`binascii.a2b_qp`) and uuencode (`email.message._decode_uu`).

use super::defect::DefectKind;
use std::borrow::Cow;

/// The transfer encodings `get_payload(decode=True)` undoes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferEncoding {
    /// `base64`
    Base64,
    /// `quoted-printable`
    QuotedPrintable,
    /// `x-uuencode`, `uuencode`, `uue`, `x-uue`
    Uuencode,
    /// Anything else (7bit, 8bit, binary, absent, unknown): bytes as they are.
    Identity,
}

impl TransferEncoding {
    /// Classify a header value the way Python does: lower-cased, **not** stripped
    /// (`base64 ` with a trailing space is not base64).
    pub fn from_header(value: Option<&str>) -> TransferEncoding {
        let value = value.unwrap_or("");
        if value.is_ascii() {
            // The usual header (`7bit`, `base64`): no lower-cased copy.
            let is = |name: &str| value.eq_ignore_ascii_case(name);
            return if is("base64") {
                TransferEncoding::Base64
            } else if is("quoted-printable") {
                TransferEncoding::QuotedPrintable
            } else if ["x-uuencode", "uuencode", "uue", "x-uue"]
                .into_iter()
                .any(is)
            {
                TransferEncoding::Uuencode
            } else {
                TransferEncoding::Identity
            };
        }
        let v = crate::python::py_lower(value);
        match v.as_str() {
            "base64" => TransferEncoding::Base64,
            "quoted-printable" => TransferEncoding::QuotedPrintable,
            "x-uuencode" | "uuencode" | "uue" | "x-uue" => TransferEncoding::Uuencode,
            _ => TransferEncoding::Identity,
        }
    }

    /// [`decode`](Self::decode) of bytes borrowed or given away: the
    /// identity encoding copies only borrowed bytes, the others decode from
    /// either without a copy first.
    pub fn decode_cow(self, data: Cow<'_, [u8]>) -> (Vec<u8>, Vec<DefectKind>) {
        match self {
            TransferEncoding::Identity => (data.into_owned(), Vec::new()),
            other => other.decode(&data),
        }
    }

    /// Decode `data` (the payload bytes), with the defects Python would record.
    pub fn decode(self, data: &[u8]) -> (Vec<u8>, Vec<DefectKind>) {
        match self {
            TransferEncoding::Base64 => {
                // Python joins `bytes.splitlines()`: drop every CR and LF.
                let joined: Vec<u8> = data
                    .iter()
                    .copied()
                    .filter(|&b| b != b'\r' && b != b'\n')
                    .collect();
                decode_b(&joined)
            }
            TransferEncoding::QuotedPrintable => (a2b_qp(data), Vec::new()),
            TransferEncoding::Uuencode => {
                (decode_uu(data).unwrap_or_else(|| data.to_vec()), Vec::new())
            }
            TransferEncoding::Identity => (data.to_vec(), Vec::new()),
        }
    }
}

fn b64_value(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `binascii.a2b_base64(data, strict_mode=strict)`; `None` is `binascii.Error`.
pub(crate) fn a2b_base64(data: &[u8], strict: bool) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 3);
    if strict && data.first() == Some(&b'=') {
        return None;
    }
    let mut quad_pos = 0u8;
    let mut left: u32 = 0;
    let mut pads = 0u32;
    let mut padding_started = false;
    for (i, &c) in data.iter().enumerate() {
        if c == b'=' {
            padding_started = true;
            if quad_pos >= 2 {
                pads += 1;
                if u32::from(quad_pos) + pads >= 4 {
                    // A complete pad sequence ends the input.
                    if strict && i + 1 < data.len() {
                        return None;
                    }
                    return Some(out);
                }
            }
            continue;
        }
        let Some(v) = b64_value(c) else {
            if strict {
                return None;
            }
            continue;
        };
        if strict && padding_started {
            return None;
        }
        pads = 0;
        let v = u32::from(v);
        match quad_pos {
            0 => {
                quad_pos = 1;
                left = v;
            }
            1 => {
                quad_pos = 2;
                out.push(((left << 2) | (v >> 4)) as u8);
                left = v & 0x0f;
            }
            2 => {
                quad_pos = 3;
                out.push(((left << 4) | (v >> 2)) as u8);
                left = v & 0x03;
            }
            _ => {
                quad_pos = 0;
                out.push(((left << 6) | v) as u8);
                left = 0;
            }
        }
    }
    if quad_pos != 0 { None } else { Some(out) }
}

/// `email._encoded_words.decode_b`: strict with repaired padding, then lenient,
/// then lenient with `==` added, else the input unchanged.
pub(crate) fn decode_b(encoded: &[u8]) -> (Vec<u8>, Vec<DefectKind>) {
    let pad_err = encoded.len() % 4;
    let mut padded = encoded.to_vec();
    if pad_err != 0 {
        padded.extend(std::iter::repeat_n(b'=', 4 - pad_err));
    }
    if let Some(v) = a2b_base64(&padded, true) {
        let defects = if pad_err != 0 {
            vec![DefectKind::InvalidBase64Padding]
        } else {
            Vec::new()
        };
        return (v, defects);
    }
    if let Some(v) = a2b_base64(encoded, false) {
        return (v, vec![DefectKind::InvalidBase64Characters]);
    }
    let mut padded2 = encoded.to_vec();
    padded2.extend_from_slice(b"==");
    if let Some(v) = a2b_base64(&padded2, false) {
        return (
            v,
            vec![
                DefectKind::InvalidBase64Characters,
                DefectKind::InvalidBase64Padding,
            ],
        );
    }
    (encoded.to_vec(), vec![DefectKind::InvalidBase64Length])
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// `binascii.a2b_qp(data, header=False)` (what `quopri.decodestring` uses).
pub(crate) fn a2b_qp(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while let Some(&c) = data.get(i) {
        if c != b'=' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&n) = data.get(i) else { break };
        if n == b'\n' || n == b'\r' {
            // Soft line break: a CR skips everything up to and including the next LF.
            if n != b'\n' {
                while data.get(i).is_some_and(|&b| b != b'\n') {
                    i += 1;
                }
            }
            if i < data.len() {
                i += 1;
            }
        } else if n == b'=' {
            out.push(b'=');
            i += 1;
        } else if let (Some(h), Some(l)) =
            (hex_value(n), data.get(i + 1).and_then(|&b| hex_value(b)))
        {
            out.push((h << 4) | l);
            i += 2;
        } else {
            out.push(b'=');
        }
    }
    out
}

/// `binascii.a2b_uu(line)`; `None` is `binascii.Error`.
pub(crate) fn a2b_uu(line: &[u8]) -> Option<Vec<u8>> {
    // An empty buffer reads its terminating NUL as the length byte.
    let first = line.first().copied().unwrap_or(0);
    let mut bin_len = usize::from(first.wrapping_sub(b' ') & 0o77);
    let mut out = Vec::with_capacity(bin_len);
    let rest = line.get(1..).unwrap_or(&[]);
    let mut idx = 0usize;
    let mut left: u32 = 0;
    let mut left_bits = 0u32;
    while bin_len > 0 {
        let ch = match rest.get(idx) {
            None | Some(b'\n') | Some(b'\r') => 0,
            Some(&c) => {
                if !(b' '..=b' ' + 64).contains(&c) {
                    return None;
                }
                u32::from(c - b' ') & 0o77
            }
        };
        idx += 1;
        left = (left << 6) | ch;
        left_bits += 6;
        if left_bits >= 8 {
            left_bits -= 8;
            out.push(((left >> left_bits) & 0xff) as u8);
            left &= (1 << left_bits) - 1;
            bin_len -= 1;
        }
    }
    for &c in rest.get(idx..).unwrap_or(&[]) {
        if c != b' ' && c != b' ' + 64 && c != b'\n' && c != b'\r' {
            return None;
        }
    }
    Some(out)
}

/// Python `int(s, 8)` succeeds on these bytes.
fn is_python_octal(s: &[u8]) -> bool {
    let is_ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let start = s.iter().position(|b| !is_ws(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !is_ws(b)).map_or(start, |p| p + 1);
    let mut t = s.get(start..end).unwrap_or(&[]);
    if let Some((&b'+' | &b'-', r)) = t.split_first() {
        t = r;
    }
    let mut after_prefix = false;
    if t.len() >= 2 && t.first() == Some(&b'0') && matches!(t.get(1), Some(b'o' | b'O')) {
        t = t.get(2..).unwrap_or(&[]);
        after_prefix = true;
    }
    // Digits separated by single underscores; one may follow the prefix.
    let mut digits = 0;
    let mut prev_us = !after_prefix;
    let mut first = true;
    for &b in t {
        if b == b'_' {
            if prev_us && !(first && after_prefix) {
                return false;
            }
            prev_us = true;
        } else if (b'0'..=b'7').contains(&b) {
            digits += 1;
            prev_us = false;
        } else {
            return false;
        }
        first = false;
    }
    digits > 0 && !prev_us
}

/// Split like `bytes.splitlines()` (on `\r\n`, `\r`, `\n`), without terminators.
fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = data.get(i) {
        if b == b'\n' || b == b'\r' {
            lines.push(data.get(start..i).unwrap_or(&[]));
            i += if b == b'\r' && data.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            start = i;
        } else {
            i += 1;
        }
    }
    if start < data.len() {
        lines.push(data.get(start..).unwrap_or(&[]));
    }
    lines
}

/// `email.message._decode_uu`; `None` means Python fell back to the raw payload.
pub(crate) fn decode_uu(data: &[u8]) -> Option<Vec<u8>> {
    let lines = split_lines(data);
    let mut it = lines.into_iter();
    loop {
        let line = it.next()?;
        if let Some(rest) = line.strip_prefix(b"begin ") {
            let mode = rest.split(|&b| b == b' ').next().unwrap_or(&[]);
            if is_python_octal(mode) {
                break;
            }
        }
    }
    let mut out = Vec::new();
    for line in it {
        if line.is_empty() {
            return None;
        }
        let stripped = line
            .iter()
            .position(|b| !b" \t\r\n\x0c".contains(b))
            .map(|s| {
                let e = line
                    .iter()
                    .rposition(|b| !b" \t\r\n\x0c".contains(b))
                    .map_or(s, |e| e + 1);
                line.get(s..e).unwrap_or(&[])
            })
            .unwrap_or(&[]);
        if stripped == b"end" {
            break;
        }
        match a2b_uu(line) {
            Some(v) => out.extend(v),
            None => {
                // Python's workaround for encoders that pad lines too far.
                let first = usize::from(line.first().copied().unwrap_or(0));
                let nbytes = ((first.wrapping_sub(32) & 63) * 4 + 5) / 3;
                out.extend(a2b_uu(line.get(..nbytes.min(line.len())).unwrap_or(line))?);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_leniency() {
        assert_eq!(decode_b(b"YWJj").0, b"abc");
        assert_eq!(decode_b(b"YWI").0, b"ab");
        assert_eq!(decode_b(b"Y!WJj").0, b"abc");
        assert_eq!(decode_b(b"Y").0, b"Y");
    }

    #[test]
    fn qp() {
        assert_eq!(a2b_qp(b"a=3d=3Db=\nc=\r\nd=zz="), b"a==bcd=zz");
    }

    #[test]
    fn octal() {
        for (s, ok) in [
            (&b"644"[..], true),
            (b"0o_6", true),
            (b"0_7", true),
            (b"_7", false),
            (b"7_", false),
            (b"7__7", false),
            (b"-7", true),
            (b"8", false),
            (b"", false),
            (b"0o", false),
        ] {
            assert_eq!(is_python_octal(s), ok, "{s:?}");
        }
    }
}
