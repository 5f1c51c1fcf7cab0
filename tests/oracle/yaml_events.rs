//! The YAML reader/scanner/parser against PyYAML 6.0.3, live: seeded generated and
//! mutated documents. The recorded corpus is in tests/integration/yaml_events.rs.

use crate::support::yaml_events_fmt::*;
use std::io::Write;
use std::process::{Command, Stdio};

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

// ----- the recorded corpus -----

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
#[ignore = "needs python3 with PyYAML 6.0.3: scripts/conformance.sh runs it"]
fn generated_documents_match_pyyaml() {
    assert!(
        python_available(),
        "python3 with PyYAML 6.0.3 is not available"
    );
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
