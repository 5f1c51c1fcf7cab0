//! The fast loader (`yaml::load_fast`): it must take the common block-style
//! documents, and build exactly what the full pipeline builds (values, spans,
//! sharing); what it gives up on is left to the full pipeline.

use crate::support;

use crate::support::cloud_config_doc;

use cloudfold::yaml::{LoadOptions, load_fast, load_via_graph};
use support::rng::Rng;
use support::same_tree::same_tree;

/// `text` is taken by the fast loader (`taken`) or left alone, and when
/// taken built exactly as the node graph builds it.
fn check(text: &str, taken: bool) {
    let opts = LoadOptions::default();
    let fast = load_fast(text, &opts);
    let short: String = text.chars().take(300).collect();
    assert_eq!(fast.is_some(), taken, "taken? {short:?}");
    let reference = load_via_graph(text, &opts);
    match (fast, reference) {
        (None, _) => {}
        (Some(Some(a)), Ok(Some(b))) => {
            if let Err(why) = same_tree(&a, &b) {
                panic!("differs on {short:?}: {why}");
            }
        }
        (Some(None), Ok(None)) => {}
        (a, b) => panic!("differs on {short:?}: {a:?} vs {b:?}"),
    }
}

#[test]
fn takes_common_documents() {
    for t in [
        "",
        "# only a comment\n\n",
        "a: 1\n",
        "a: 1",
        "a: 1\n  \n",
        "a: 1\n   ",
        "a:\n",
        "a:",
        "a: # c\nb: 2\n",
        "a: b\nc: d # comment\n# trailing\n",
        "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
        "a:\n- 1\n- 2\nb: x\n",
        "a:\n- 1\n-\n- \n",
        "a:\n  - x\n  -\n    y: 1\n",
        "- a\n- b: 1\n  c: 2\n- - x\n",
        "- name: u\n  groups: [adm, sudo]\n  meta: {uid: 1000, home: /home/u, tags: [a, b]}\n",
        "k: []\nl: {}\nm: [ ]\nn: [[a], {b: c}, 'q', \"d\"]\n",
        "a: 'it''s'\nb: \"tab\\there \\x41\\u00e9\\U0001F600 \\\\ \\\" \\/ \\N\\_\\L\\P\\0\\a\\b\\v\\f\\r\\e\\ \"\n",
        "a: yes\nb: ~\nc: 1.5\nd: 0x1F\ne: 2001-12-14\nf: .inf\ng: -1_000\n",
        "'quoted key': 1\n\"dq key\" : 2\n",
        "a: a#b\nb: c  # d\nc: x y  z\nd: -1\ne: -x\nf: a:b\ng: [a b, c]\n",
        "d: &d\n  x: 1\n  y: 2\ne:\n  <<: *d\n  y: 3\nf: *d\ng: &s v\nh: *s\n",
        "a: &e\nb: *e\n",
        "l: &l\n- 1\nm: *l\n",
        "m: &m\n  <<: [*x]\n",
        "c: |\n  line 1\n    more\n\n  line 3\n\nd: 1\n",
        "c: |-\n  x\n\n\nd: |+\n  y\n\n\ne: >\n  a\n  b\n\n  c\n    d\n  e\nf: 1\n",
        "c: |2\n   x\n  y\n",
        "c: >-\n  folded\n  text\n",
        "c: | # comment\n  x\n",
        "- |\n  a\n- >\n  b\n",
        "- k: |\n    v\n  j: 1\n",
        "c: |\n  x",
        "c: |\n  x\n ",
        "c: |\n\n  x\n",
        "c: &a |\n  x\nd: *a\n",
        "a: 1\na: 2\n",
        "1: a\n1.0: b\ntrue: c\n",
        "- ? \n",
    ] {
        let taken = !t.contains('?') && !t.contains("- - x") && !t.contains("<<: [*x]");
        check(t, taken);
    }
}

#[test]
fn leaves_the_rest() {
    for t in [
        "--- \na: 1\n",
        "%YAML 1.1\n---\na: 1\n",
        "a: !!str 1\n",
        "a:\tb\n",
        "a: b\r\n",
        "a: é\n",
        "\u{feff}a: 1\n",
        "a: b\n  c\n",
        "a: 'b\n  c'\n",
        "a: [b,\n  c]\n",
        "? a\n: b\n",
        "a: b: c\n",
        "a: - b\n",
        "a:\n  b: 1\n c: 2\n",
        "a: 1\n- b\n",
        "- a\nb: 1\n",
        "a: *undefined\n",
        "a: &x 1\nb: &x 2\n",
        "a: \"\\ud800\"\n",
        "a: \"\\q\"\n",
        "a: [a, ]\n",
        "a: [a?b]\n",
        "a: {a:b}\n",
        "a: 2001-02-30\n",
        "a: |0\n x\n",
        "c: |\n   \n  x\n",
        "plain scalar\n",
        "a: \"x\"#c\n",
        "=: 1\n",
        "[a]: 1\n",
    ] {
        check(t, false);
    }
}

/// Flow collections nest on one line up to 64 deep in the fast loader (its
/// stack of open collections is a word of bits); deeper ones go to the full
/// pipeline. Mappings and sequences alternate, so each level's kind counts.
#[test]
fn flow_nesting_up_to_the_fast_loaders_stack() {
    let nested = |depth: usize| {
        let (mut open, mut close) = (String::new(), String::new());
        for i in 0..depth {
            if i % 3 == 1 {
                open.push_str("{k: ");
                close.insert(0, '}');
            } else {
                open.push('[');
                close.insert(0, ']');
            }
        }
        format!("a: {open}x{close}\nb: [1, {{c: [2, 3]}}, 4]\n")
    };
    for depth in [1, 2, 3, 33, 63, 64] {
        check(&nested(depth), true);
    }
    for depth in [65, 66, 100] {
        check(&nested(depth), false);
    }
}

#[test]
fn takes_the_bench_document() {
    let doc = cloud_config_doc::document();
    // A prefix of whole blocks keeps debug-build time low.
    let cut = doc.get(200_000..).and_then(|r| r.find("\nkey_")).unwrap() + 200_000 + 1;
    check(&doc[..cut], true);
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

/// Generated block documents (and mutations of them): whenever the fast
/// loader takes one, the full pipeline must build the same tree.
#[test]
fn generated_documents_match_the_full_pipeline() {
    let cases: usize = std::env::var("CLOUDFOLD_FAST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4000);
    let mut r = Rng::new(7);
    let mut taken = 0;
    for i in 0..cases {
        let mut doc = String::new();
        if r.below(4) == 0 {
            doc.push_str("#cloud-config\n");
        }
        for _ in 0..1 + r.below(4) {
            doc.push_str(r.pick::<&str>(&["k", "a1", "<<", "'x'", "k2"]));
            doc.push(':');
            block(&mut r, 2, 3, &mut doc);
        }
        let doc = if i % 2 == 1 {
            mutate(&mut r, &doc)
        } else {
            doc
        };
        let opts = LoadOptions::default();
        if let Some(fast) = load_fast(&doc, &opts) {
            taken += 1;
            match (fast, load_via_graph(&doc, &opts)) {
                (Some(a), Ok(Some(b))) => {
                    if let Err(why) = same_tree(&a, &b) {
                        panic!("differs on {doc:?}: {why}");
                    }
                }
                (None, Ok(None)) => {}
                (a, b) => panic!("differs on {doc:?}: {a:?} vs {b:?}"),
            }
        }
    }
    eprintln!("fast loader: took {taken} of {cases} generated documents");
    assert!(taken > cases / 10, "took only {taken}");
}
