//! Block documents shaped like the fast loader's subset (cloud-config-like
//! mappings, sequences, block scalars, anchors, merges), half of them
//! mutated so they cross its edges: generated for the readers' equality test
//! (`tests/integration/yaml_readers.rs`).

use super::rng::Rng;

/// Document `i` of a seeded run: odd ones are mutated.
pub(crate) fn block_document(r: &mut Rng, i: usize) -> String {
    let mut doc = String::new();
    if r.below(4) == 0 {
        doc.push_str("#cloud-config\n");
    }
    for _ in 0..1 + r.below(4) {
        doc.push_str(r.pick::<&str>(&["k", "a1", "<<", "'x'", "k2"]));
        doc.push(':');
        block(r, 2, 3, &mut doc);
    }
    if i % 2 == 1 { mutate(r, &doc) } else { doc }
}

const SCALARS: &[&str] = &[
    "x",
    "a b",
    "yes",
    "~",
    "null",
    "1",
    "-1",
    "0x1f",
    "1.5",
    ".inf",
    "2001-12-14",
    "<<",
    "=",
    "'q'",
    "'it''s'",
    "\"d\\tq\"",
    // Longer plain scalars: the block scan reads eight bytes at a time, so
    // its stops (`:`, `#`, spaces, line ends) fall at every word offset.
    "abcdefg:hijklmn # c",
    "a b c d e f g h i j   ",
    "http://example.com:8080/x#frag",
    "ssh-rsa AAAAB3NzaC1yc2E user@host #",
    "x         #y z: w",
    "'a quoted value that''s longer than eight' ",
    "\"escaped \\\" quote and \\\\ backslash\"",
    "\"\\x41\"",
    "\"\\ud800\"",
    "*a1",
    "*a2",
    "&a1 v",
    "&a2 w",
    "[a, b]",
    "{k: v, l: [1]}",
    "[]",
    "{}",
    "a#b",
    "a # c",
    "-x",
    "a:b",
    "[ sh, -c, 'x' ]",
    "\"\"",
    "''",
    "&a3",
    "|",
    ">-",
    "|+",
    "|2",
];

/// A block node after `key:` or `-` at `indent`.
fn block(r: &mut Rng, indent: usize, depth: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match r.below(if depth == 0 { 1 } else { 5 }) {
        0 => {
            let s = r.pick::<&str>(SCALARS);
            out.push(' ');
            out.push_str(s);
            out.push('\n');
            if s.starts_with(['|', '>']) {
                for _ in 0..r.below(4) {
                    let extra = " ".repeat(r.below(3));
                    out.push_str(&format!(
                        "{pad}  {extra}{}\n",
                        r.pick::<&str>(&["l", "m n", ""])
                    ));
                }
            }
        }
        1 | 2 => {
            out.push_str(r.pick::<&str>(&["\n", " # c\n", " &a4\n", "\n\n"]));
            let inner = indent
                + r.pick::<&str>(&["2", "2", "4", "1", "0"])
                    .parse::<usize>()
                    .unwrap();
            let ipad = " ".repeat(inner);
            for _ in 0..1 + r.below(3) {
                out.push_str(&ipad);
                if r.below(2) == 0 {
                    out.push('-');
                    block(r, inner + 2, depth - 1, out);
                } else {
                    out.push_str(r.pick::<&str>(&["k", "key", "'q k'", "\"d\"", "1", "<<", "k"]));
                    out.push(':');
                    block(r, inner + 2, depth - 1, out);
                }
            }
        }
        3 => {
            // A compact mapping in a sequence.
            out.push('\n');
            out.push_str(&format!("{pad}- a:"));
            block(r, indent + 4, depth - 1, out);
            out.push_str(&format!("{pad}  b:"));
            block(r, indent + 4, depth - 1, out);
        }
        _ => {
            out.push_str(" |\n");
            for _ in 0..1 + r.below(3) {
                out.push_str(&format!(
                    "{pad}  {}\n",
                    r.pick::<&str>(&["text", "  more", "", "# h"])
                ));
            }
        }
    }
}

fn mutate(r: &mut Rng, doc: &str) -> String {
    const NOISE: &[&str] = &[
        " ", "  ", "\n", ":", "-", "#", "'", "\"", "|", ">", "[", "]", "{", "}", ",", "&", "*",
        "1", "a", "\\", "- ", ": ", "\t", "?", "!", "%", "---", "...", "+", "é",
    ];
    let mut s = doc.to_owned();
    for _ in 0..1 + r.below(3) {
        let at = r.below(s.len() + 1);
        if !s.is_char_boundary(at) {
            continue;
        }
        match r.below(3) {
            0 if at < s.len() && s.is_char_boundary(at + 1) => {
                s.remove(at);
            }
            1 => s.insert_str(at, r.pick::<&str>(NOISE)),
            _ => s.truncate(at),
        }
    }
    s
}
