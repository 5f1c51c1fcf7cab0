//! `raw_unicode_escape`: Python's `str.encode('raw-unicode-escape')`, the 8-bit MIME quirk.

/// U+0000..U+00FF become one byte each; higher code points become the ASCII
/// text `\uXXXX` or `\UXXXXXXXX` (lower-case hex). This is what Python's
/// `email` hands cloud-init for an 8-bit text part, silently altering it.
pub fn raw_unicode_escape(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let cp = u32::from(c);
        if let Ok(b) = u8::try_from(cp) {
            out.push(b);
        } else if cp < 0x10000 {
            out.extend_from_slice(format!("\\u{cp:04x}").as_bytes());
        } else {
            out.extend_from_slice(format!("\\U{cp:08x}").as_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quirk() {
        assert_eq!(
            super::raw_unicode_escape("a: é€😀"),
            b"a: \xe9\\u20ac\\U0001f600"
        );
    }
}
