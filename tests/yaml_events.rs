//! Differential tests of the YAML reader/scanner/parser against PyYAML 6.0.3:
//! a recorded corpus (fixtures/yaml-events/) and, when python3 + PyYAML are
//! available, seeded generated and mutated documents compared live.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use base64::Engine;
use cloudfold::source::Mark;
use cloudfold::yaml::{
    Event, EventKind, Parser, PyErrorClass, ScalarStyle, ScalarText, YamlError, decode_input,
};
use std::io::Write;
use std::process::{Command, Stdio};

// ----- canonical formatting (mirrors scripts/yaml_events.py) -----

/// JSON string encoding as Python's `json.dumps(..., ensure_ascii=True)`.
fn js_units(out: &mut String, units: impl Iterator<Item = u32>) {
    out.push('"');
    for cp in units {
        match cp {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x0A => out.push_str("\\n"),
            0x0D => out.push_str("\\r"),
            0x09 => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0C => out.push_str("\\f"),
            0x20..=0x7E => out.push(char::from_u32(cp).unwrap()),
            0x10000.. => {
                let v = cp - 0x10000;
                out.push_str(&format!(
                    "\\u{:04x}\\u{:04x}",
                    0xD800 + (v >> 10),
                    0xDC00 + (v & 0x3FF)
                ));
            }
            _ => out.push_str(&format!("\\u{cp:04x}")),
        }
    }
    out.push('"');
}

fn js(s: &str) -> String {
    let mut o = String::new();
    js_units(&mut o, s.chars().map(u32::from));
    o
}

fn js_opt(s: Option<&str>) -> String {
    s.map_or("-".to_owned(), js)
}

fn mk(text: &str, m: Mark) -> String {
    let ci = text
        .get(..m.index)
        .map_or(usize::MAX, |p| p.chars().count());
    format!("{}:{}:{}", m.line, m.column, ci)
}

fn fmt_event(text: &str, ev: &Event<'_>) -> String {
    let span = format!("@{}-{}", mk(text, ev.start), mk(text, ev.end));
    match &ev.kind {
        EventKind::StreamStart => format!("StreamStart {span}"),
        EventKind::StreamEnd => format!("StreamEnd {span}"),
        EventKind::SequenceEnd => format!("SequenceEnd {span}"),
        EventKind::MappingEnd => format!("MappingEnd {span}"),
        EventKind::DocumentStart { explicit, version } => {
            let v = version.map_or("-".to_owned(), |(a, b)| format!("{a}.{b}"));
            format!(
                "DocumentStart explicit={} version={v} {span}",
                u8::from(*explicit)
            )
        }
        EventKind::DocumentEnd { explicit } => {
            format!("DocumentEnd explicit={} {span}", u8::from(*explicit))
        }
        EventKind::Alias { anchor } => format!("Alias anchor={} {span}", js(anchor)),
        EventKind::Scalar {
            props,
            implicit,
            value,
            style,
        } => {
            let imp: String = [implicit.0, implicit.1]
                .iter()
                .map(|&b| if b { 'T' } else { 'F' })
                .collect();
            let st = match style {
                ScalarStyle::Plain => "plain",
                ScalarStyle::SingleQuoted => "single",
                ScalarStyle::DoubleQuoted => "double",
                ScalarStyle::Literal => "literal",
                ScalarStyle::Folded => "folded",
            };
            let mut v = String::new();
            match value {
                ScalarText::Text(t) => js_units(&mut v, t.chars().map(u32::from)),
                ScalarText::Wide(p) => js_units(&mut v, p.chars()),
            }
            format!(
                "Scalar anchor={} tag={} implicit={imp} style={st} value={v} {span}",
                js_opt(props.anchor.as_deref()),
                js_opt(props.tag.as_deref())
            )
        }
        EventKind::SequenceStart {
            props,
            implicit,
            flow,
        }
        | EventKind::MappingStart {
            props,
            implicit,
            flow,
        } => {
            let name = if matches!(ev.kind, EventKind::SequenceStart { .. }) {
                "SequenceStart"
            } else {
                "MappingStart"
            };
            format!(
                "{name} anchor={} tag={} implicit={} flow={} {span}",
                js_opt(props.anchor.as_deref()),
                js_opt(props.tag.as_deref()),
                u8::from(*implicit),
                u8::from(*flow)
            )
        }
    }
}

fn fmt_error(text: &str, e: &YamlError) -> String {
    match e.class {
        PyErrorClass::Reader => {
            let m = e.mark.unwrap_or_default();
            // Printable errors count code points in the text; decoding errors bytes.
            let pos = if e.problem.ends_with("special characters are not allowed") {
                text.get(..m.index)
                    .map_or(usize::MAX, |p| p.chars().count())
            } else {
                m.index
            };
            format!(
                "ERROR ReaderError problem={} position={pos}",
                js(&e.problem)
            )
        }
        PyErrorClass::Scanner | PyErrorClass::Parser => {
            let (ctx, cm) = match &e.context {
                // PyYAML raises this one without a context mark.
                Some((c, _)) if c == "while scanning for the next token" => (js(c), "-".to_owned()),
                Some((c, m)) => (js(c), mk(text, *m)),
                None => ("-".to_owned(), "-".to_owned()),
            };
            let pm = e.mark.map_or("-".to_owned(), |m| mk(text, m));
            format!(
                "ERROR {} context={ctx} @{cm} problem={} @{pm}",
                e.class.python_name(),
                js(&e.problem)
            )
        }
        c => format!("ERROR {} problem={}", c.python_name(), js(&e.problem)),
    }
}

fn events_of_text(text: &str) -> Vec<String> {
    let mut p = Parser::new(text);
    let mut out = Vec::new();
    for _ in 0..(text.len() * 4 + 64) {
        match p.next_event() {
            Ok(ev) => {
                out.push(fmt_event(text, &ev));
                if matches!(ev.kind, EventKind::StreamEnd) {
                    return out;
                }
            }
            Err(e) => {
                out.push(fmt_error(text, &e));
                return out;
            }
        }
    }
    out.push("HANG".to_owned());
    out
}

#[derive(Clone, Debug)]
enum Case {
    Doc(String),
    Bytes(Vec<u8>),
}

impl Case {
    fn from_json(v: &serde_json::Value) -> Case {
        if let Some(b) = v.get("b64").and_then(|b| b.as_str()) {
            Case::Bytes(base64::engine::general_purpose::STANDARD.decode(b).unwrap())
        } else {
            Case::Doc(v["doc"].as_str().unwrap().to_owned())
        }
    }

    fn to_json(&self) -> String {
        match self {
            Case::Doc(d) => serde_json::json!({ "doc": d }).to_string(),
            Case::Bytes(b) => {
                serde_json::json!({ "b64": base64::engine::general_purpose::STANDARD.encode(b) })
                    .to_string()
            }
        }
    }

    fn events(&self) -> Vec<String> {
        match self {
            Case::Doc(d) => events_of_text(d),
            Case::Bytes(b) => match decode_input(b) {
                Ok(t) => events_of_text(&t),
                Err(e) => {
                    let units = |f: fn([u8; 2]) -> u16| -> String {
                        let u: Vec<u16> = b[2..].chunks_exact(2).map(|c| f([c[0], c[1]])).collect();
                        format!("\u{feff}{}", String::from_utf16_lossy(&u))
                    };
                    let text = match b.as_slice() {
                        [0xFF, 0xFE, ..] => units(u16::from_le_bytes),
                        [0xFE, 0xFF, ..] => units(u16::from_be_bytes),
                        _ => String::from_utf8_lossy(b).into_owned(),
                    };
                    vec![fmt_error(&text, &e)]
                }
            },
        }
    }
}

fn repo_root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// PyYAML's event lines for each case (one python run per batch).
fn python_events(cases: &[Case]) -> Option<Vec<Vec<String>>> {
    let mut child = Command::new("python3")
        .arg(repo_root().join("scripts/yaml_events.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut input = String::new();
    for c in cases {
        input.push_str(&c.to_json());
        input.push('\n');
    }
    let mut stdin = child.stdin.take()?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let res: Vec<Vec<String>> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (res.len() == cases.len()).then_some(res)
}

fn python_available() -> bool {
    Command::new("python3")
        .args(["-c", "import yaml; assert yaml.__version__ == '6.0.3'"])
        .status()
        .is_ok_and(|s| s.success())
}

fn report(label: &str, case: &Case, want: &[String], got: &[String]) -> String {
    let mut s = format!("--- {label}: {}\n", case.to_json());
    let n = want.len().max(got.len());
    for i in 0..n {
        let w = want.get(i).map_or("<none>", |s| s.as_str());
        let g = got.get(i).map_or("<none>", |s| s.as_str());
        if w != g {
            s.push_str(&format!(
                "  first difference at event {i}\n  want: {w}\n  got:  {g}\n"
            ));
            break;
        }
    }
    s
}

// ----- the recorded corpus -----

#[test]
fn corpus_matches_recorded_pyyaml() {
    let dir = repo_root().join("fixtures/yaml-events");
    let corpus = std::fs::read_to_string(dir.join("corpus.jsonl")).unwrap();
    let expected = std::fs::read_to_string(dir.join("expected.jsonl")).unwrap();
    let cases: Vec<serde_json::Value> = corpus
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want: Vec<Vec<String>> = expected
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        cases.len(),
        want.len(),
        "corpus and expected outputs differ in length"
    );
    assert!(cases.len() >= 150, "corpus too small");
    let mut failures = Vec::new();
    for (v, w) in cases.iter().zip(&want) {
        let case = Case::from_json(v);
        let got = case.events();
        if &got != w {
            let name = v.get("name").and_then(|n| n.as_str()).unwrap_or("?");
            failures.push(report(name, &case, w, &got));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("")
    );
    eprintln!("yaml-events corpus: {} cases agree", cases.len());
}

// ----- generated and mutated documents -----

/// xorshift64*: a small deterministic generator (no extra crate).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'s>(&mut self, xs: &[&'s str]) -> &'s str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
}

const WORDS: &[&str] = &[
    "a",
    "key",
    "b c",
    "x:y",
    "1",
    "-1",
    "0x1F",
    "~",
    "null",
    "yes",
    "é",
    "a#b",
    "a -b",
    "?x",
    "-x",
    ":x",
    "a\tb",
    "日本",
    "k.e.y",
    "{x",
    "x]",
    "a,b",
    "http://x/y?q=1#f",
    "1:30",
    "",
];

const SCALARS: &[&str] = &[
    "'q'",
    "'it''s'",
    "\"d\"",
    "\"\\t\\x41\\u00e9\\U0001F600\"",
    "\"\\uD83D\"",
    "\"a\\\n  b\"",
    "'multi\n  line'",
    "\"esc \\N\\_\\L\\P\\e\\0\\/\"",
    "\"bad \\q\"",
    "'un",
    "\"\\x4\"",
    "'a\n\n  b'",
    "\"a \n  \n b\"",
    "plain text",
    "multi\n  plain",
    "&anc v",
    "*anc",
    "!t v",
    "!!str 1",
    "!<tag:x> v",
    "!e!x v",
    "! v",
    "&a !t v",
    "!t &a v",
    "*a",
    "[a, b]",
    "{a: b}",
    "[a: b, c]",
    "{a, ? b : c}",
    "[]",
    "{}",
    "[[a]]",
    "{a: [b, {c: d}]}",
    "|\n  lit\n",
    "|-\n  lit\n\n",
    "|+\n  lit\n\n",
    ">\n  fold\n  ed\n\n  x\n",
    ">2\n   x\n  y\n",
    "|1-\n  x",
    "\"\\U00110000\"",
    "!%41 x",
    "!e!%ff x",
    "'\u{2028}x'",
    "a\u{85}b",
];

fn gen_value(r: &mut Rng, depth: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    match r.below(if depth > 3 { 3 } else { 6 }) {
        0 | 1 => r.pick(SCALARS).replace('\n', &format!("\n{pad}")),
        2 => r.pick(WORDS).to_owned(),
        3 => {
            let mut s = String::new();
            for _ in 0..1 + r.below(3) {
                s.push('\n');
                s.push_str(&pad);
                s.push_str("- ");
                s.push_str(&gen_value(r, depth + 1, indent + 2));
            }
            s
        }
        _ => {
            let mut s = String::new();
            for _ in 0..1 + r.below(3) {
                s.push('\n');
                s.push_str(&pad);
                if r.chance(10) {
                    s.push_str("? ");
                    s.push_str(r.pick(WORDS));
                    s.push('\n');
                    s.push_str(&pad);
                }
                if !r.chance(10) {
                    s.push_str(r.pick(WORDS));
                }
                s.push(':');
                if r.chance(85) {
                    s.push(' ');
                }
                s.push_str(&gen_value(r, depth + 1, indent + 2));
                if r.chance(10) {
                    s.push_str(" # c");
                }
            }
            s
        }
    }
}

fn gen_doc(r: &mut Rng) -> String {
    let mut s = String::new();
    if r.chance(10) {
        s.push_str(r.pick(&[
            "%YAML 1.1\n",
            "%TAG !e! tag:e.com,2000:\n",
            "%FOO bar\n",
            "%YAML 2.0\n",
        ]));
        s.push_str("---");
    } else if r.chance(15) {
        s.push_str("--- ");
    }
    if r.chance(10) {
        s.push_str("#cloud-config\n");
    }
    s.push_str(gen_value(r, 0, 0).trim_start_matches('\n'));
    s.push('\n');
    if r.chance(10) {
        s.push_str(r.pick(&["...\n", "---\nb: 1\n", "...\n---\nc\n", "--- |\n x\n"]));
    }
    s
}

const INSERTS: &[&str] = &[
    ": ", "- ", "\t", "#", "'", "\"", "[", "]", "{", "}", ",", "?", "\n", "  ", " ", "|", ">",
    "&a", "*a", "!t", "%", "---", "...", "\\", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{feff}", ":",
    "-", "! ", "!!", "@", "`", "\n  ", "\n- ", "? ", "\u{a0}",
];

fn mutate(r: &mut Rng, doc: &str) -> String {
    let mut chars: Vec<char> = doc.chars().collect();
    for _ in 0..1 + r.below(3) {
        let n = chars.len();
        let at = r.below(n + 1);
        match r.below(5) {
            0 | 1 => {
                let ins: Vec<char> = r.pick(INSERTS).chars().collect();
                chars.splice(at..at, ins);
            }
            2 if n > 0 => {
                let len = 1 + r.below(4);
                chars.drain(at.min(n)..(at + len).min(n));
            }
            3 if n > 0 => {
                let len = 1 + r.below(8);
                let seg: Vec<char> = chars[at.min(n)..(at + len).min(n)].to_vec();
                chars.splice(at..at, seg);
            }
            _ => {
                // Shift a line's indentation by one or two spaces.
                let line_start = chars[..at.min(n)]
                    .iter()
                    .rposition(|&c| c == '\n')
                    .map_or(0, |p| p + 1);
                if r.chance(50) {
                    chars.splice(
                        line_start..line_start,
                        [' ', ' '][..1 + r.below(2)].to_vec(),
                    );
                } else if chars.get(line_start) == Some(&' ') {
                    chars.remove(line_start);
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Pieces for character soup: short random strings over YAML's significant characters.
const SOUP: &[&str] = &[
    "a",
    "b",
    "1",
    " ",
    " ",
    "  ",
    "\n",
    "\n",
    "\n  ",
    "\t",
    ":",
    ": ",
    "-",
    "- ",
    "?",
    "? ",
    ",",
    "[",
    "]",
    "{",
    "}",
    "#",
    " #",
    "&",
    "&x",
    "*x",
    "!",
    "!!",
    "!x!",
    "|",
    ">",
    "'",
    "\"",
    "%",
    "@",
    "`",
    "\\",
    "---",
    "...",
    "\r",
    "\r\n",
    "\u{85}",
    "\u{2028}",
    "\u{2029}",
    "\u{feff}",
    "é",
    "😀",
    "\u{a0}",
    "0",
    "+",
    "2",
    "%YAML 1.1",
    "%TAG ! !",
    "\\x",
    "\\u",
    "<",
    ">",
];

fn soup(r: &mut Rng) -> String {
    (0..r.below(24)).map(|_| r.pick(SOUP)).collect()
}

fn generated_cases(seed: u64, count: usize) -> Vec<Case> {
    let mut r = Rng(seed | 1);
    (0..count)
        .map(|i| {
            let doc = gen_doc(&mut r);
            match i % 4 {
                0 => Case::Doc(doc),
                1 if r.chance(50) => Case::Doc(soup(&mut r)),
                3 if r.chance(10) => {
                    // Exercise the bytes entry point: UTF-16 with a BOM, or a stray byte.
                    let m = mutate(&mut r, &doc);
                    if r.chance(50) {
                        let mut b = vec![0xFF, 0xFE];
                        for u in m.encode_utf16() {
                            b.extend_from_slice(&u.to_le_bytes());
                        }
                        Case::Bytes(b)
                    } else {
                        let mut b = m.into_bytes();
                        let at = r.below(b.len() + 1);
                        b.insert(at, [0xFF, 0xC3, 0x80, 0x01][r.below(4)]);
                        Case::Bytes(b)
                    }
                }
                _ => Case::Doc(mutate(&mut r, &doc)),
            }
        })
        .collect()
}

#[test]
fn generated_documents_match_pyyaml() {
    if !python_available() {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("python3 with PyYAML 6.0.3 is required in CI");
        }
        eprintln!(
            "!!! SKIPPED generated_documents_match_pyyaml: python3 + PyYAML 6.0.3 not available"
        );
        return;
    }
    let count: usize = std::env::var("CLOUDFOLD_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("CLOUDFOLD_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_CAFE);
    let cases = match std::env::var("CLOUDFOLD_DIFF_FILE") {
        // Compare a given corpus-style file live instead (for investigating).
        Ok(path) => std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Case::from_json(&serde_json::from_str(l).unwrap()))
            .collect(),
        Err(_) => generated_cases(seed, count),
    };
    let count = cases.len();
    if let Ok(path) = std::env::var("CLOUDFOLD_DIFF_DUMP") {
        let lines: String = cases.iter().map(|c| c.to_json() + "\n").collect();
        std::fs::write(path, lines).unwrap();
    }
    let mut failures = Vec::new();
    let mut agree = 0;
    for batch in cases.chunks(2000) {
        let want = python_events(batch).expect("python3 scripts/yaml_events.py failed");
        for (case, w) in batch.iter().zip(&want) {
            let got = case.events();
            if &got == w {
                agree += 1;
            } else {
                failures.push(report("generated", case, w, &got));
            }
        }
    }
    eprintln!("yaml-events generated: {agree} of {count} agree (seed {seed})");
    assert!(
        failures.is_empty(),
        "{} of {count} generated cases differ:\n{}",
        failures.len(),
        failures.iter().take(15).cloned().collect::<String>()
    );
}
