//! API-level tests of `yaml::load`: sharing, recursion, spans, limits, and
//! that no input panics.

use cloudfold::source::SourceId;
use cloudfold::yaml::{LoadOptions, Node, PyErrorClass, Value, load, load_bytes};
use proptest::prelude::*;

fn opts() -> LoadOptions {
    LoadOptions::default()
}

fn ok(text: &str) -> Node {
    load(text, &opts()).unwrap().unwrap()
}

#[test]
fn empty_stream_is_none_and_null_document_is_some() {
    assert!(load("", &opts()).unwrap().is_none());
    assert!(load("# comment\n", &opts()).unwrap().is_none());
    assert!(ok("~").is_null());
    assert!(ok("---\n...\n").is_null());
}

#[test]
fn aliases_share_the_anchored_node() {
    let root = ok("a: &x [1, 2]\nb: *x\nc: &s hello\nd: *s\n");
    let m = root.as_map().unwrap();
    let (a, b) = (m.get_str("a").unwrap(), m.get_str("b").unwrap());
    assert!(Node::ptr_eq(a, b));
    assert!(Node::ptr_eq(
        m.get_str("c").unwrap(),
        m.get_str("d").unwrap()
    ));
    // The alias keeps the anchor's span.
    assert_eq!(b.span(), a.span());
    assert_eq!(a.span().start.column, 3);
    assert_eq!(a.span().end.column, 12);
}

#[test]
fn recursive_aliases_are_representable() {
    let root = ok("&a [*a, 1]");
    let items = root.as_seq().unwrap();
    assert!(Node::ptr_eq(&items.items()[0], &root));
    let root = ok("&m {k: *m}");
    assert!(Node::ptr_eq(
        root.as_map().unwrap().get_str("k").unwrap(),
        &root
    ));
}

#[test]
fn merged_values_are_shared_with_their_source() {
    let root = ok("base: &b {x: [1]}\nd: {<<: *b, y: 2}\n");
    let m = root.as_map().unwrap();
    let bx = m
        .get_str("base")
        .unwrap()
        .as_map()
        .unwrap()
        .get_str("x")
        .unwrap();
    let dx = m
        .get_str("d")
        .unwrap()
        .as_map()
        .unwrap()
        .get_str("x")
        .unwrap();
    assert!(Node::ptr_eq(bx, dx));
}

#[test]
fn spans_follow_pyyaml_marks_and_source() {
    let o = LoadOptions {
        source: SourceId(7),
        ..opts()
    };
    let root = load("k:\n  - a\n  - bb\n", &o).unwrap().unwrap();
    let seq = root.as_map().unwrap().get_str("k").unwrap();
    let sp = seq.span();
    assert_eq!(sp.source, SourceId(7));
    assert_eq!((sp.start.line, sp.start.column), (1, 2));
    let bb = &seq.as_seq().unwrap().items()[1];
    assert_eq!((bb.span().start.line, bb.span().start.column), (2, 4));
    assert_eq!(bb.span().end.column, 6);
    assert_eq!(bb.span().start.index, 13);
}

#[test]
fn python_unicode_tag_is_optional() {
    let e = load("a: !!python/unicode x\n", &opts()).unwrap_err();
    assert_eq!(e.class, PyErrorClass::Constructor);
    let o = LoadOptions {
        python_unicode_tag: true,
        ..opts()
    };
    let root = load("a: !!python/unicode x\n", &o).unwrap().unwrap();
    assert_eq!(
        root.as_map().unwrap().get_str("a").unwrap().as_str(),
        Some("x")
    );
}

#[test]
fn very_deep_nesting_is_a_recursion_error_not_a_crash() {
    let n = 200_000;
    for doc in [
        format!("{}{}", "[".repeat(n), "]".repeat(n)),
        format!("{}1{}", "{a: ".repeat(n), "}".repeat(n)),
        (0..20_000)
            .map(|i| format!("{}-\n", " ".repeat(i)))
            .collect(),
    ] {
        let e = load(&doc, &opts()).unwrap_err();
        assert_eq!(e.class, PyErrorClass::Recursion);
    }
    let depth_ok = format!("{}{}", "[".repeat(494), "]".repeat(494));
    assert!(load(&depth_ok, &opts()).is_ok());
}

#[test]
fn values_have_python_types() {
    let root = ok("[0755, 0x1F, 1:30, 1.0e+3, 1e3, .nan, yes, ~, 2002-12-14, !!binary YQ==]");
    let names: Vec<&str> = root.as_seq().unwrap().iter().map(Node::type_name).collect();
    assert_eq!(
        names,
        [
            "int", "int", "int", "float", "str", "float", "bool", "NoneType", "date", "bytes"
        ]
    );
    match root.as_seq().unwrap().items()[0].value() {
        Value::Int(i) => assert_eq!(i.as_i64(), Some(493)),
        v => panic!("{v:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = load_bytes(&bytes, &opts());
    }

    #[test]
    fn yaml_like_text_never_panics(
        s in "[-:?\\[\\]{},&*!|>'\"#%@ \n\ta-c0-2.=<~_\\\\xé]{0,120}"
    ) {
        let _ = load(&s, &opts());
    }
}
