//! `PyJson`: Python's `json.loads` as jsonpatch calls it (duplicate keys become lists).

use crate::source::{Mark, SourceId, Span};
use crate::yaml::value::{Entries, Int, Map, Node, PyStrBuilder, Seq, Value, insert};

/// A JSON syntax error; Python raises `json.JSONDecodeError` (a `ValueError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{msg}: line {} column {} (char {char_index})", .mark.line + 1, .mark.column + 1)]
pub struct JsonSyntaxError {
    /// Python's message ("Expecting value", "Extra data", …).
    pub msg: &'static str,
    /// Where.
    pub mark: Mark,
    /// Python's character offset.
    pub char_index: usize,
    /// Nesting too deep: Python raises `RecursionError`, not `ValueError`.
    pub recursion: bool,
}

/// Parses JSON text the way CPython's C scanner does (`NaN`, `Infinity`,
/// unbounded ints, lone `\uD800` escapes kept), applying jsonpatch's
/// `multidict` hook: a key given several times maps to the list of its values.
pub fn parse_py_json(
    text: &str,
    source: SourceId,
    max_depth: usize,
) -> Result<Node, JsonSyntaxError> {
    parse_py_json_wtf8(text.as_bytes(), source, max_depth)
}

/// [`parse_py_json`] over a Python string's generalized-UTF-8 bytes
/// ([`PyStr::as_wtf8`](crate::yaml::value::PyStr::as_wtf8)): a lone surrogate
/// (from a `surrogateescape`-decoded payload) inside a JSON string is kept, as
/// Python's `json` keeps it; anywhere else it is a syntax error, as there.
pub fn parse_py_json_wtf8(
    text: &[u8],
    source: SourceId,
    max_depth: usize,
) -> Result<Node, JsonSyntaxError> {
    parse_with(text, source, max_depth, true)
}

/// Python's plain `json.loads(text)` (as `util.load_json` calls it for
/// instance data): a key given several times keeps its first position and
/// its last value, as a `dict` assignment does.
pub fn parse_py_json_plain(
    text: &[u8],
    source: SourceId,
    max_depth: usize,
) -> Result<Node, JsonSyntaxError> {
    parse_with(text, source, max_depth, false)
}

fn parse_with(
    text: &[u8],
    source: SourceId,
    max_depth: usize,
    multidict: bool,
) -> Result<Node, JsonSyntaxError> {
    let mut p = JsonParser {
        s: text,
        pos: 0,
        source,
        max_depth,
        depth: 0,
        multidict,
    };
    if text.starts_with("\u{FEFF}".as_bytes()) {
        return Err(p.err_at("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0));
    }
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.pos != p.s.len() {
        return Err(p.err("Extra data"));
    }
    Ok(v)
}

/// Code points in generalized UTF-8 bytes: every byte but continuation bytes
/// starts one.
fn code_points(b: &[u8]) -> usize {
    b.iter().filter(|&&c| (c & 0xC0) != 0x80).count()
}

struct JsonParser<'a> {
    /// Generalized UTF-8: chunks are cut only at ASCII bytes, so every slice
    /// taken is whole code points.
    s: &'a [u8],
    pos: usize,
    source: SourceId,
    max_depth: usize,
    depth: usize,
    /// jsonpatch's `multidict` hook (repeated keys collect a list).
    multidict: bool,
}

impl JsonParser<'_> {
    fn mark_at(&self, pos: usize) -> Mark {
        let before = self.s.get(..pos).unwrap_or(self.s);
        let line = before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = before.get(line_start..).map_or(0, code_points);
        Mark::new(pos, line as u32, column as u32)
    }

    fn err_at(&self, msg: &'static str, pos: usize) -> JsonSyntaxError {
        let mark = self.mark_at(pos);
        let char_index = self.s.get(..pos).map_or(pos, code_points);
        JsonSyntaxError {
            msg,
            mark,
            char_index,
            recursion: false,
        }
    }

    fn err(&self, msg: &'static str) -> JsonSyntaxError {
        self.err_at(msg, self.pos)
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn node(&self, value: Value, start: usize) -> Node {
        Node::new(
            value,
            Span::new(self.source, self.mark_at(start), self.mark_at(self.pos)),
        )
    }

    fn starts(&self, lit: &[u8]) -> bool {
        self.s.get(self.pos..).is_some_and(|r| r.starts_with(lit))
    }

    fn value(&mut self) -> Result<Node, JsonSyntaxError> {
        let start = self.pos;
        let lits: [(&[u8], Value); 6] = [
            (b"null", Value::Null),
            (b"true", Value::Bool(true)),
            (b"false", Value::Bool(false)),
            (b"NaN", Value::Float(crate::yaml::value::OTHER_NAN)),
            (b"Infinity", Value::Float(f64::INFINITY)),
            (b"-Infinity", Value::Float(f64::NEG_INFINITY)),
        ];
        match self.peek() {
            Some(b'"') => {
                let s = self.string()?;
                Ok(self.node(Value::Str(s), start))
            }
            Some(b'{') => self.enter(Self::object),
            Some(b'[') => self.enter(Self::array),
            Some(b'-' | b'0'..=b'9') if !self.starts(b"-Infinity") => self.number(),
            _ => {
                for (lit, v) in lits {
                    if self.starts(lit) {
                        self.pos += lit.len();
                        return Ok(self.node(v, start));
                    }
                }
                Err(self.err("Expecting value"))
            }
        }
    }

    fn enter(
        &mut self,
        f: fn(&mut Self) -> Result<Node, JsonSyntaxError>,
    ) -> Result<Node, JsonSyntaxError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            let mut e = self.err("maximum recursion depth exceeded while decoding a JSON document");
            e.recursion = true;
            return Err(e);
        }
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn number(&mut self) -> Result<Node, JsonSyntaxError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            }
            _ => return Err(self.err_at("Expecting value", start)),
        }
        let int_end = self.pos;
        let mut is_float = false;
        if self.peek() == Some(b'.') && matches!(self.s.get(self.pos + 1), Some(b'0'..=b'9')) {
            is_float = true;
            self.pos += 1;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if matches!(self.peek(), Some(b'0'..=b'9')) {
                is_float = true;
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let ascii = |r: std::ops::Range<usize>| {
            self.s
                .get(r)
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or("0")
        };
        let text = ascii(start..self.pos);
        let value = if is_float {
            Value::Float(text.parse().unwrap_or(f64::NAN))
        } else {
            let digits = ascii(start..int_end);
            let (neg, d) = match digits.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, digits),
            };
            let i = Int::parse_radix(d, 10).unwrap_or(Int::Small(0));
            Value::Int(if neg { i.neg() } else { i })
        };
        Ok(self.node(value, start))
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let h = self.s.get(at..at + 4)?;
        let t = std::str::from_utf8(h).ok()?;
        if !t.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(t, 16).ok()
    }

    fn string(&mut self) -> Result<crate::yaml::value::PyStr, JsonSyntaxError> {
        let begin = self.pos;
        self.pos += 1;
        let mut out = PyStrBuilder::new();
        loop {
            let chunk_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_wtf8(self.s.get(chunk_start..self.pos).unwrap_or_default());
            match self.peek() {
                None => return Err(self.err_at("Unterminated string starting at", begin)),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out.finish());
                }
                Some(b'\\') => {
                    let esc = self.s.get(self.pos + 1).copied();
                    let simple = match esc {
                        Some(b'"') => Some('"'),
                        Some(b'\\') => Some('\\'),
                        Some(b'/') => Some('/'),
                        Some(b'b') => Some('\u{8}'),
                        Some(b'f') => Some('\u{c}'),
                        Some(b'n') => Some('\n'),
                        Some(b'r') => Some('\r'),
                        Some(b't') => Some('\t'),
                        _ => None,
                    };
                    if let Some(c) = simple {
                        out.push(c);
                        self.pos += 2;
                        continue;
                    }
                    if esc != Some(b'u') {
                        if esc.is_none() {
                            return Err(self.err_at("Unterminated string starting at", begin));
                        }
                        return Err(self.err("Invalid \\escape"));
                    }
                    let Some(cp) = self.hex4(self.pos + 2) else {
                        return Err(self.err("Invalid \\uXXXX escape"));
                    };
                    self.pos += 6;
                    let low = if (0xD800..0xDC00).contains(&cp) && self.starts(b"\\u") {
                        self.hex4(self.pos + 2)
                            .filter(|lo| (0xDC00..0xE000).contains(lo))
                    } else {
                        None
                    };
                    if let Some(lo) = low {
                        self.pos += 6;
                        out.push_code_point(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
                        continue;
                    }
                    out.push_code_point(cp);
                }
                Some(_) => return Err(self.err("Invalid control character at")),
            }
        }
    }

    fn array(&mut self) -> Result<Node, JsonSyntaxError> {
        let start = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(self.node(Value::Seq(Seq::new(items)), start));
        }
        loop {
            self.ws();
            items.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(self.node(Value::Seq(Seq::new(items)), start));
                }
                _ => return Err(self.err("Expecting ',' delimiter")),
            }
        }
    }

    fn object(&mut self) -> Result<Node, JsonSyntaxError> {
        let start = self.pos;
        self.pos += 1;
        // (key, values in order) — jsonpatch's multidict.
        let mut pairs: Vec<(Node, Vec<Node>)> = Vec::new();
        let mut index: std::collections::HashMap<Vec<u8>, usize> = Default::default();
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(self.node(Value::Map(Map::new(Entries::default())), start));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("Expecting property name enclosed in double quotes"));
            }
            let kstart = self.pos;
            let key = self.string()?;
            let knode = self.node(Value::Str(key.clone()), kstart);
            self.ws();
            if self.peek() != Some(b':') {
                return Err(self.err("Expecting ':' delimiter"));
            }
            self.pos += 1;
            self.ws();
            let v = self.value()?;
            match index.get(key.as_wtf8()) {
                Some(&i) => {
                    if let Some(p) = pairs.get_mut(i) {
                        p.1.push(v);
                    }
                }
                None => {
                    index.insert(key.as_wtf8().to_vec(), pairs.len());
                    pairs.push((knode, vec![v]));
                }
            }
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.ws();
                    if self.peek() != Some(b'"') {
                        return Err(self.err("Expecting property name enclosed in double quotes"));
                    }
                }
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.err("Expecting ',' delimiter")),
            }
        }
        let mut entries = Entries::default();
        for (k, mut vs) in pairs {
            let v = if !self.multidict {
                vs.pop().unwrap_or_else(|| Node::synthetic(Value::Null))
            } else if vs.len() == 1 {
                vs.pop().unwrap_or_else(|| Node::synthetic(Value::Null))
            } else {
                Node::new(Value::Seq(Seq::new(vs)), k.span())
            };
            insert(&mut entries, k, v);
        }
        Ok(self.node(Value::Map(Map::new(entries)), start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::typed_json::{WalkLimits, canonical, to_typed_json};

    fn j(text: &str) -> String {
        let n = parse_py_json(text, SourceId(0), 1000).unwrap();
        canonical(&to_typed_json(&n, WalkLimits::default()).unwrap())
    }

    #[test]
    fn python_json_quirks() {
        assert_eq!(
            j(r#"{"a": 1, "a": 2, "b": NaN}"#),
            r#"{"a":[1,2],"b":{"$float":"nan"}}"#
        );
        assert_eq!(
            j("[1.5, -0, 1e5, 123456789012345678901234567890]"),
            r#"[1.5,0,100000.0,{"$bigint":"123456789012345678901234567890"}]"#
        );
        assert_eq!(j(r#""\ud83d\ude00""#), "\"\u{1F600}\"");
        let plain = parse_py_json_plain(br#"{"a": 1, "b": 0, "a": 2}"#, SourceId(0), 10).unwrap();
        assert_eq!(
            canonical(&to_typed_json(&plain, WalkLimits::default()).unwrap()),
            r#"{"a":2,"b":0}"#
        );
        assert!(parse_py_json("[1,]", SourceId(0), 10).is_err());
        assert!(parse_py_json("01", SourceId(0), 10).is_err());
        assert!(
            parse_py_json("[[[]]]", SourceId(0), 2)
                .unwrap_err()
                .recursion
        );
    }
}
