//! `JsonWriter`: pretty JSON appended by hand, byte for byte as `serde_json::to_writer_pretty` writes it.
//!
//! For documents of millions of small objects (`explain --format json` of a
//! huge list), where serde's calls per token into a buffered writer were a
//! third of the work. Strings are escaped in one scan that copies runs of
//! plain bytes at once; keys are the caller's constants; any other value
//! (a number, a typed-JSON marker) is serialized by serde_json itself and
//! indented to its place, so its text cannot drift from serde_json's.

use crate::byte_scan::find_below_or_any;
use std::io::{self, Write};

/// Bytes gathered before they are handed to the writer.
const CHUNK: usize = 64 << 10;

/// A separator and a line break with its indentation, copied whole: from
/// 0 (`,` first) or 1, to 2 + the indentation (deeper levels copy the
/// spaces again).
const BREAK: &[u8; 66] = b",\n                                                                ";

/// The most of [`BREAK`] copied at a fixed size (a separator and 15 levels).
const FIXED_BREAK: usize = 32;

/// A pretty JSON text being written to `out`: open containers with
/// [`JsonWriter::begin_object`] / [`JsonWriter::begin_array`], start each
/// member with [`JsonWriter::key`] and each element with
/// [`JsonWriter::element`], then write its value.
#[derive(Debug)]
pub(crate) struct JsonWriter<W: Write> {
    out: W,
    buf: Vec<u8>,
    /// Open containers.
    depth: usize,
    /// Whether the innermost open container has nothing in it yet (`[]`, `{}`).
    empty: bool,
    /// A value serde_json writes, before it is indented into `buf`.
    scratch: Vec<u8>,
}

impl<W: Write> JsonWriter<W> {
    pub(crate) fn new(out: W) -> Self {
        JsonWriter {
            out,
            buf: Vec::with_capacity(CHUNK + 4096),
            depth: 0,
            empty: false,
            scratch: Vec::new(),
        }
    }

    pub(crate) fn begin_object(&mut self) {
        self.open(b'{');
    }

    pub(crate) fn end_object(&mut self) {
        self.close(b'}');
    }

    pub(crate) fn begin_array(&mut self) {
        self.open(b'[');
    }

    pub(crate) fn end_array(&mut self) {
        self.close(b']');
    }

    fn open(&mut self, c: u8) {
        self.buf.push(c);
        self.depth += 1;
        self.empty = true;
    }

    fn close(&mut self, c: u8) {
        self.depth = self.depth.saturating_sub(1);
        if !self.empty {
            self.newline();
        }
        self.buf.push(c);
        // The enclosing container holds this one.
        self.empty = false;
    }

    /// A line break and the indentation, after a `,` when `comma`.
    #[inline(always)]
    fn line_break(&mut self, comma: bool) {
        let from = usize::from(!comma);
        let len = 2 + 2 * self.depth - from;
        // Usual depths: a fixed-size copy (moves, not a `memcpy` call),
        // then cut to length.
        if len <= FIXED_BREAK
            && let Some(run) = BREAK.get(from..from + FIXED_BREAK)
        {
            let at = self.buf.len();
            self.buf.extend_from_slice(run);
            self.buf.truncate(at + len);
            return;
        }
        self.buf
            .extend_from_slice(BREAK.get(from..2).unwrap_or_default());
        let mut n = 2 * self.depth;
        while n > 0 {
            let k = n.min(BREAK.len() - 2);
            self.buf
                .extend_from_slice(BREAK.get(2..2 + k).unwrap_or_default());
            n -= k;
        }
    }

    fn newline(&mut self) {
        self.line_break(false);
    }

    #[inline(always)]
    fn separate(&mut self) {
        let comma = !self.empty;
        self.empty = false;
        self.line_break(comma);
    }

    /// Start a member of the open object: `key` is a constant name that
    /// needs no escaping.
    #[inline(always)]
    pub(crate) fn key(&mut self, key: &str) {
        debug_assert!(!key.bytes().any(needs_escape), "{key:?}");
        self.buf.reserve(2 * self.depth + key.len() + 6);
        self.separate();
        self.buf.push(b'"');
        self.buf.extend_from_slice(key.as_bytes());
        self.buf.extend_from_slice(b"\": ");
    }

    /// Start an element of the open array.
    pub(crate) fn element(&mut self) {
        self.separate();
    }

    /// A string, escaped as serde_json escapes it: `\"`, `\\`, the short
    /// escapes of `\b \f \n \r \t`, other control bytes as `\u00xx`; every
    /// other character (`/`, DEL, non-ASCII) as it is.
    pub(crate) fn str(&mut self, s: &str) {
        self.utf8(s.as_bytes());
    }

    /// [`JsonWriter::str`] of a string's UTF-8 bytes, for a caller that
    /// holds them checked already (not checked again here).
    pub(crate) fn utf8(&mut self, s: &[u8]) {
        self.buf.reserve(s.len() + 2);
        self.buf.push(b'"');
        let mut rest = s;
        while let Some(i) = find_below_or_any(rest, 0x20, [b'"', b'\\']) {
            let Some((plain, tail)) = rest.split_at_checked(i) else {
                break;
            };
            self.buf.extend_from_slice(plain);
            let Some((&b, tail)) = tail.split_first() else {
                break;
            };
            match b {
                b'"' => self.buf.extend_from_slice(b"\\\""),
                b'\\' => self.buf.extend_from_slice(b"\\\\"),
                0x08 => self.buf.extend_from_slice(b"\\b"),
                0x0c => self.buf.extend_from_slice(b"\\f"),
                b'\n' => self.buf.extend_from_slice(b"\\n"),
                b'\r' => self.buf.extend_from_slice(b"\\r"),
                b'\t' => self.buf.extend_from_slice(b"\\t"),
                _ => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let hex = |d: u8| HEX.get(usize::from(d & 0xf)).copied().unwrap_or(b'0');
                    self.buf
                        .extend_from_slice(&[b'\\', b'u', b'0', b'0', hex(b >> 4), hex(b)]);
                }
            }
            rest = tail;
        }
        self.buf.extend_from_slice(rest);
        self.buf.push(b'"');
    }

    /// A string, or `null`.
    pub(crate) fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.str(s),
            None => self.null(),
        }
    }

    /// An unsigned integer (its decimal digits, as serde_json writes them:
    /// with `itoa`).
    pub(crate) fn uint(&mut self, n: impl Into<u64>) {
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(n.into()).as_bytes());
    }

    /// A `usize` (an index, a count, a part number).
    pub(crate) fn usize(&mut self, n: usize) {
        self.uint(u64::try_from(n).unwrap_or(u64::MAX));
    }

    pub(crate) fn null(&mut self) {
        self.buf.extend_from_slice(b"null");
    }

    pub(crate) fn bool(&mut self, b: bool) {
        self.buf
            .extend_from_slice(if b { b"true" } else { b"false" });
    }

    /// Any other value, serialized by serde_json pretty and indented to the
    /// current depth (its text holds no line break but its own: strings
    /// in JSON escape theirs).
    pub(crate) fn serialized<T: serde::Serialize + ?Sized>(&mut self, v: &T) -> io::Result<()> {
        self.scratch.clear();
        serde_json::to_writer_pretty(&mut self.scratch, v)?;
        let text = std::mem::take(&mut self.scratch);
        let mut lines = text.split(|&b| b == b'\n');
        if let Some(first) = lines.next() {
            self.buf.extend_from_slice(first);
        }
        for line in lines {
            self.newline();
            self.buf.extend_from_slice(line);
        }
        self.scratch = text;
        Ok(())
    }

    /// Hand what is gathered to the writer once it is a chunk.
    pub(crate) fn gathered(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Write the rest, flush, and give the writer back.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        self.out.write_all(&self.buf)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Whether serde_json escapes the byte in a string.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

#[cfg(test)]
mod tests {
    use super::JsonWriter;
    use proptest::prelude::*;

    fn written(f: impl FnOnce(&mut JsonWriter<Vec<u8>>)) -> String {
        let mut w = JsonWriter::new(Vec::new());
        f(&mut w);
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    #[test]
    fn every_byte_class_as_serde_json() {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("é/\u{2028}\u{2029}\u{7f}\u{10ffff}𝄞\"\\");
        for s in [
            all.as_str(),
            "",
            "plain",
            "\"",
            "\\",
            "\u{0}",
            "a\nb\tc\r\u{1f}",
        ] {
            assert_eq!(
                written(|w| w.str(s)),
                serde_json::to_string_pretty(s).unwrap()
            );
        }
    }

    #[test]
    fn containers_numbers_and_values_as_serde_json() {
        let j = serde_json::json!({
            "a": [],
            "b": {},
            "c": [1, {"d": null, "e": [true, false]}, []],
            "f": u64::MAX,
            "g": {"$float": "nan"},
            "h": [1.5, -2, {"$set": [[1, 2], {}]}],
        });
        let text = written(|w| {
            w.begin_object();
            w.key("a");
            w.begin_array();
            w.end_array();
            w.key("b");
            w.begin_object();
            w.end_object();
            w.key("c");
            w.begin_array();
            w.element();
            w.uint(1u8);
            w.element();
            w.begin_object();
            w.key("d");
            w.null();
            w.key("e");
            w.begin_array();
            w.element();
            w.bool(true);
            w.element();
            w.bool(false);
            w.end_array();
            w.end_object();
            w.element();
            w.begin_array();
            w.end_array();
            w.end_array();
            w.key("f");
            w.uint(u64::MAX);
            w.key("g");
            w.serialized(&serde_json::json!({"$float": "nan"})).unwrap();
            w.key("h");
            w.serialized(&serde_json::json!([1.5, -2, {"$set": [[1, 2], {}]}]))
                .unwrap();
            w.end_object();
        });
        assert_eq!(text, serde_json::to_string_pretty(&j).unwrap());
    }

    proptest! {
        #[test]
        fn strings_as_serde_json(
            s in prop_oneof![any::<String>(), "[\\x00-\\x7f\u{2028}\u{2029}é𝄞]{0,40}"],
            n in any::<u64>(),
        ) {
            let text = written(|w| {
                w.begin_array();
                w.element();
                w.str(&s);
                w.element();
                w.uint(n);
                w.end_array();
            });
            let j = serde_json::json!([s, n]);
            prop_assert_eq!(text, serde_json::to_string_pretty(&j).unwrap());
        }
    }
}
