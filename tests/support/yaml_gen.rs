//! The YAML differential's document generator: seeded documents with every
//! scalar form, tags, anchors/aliases, merge keys and block/flow mixes, a share
//! of them byte-mutated. Used against PyYAML (`tests/oracle/yaml_differential.rs`)
//! and to hold the loader's readers equal (`tests/integration/yaml_readers.rs`).

use super::rng::Rng;
use super::yaml_outcome::Input;

const PLAIN: &[&str] = &[
    "yes",
    "No",
    "ON",
    "off",
    "true",
    "False",
    "y",
    "n",
    "~",
    "null",
    "NULL",
    "Null",
    "0",
    "-0",
    "+7",
    "007",
    "0755",
    "08",
    "0o17",
    "0b101",
    "0b2",
    "0x1F",
    "0x_",
    "0xg",
    "1_000",
    "12",
    "-12",
    "123456789012345678901234567890",
    "9223372036854775808",
    "1:30",
    "-1:30:59",
    "1:60",
    "0:30",
    "190:20:30",
    "1.0",
    "1.",
    ".5",
    "._",
    "-1.5e+3",
    "1e3",
    "1.0e3",
    "1.0e+3",
    "1_0.0_1",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "-.nan",
    "1:30.5",
    "0:30.25",
    "1.0e+999",
    "4.9e-324",
    "2002-12-14",
    "2002-1-14",
    "2002-13-14",
    "2002-02-29",
    "2004-02-29",
    "0000-01-01",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14T21:59:43Z",
    "2001-12-15T2:59:43.1234567+05:30",
    "2001-12-14T24:00:00",
    "2001-12-14T23:59:59+24",
    "2001-12-14 21:59:43.10 -5",
    "<<",
    "=",
    "a",
    "b",
    "c",
    "key",
    "value",
    "hello world",
    "x-y",
    "a.b",
    "1 2",
    "@",
    "-",
    "?",
    ":",
    "%",
    "!",
    "&",
    "*",
    "a:b",
    "a #b",
    "é",
    "\u{1F600}",
    "nan",
    "inf",
    "Yes please",
];

const TAGS: &[&str] = &[
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!str",
    "!!timestamp",
    "!!binary",
    "!",
    "!foo",
    "!!merge",
    "!!value",
    "!!python/unicode",
    "!<tag:yaml.org,2002:str>",
];

const COLLECTION_TAGS: &[&str] = &[
    "!!set", "!!omap", "!!pairs", "!!seq", "!!map", "!!str", "!foo", "!", "!!merge",
];

const B64: &[&str] = &[
    "aGVsbG8K",
    "YQ==",
    "YQ",
    "a",
    "ab=c",
    "é",
    "'aGVs bG8K'",
    "''",
];

struct Gen<'r> {
    rng: &'r mut Rng,
    anchors: Vec<String>,
    next_anchor: usize,
}

impl Gen<'_> {
    fn props(&mut self, tags: &[&str], tag_pct: u32) -> String {
        let mut p = String::new();
        if self.rng.chance(12) {
            // Mostly fresh anchors, sometimes a duplicate.
            let name = if !self.anchors.is_empty() && self.rng.chance(5) {
                self.anchors[self.rng.below(self.anchors.len())].clone()
            } else {
                self.next_anchor += 1;
                format!("a{}", self.next_anchor)
            };
            p.push('&');
            p.push_str(&name);
            p.push(' ');
            self.anchors.push(name);
        }
        if self.rng.chance(tag_pct) {
            p.push_str(self.rng.pick_copy(tags));
            p.push(' ');
        }
        p
    }

    fn alias(&mut self) -> Option<String> {
        if self.anchors.is_empty() || !self.rng.chance(10) {
            return None;
        }
        if self.rng.chance(3) {
            return Some("*nope".into());
        }
        Some(format!(
            "*{}",
            self.anchors[self.rng.below(self.anchors.len())]
        ))
    }

    fn scalar(&mut self, flow: bool) -> String {
        if let Some(a) = self.alias() {
            return a;
        }
        let props = self.props(TAGS, 15);
        let text = if props.contains("!!binary") && self.rng.chance(70) {
            self.rng.pick_copy(B64).to_owned()
        } else {
            self.rng.pick_copy(PLAIN).to_owned()
        };
        let indicator = text.starts_with([
            '@', '%', '!', '&', '*', '?', ':', '#', '|', '>', '\'', '"', '`',
        ]) || text == "-";
        let special = text.is_empty()
            || indicator
            || text.contains(": ")
            || text.contains(" #")
            || (flow && text.contains([',', '[', ']', '{', '}']));
        let ok_plain = !special;
        let quoted = match self.rng.below(12) {
            10 => {
                let esc = self.rng.pick_copy(&[
                    "\\ud800",
                    "\\udc80",
                    "\\x41",
                    "\\u00e9",
                    "\\U0001F600",
                    "\\t",
                    "\\n",
                    "\\_",
                    "\\0",
                    "\\e",
                    "\\N",
                    "\\L",
                    "\\ ",
                ]);
                format!("\"{text}{esc}\"").replace("\\\"", "\"")
            }
            0 => format!("'{}'", text.replace('\'', "''")),
            1 => format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
            _ if ok_plain || text.len() == 1 && self.rng.chance(30) => text,
            _ => format!("'{text}'"),
        };
        format!("{props}{quoted}")
    }

    fn key(&mut self, flow: bool) -> String {
        match self.rng.below(40) {
            0..=1 => "<<".into(),
            2 => "[k1, k2]".into(),
            3 => "{k: v}".into(),
            _ => self.scalar(flow),
        }
    }

    fn merge_value(&mut self) -> String {
        match self.rng.below(6) {
            0 | 1 if !self.anchors.is_empty() => {
                format!("*{}", self.anchors[self.rng.below(self.anchors.len())])
            }
            2 if !self.anchors.is_empty() => {
                let n = 1 + self.rng.below(3);
                let items: Vec<String> = (0..n)
                    .map(|_| format!("*{}", self.anchors[self.rng.below(self.anchors.len())]))
                    .collect();
                format!("[{}]", items.join(", "))
            }
            3 | 4 => "{m1: 1, m2: [x]}".into(),
            _ => self.scalar(true),
        }
    }

    fn flow(&mut self, depth: usize) -> String {
        if depth == 0 || self.rng.chance(45) {
            return self.scalar(true);
        }
        if let Some(a) = self.alias() {
            return a;
        }
        let props = self.props(COLLECTION_TAGS, 10);
        let n = self.rng.below(4);
        if self.rng.chance(50) {
            let items: Vec<String> = (0..n).map(|_| self.flow(depth - 1)).collect();
            format!("{props}[{}]", items.join(", "))
        } else {
            let items: Vec<String> = (0..n)
                .map(|_| {
                    let k = self.key(true);
                    if k == "<<" {
                        format!("<<: {}", self.merge_value())
                    } else if self.rng.chance(10) {
                        k
                    } else {
                        format!("{k}: {}", self.flow(depth - 1))
                    }
                })
                .collect();
            format!("{props}{{{}}}", items.join(", "))
        }
    }

    /// A block node at `indent`, written after a key/entry indicator
    /// (`inline`: the text starts on the indicator's line).
    fn block(&mut self, indent: usize, depth: usize, out: &mut String) {
        let pad = " ".repeat(indent);
        match self.rng.below(if depth == 0 { 1 } else { 6 }) {
            0 => {
                out.push(' ');
                let v = self.flow(depth.min(2));
                out.push_str(&v);
                out.push('\n');
            }
            1 => {
                let props = self.props(COLLECTION_TAGS, 8);
                if !props.is_empty() {
                    out.push(' ');
                    out.push_str(props.trim_end());
                }
                out.push('\n');
                for _ in 0..1 + self.rng.below(3) {
                    out.push_str(&pad);
                    out.push('-');
                    self.block(indent + 2, depth - 1, out);
                }
            }
            2 => {
                let props = self.props(COLLECTION_TAGS, 8);
                if !props.is_empty() {
                    out.push(' ');
                    out.push_str(props.trim_end());
                }
                out.push('\n');
                for _ in 0..1 + self.rng.below(4) {
                    out.push_str(&pad);
                    let k = self.key(false);
                    out.push_str(&k);
                    out.push(':');
                    if k == "<<" {
                        out.push(' ');
                        let m = self.merge_value();
                        out.push_str(&m);
                        out.push('\n');
                    } else {
                        self.block(indent + 2, depth - 1, out);
                    }
                }
            }
            4 => {
                // `!!set` / `!!omap` / complex keys in block form.
                let head = self
                    .rng
                    .pick_copy(&[" !!set", " !!omap", " !!pairs", "", " # note"]);
                out.push_str(head);
                out.push('\n');
                for _ in 0..1 + self.rng.below(3) {
                    out.push_str(&pad);
                    if head.contains("omap") || head.contains("pairs") {
                        out.push_str("- ");
                        let k = self.scalar(false);
                        out.push_str(&k);
                        out.push_str(": ");
                        let v = self.flow(1);
                        out.push_str(&v);
                        out.push('\n');
                    } else {
                        out.push_str("? ");
                        let k = self.flow(1);
                        out.push_str(&k);
                        out.push('\n');
                        if self.rng.chance(60) {
                            out.push_str(&pad);
                            out.push(':');
                            self.block(indent + 2, depth - 1, out);
                        }
                    }
                }
            }
            5 => {
                // A multi-line plain scalar, maybe followed by a comment.
                out.push(' ');
                out.push_str(
                    self.rng
                        .pick_copy(PLAIN)
                        .trim_start_matches(['-', '?', ':']),
                );
                out.push('\n');
                out.push_str(&" ".repeat(indent.max(1)));
                out.push_str(self.rng.pick_copy(&["more", "1.5", "yes", "x y"]));
                out.push_str(self.rng.pick_copy(&["\n", " # c\n", "\n\n"]));
            }
            _ => {
                out.push_str(if self.rng.chance(50) { " |\n" } else { " >-\n" });
                // Block scalar content needs some indentation even at the top.
                let pad = " ".repeat(indent.max(1));
                for _ in 0..1 + self.rng.below(3) {
                    out.push_str(&pad);
                    out.push_str(self.rng.pick_copy(PLAIN));
                    out.push('\n');
                }
            }
        }
    }

    fn document(&mut self) -> String {
        let mut out = String::new();
        match self.rng.below(30) {
            0 => out.push_str("%YAML 1.1\n--- "),
            1 => out.push_str("%TAG !e! tag:example.com,2000:\n--- "),
            2 => out.push_str("# comment\n"),
            3..=5 => out.push_str("--- "),
            _ => {}
        }
        match self.rng.below(3) {
            0 => {
                let v = self.flow(3);
                out.push_str(&v);
                out.push('\n');
            }
            _ => {
                // A block mapping or sequence at the top.
                let mut body = String::new();
                self.block(0, 3, &mut body);
                out.push_str(body.trim_start_matches(' '));
            }
        }
        match self.rng.below(20) {
            0 => out.push_str("...\n"),
            1 => out.push_str("--- x\n"),
            _ => {}
        }
        out
    }
}

const NOISE: &[u8] = b":-?[]{},&*!|>'\"#%@`\n\t =<~.0123456789abcxyzZ_\\";

fn mutate(rng: &mut Rng, doc: &[u8]) -> Vec<u8> {
    let mut b = doc.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(b.len() + 1);
        match rng.below(6) {
            0 if at < b.len() => {
                b.remove(at);
            }
            1 => b.insert(at, NOISE[rng.below(NOISE.len())]),
            2 if at < b.len() => b[at] = NOISE[rng.below(NOISE.len())],
            3 => b.truncate(at),
            4 => b.insert(at, [0x80, 0xC3, 0xFF, 0xEF, 0x00, 0x85][rng.below(6)]),
            _ => {
                let end = (at + rng.below(12)).min(b.len());
                let chunk = b[at.min(end)..end].to_vec();
                let to = rng.below(b.len() + 1);
                b.splice(to..to, chunk);
            }
        }
    }
    b
}

pub(crate) fn generate(rng: &mut Rng) -> Input {
    let doc = Gen {
        rng,
        anchors: Vec::new(),
        next_anchor: 0,
    }
    .document();
    if rng.chance(35) {
        let bytes = mutate(rng, doc.as_bytes());
        match String::from_utf8(bytes) {
            Ok(s) => Input::Text(s),
            Err(e) => Input::Bytes(e.into_bytes()),
        }
    } else {
        Input::Text(doc)
    }
}
