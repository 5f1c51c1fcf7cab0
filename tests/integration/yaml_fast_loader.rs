//! The fast loader (`yaml::load_fast`): which texts it takes (the common
//! block-style documents) and which it leaves to the full pipeline; on each,
//! every reader must agree with the node graph (`support::yaml_readers`, the
//! generated and corpus documents: `yaml_readers.rs`).

use crate::support;

use crate::support::cloud_config_doc;

use cloudfold::yaml::{LoadOptions, load_fast};
use support::yaml_readers::readers_agree;

/// `text` is taken by the fast loader (`taken`) or left alone, and every
/// reader agrees with the node graph on it.
fn check(text: &str, taken: bool) {
    let short: String = text.chars().take(300).collect();
    assert_eq!(
        load_fast(text, &LoadOptions::default()).is_some(),
        taken,
        "taken? {short:?}"
    );
    if let Err(why) = readers_agree(text, &LoadOptions::default()) {
        panic!("differs on {short:?}: {why}");
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
