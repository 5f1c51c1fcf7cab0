//! A top-level mapping written on two threads (`dump_after_split`) is the
//! text one thread writes (`dump_after`), byte for byte, whatever values meet
//! at the join; and the split is refused where it could differ. Written in
//! pieces (`dump_after_pieces`), on one thread or two, the pieces one after
//! the other are that text too.

use cloudfold::yaml::value::{Entries, Map, Node, Seq, Value, insert};
use cloudfold::yaml::{
    DumpOptions, LoadOptions, dump_after, dump_after_pieces, dump_after_split, load,
};
use cloudfold::{AsideJob, RunAside};
use serde_json::Value as J;
use std::path::PathBuf;
use std::sync::Mutex;

/// The corpus documents that load, as texts (each use loads its own copy:
/// a value held twice is one the split must refuse).
fn corpus_docs() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/yaml/corpus.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter_map(|line| {
            let case: J = serde_json::from_str(line).unwrap();
            let doc = case["doc"].as_str()?.to_owned();
            matches!(load(&doc, &LoadOptions::default()), Ok(Some(_))).then_some(doc)
        })
        .collect()
}

/// A fresh copy of document `doc`'s value: its only mapping value if it
/// has one, else the document.
fn fresh(doc: &str) -> Node {
    let node = load(doc, &LoadOptions::default()).unwrap().unwrap();
    let single = node
        .as_map()
        .filter(|m| m.len() == 1)
        .and_then(|m| m.iter().next().map(|(_, v)| v.clone()));
    single.unwrap_or(node)
}

fn map(pairs: impl IntoIterator<Item = (Node, Node)>) -> Node {
    let mut e = Entries::default();
    for (k, v) in pairs {
        insert(&mut e, k, v);
    }
    Node::synthetic(Value::Map(Map::new(e)))
}

/// Takes the second half and runs it at once: the other thread comes first.
struct Inline;

impl RunAside for Inline {
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
        job();
        Ok(())
    }
}

/// Takes the second half and runs it only after the dump: the dumping
/// thread, its own half written, finds the second one not begun and writes
/// it too (as with a helper slow to wake).
#[derive(Default)]
struct Late(Mutex<Vec<AsideJob>>);

impl RunAside for Late {
    fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
        self.0.lock().unwrap().push(job);
        Ok(())
    }
}

/// Whether the split text, if there is one, is one thread's text (whichever
/// thread writes the second half), in the cloud-init preset (with document
/// markers) and in the readable one (without); whether both split.
fn check(n: &Node, what: &str) -> bool {
    let ci = check_with(
        n,
        &DumpOptions::cloud_init(),
        &format!("{what} (cloud-init)"),
    );
    let readable = check_with(n, &DumpOptions::readable(), &format!("{what} (readable)"));
    ci && readable
}

fn check_with(n: &Node, opts: &DumpOptions, what: &str) -> bool {
    let opts = opts.clone();
    let split = dump_after_split("#head\n", n, &opts, None);
    let inline = dump_after_split("#head\n", n, &opts, Some(&Inline));
    let late = Late::default();
    let by_one = dump_after_split("#head\n", n, &opts, Some(&late));
    // The job, run now, finds nothing left to write.
    late.0.lock().unwrap().drain(..).for_each(|job| job());
    assert_eq!(split, inline, "{what}");
    assert_eq!(split, by_one, "{what}");
    match dump_after("#head\n", n, &opts, 0) {
        Ok(whole) => {
            if let Some(split) = &split {
                assert_eq!(split, &whole, "{what}");
            }
            for piece in [1, 40, 1 << 20] {
                let pieces = dump_after_pieces("#head\n", n, &opts, piece, true);
                let joined = pieces.map(|p| p.unwrap().concat());
                assert_eq!(joined, split, "{what}, pieces of {piece}");
            }
        }
        // An error is for one thread to report.
        Err(_) => assert_eq!(split, None, "{what}"),
    }
    split.is_some()
}

/// Every corpus document, anchors included, written in pieces on one
/// thread: the pieces joined are the text written whole, and so is the
/// error (a piece ends where an anchor can no longer be spliced in: the
/// walk starts again knowing the object).
#[test]
fn every_corpus_document_in_pieces() {
    let docs = corpus_docs();
    for (i, doc) in docs.iter().enumerate() {
        let n = load(doc, &LoadOptions::default()).unwrap().unwrap();
        let tight = |o: DumpOptions| {
            let len = dump_after("", &n, &o, 0).map_or(0, |t| t.len());
            DumpOptions {
                max_output_bytes: len / 2,
                ..o
            }
        };
        for opts in [
            DumpOptions::cloud_init(),
            DumpOptions::readable(),
            tight(DumpOptions::cloud_init()),
            tight(DumpOptions::readable()),
        ] {
            let whole = dump_after("#head\n", &n, &opts, 0);
            for piece in [1, 3, 40, 1 << 20] {
                let pieces = dump_after_pieces("#head\n", &n, &opts, piece, false).unwrap();
                let joined = pieces.map(|p| {
                    assert!(p.len() == 1 || p[..p.len() - 1].iter().all(|p| p.len() >= piece));
                    p.concat()
                });
                assert_eq!(joined, whole, "corpus document {i}, pieces of {piece}");
            }
        }
    }
}

#[test]
fn every_corpus_value_on_either_side_of_the_join() {
    let docs = corpus_docs();
    assert!(docs.len() > 500, "{} corpus documents", docs.len());
    let mut split = 0;
    for i in 0..docs.len() {
        let others = [&docs[(i + 1) % docs.len()], &docs[(i + 7) % docs.len()]];
        // Keys sort as named: document i ends the first half or starts the
        // second, beside other values.
        for keys in [["a", "b", "c"], ["b", "a", "c"], ["c", "b", "a"]] {
            let n = map([
                (Node::str(keys[0]), fresh(&docs[i])),
                (Node::str(keys[1]), fresh(others[0])),
                (Node::str(keys[2]), fresh(others[1])),
            ]);
            split += usize::from(check(&n, &format!("corpus document {i}, keys {keys:?}")));
        }
    }
    // Only documents with anchors are refused (54 of 1,518 today).
    assert!(split > docs.len() * 3 - 100, "{split} documents split");
}

#[test]
fn many_keys_and_long_values() {
    let docs = corpus_docs();
    let mut pairs = Vec::new();
    for (i, doc) in docs.iter().enumerate().take(300) {
        pairs.push((Node::str(&format!("key-{i:04}")), fresh(doc)));
    }
    pairs.push((
        Node::str("runcmd"),
        Node::synthetic(Value::Seq(Seq::new(
            (0..2000)
                .map(|i| Node::str(&format!("echo {i} 'quoted' \"double\" # not a comment")))
                .collect(),
        ))),
    ));
    let n = map(pairs);
    // Anchored corpus values make it whole-only; without them it splits.
    check(&n, "300 corpus values and a long list");
    let plain: Vec<(Node, Node)> = n
        .as_map()
        .unwrap()
        .iter()
        .filter(|(_, v)| {
            let one = map([(Node::str("k"), (*v).clone())]);
            !dump_after("", &one, &DumpOptions::cloud_init(), 0)
                .unwrap()
                .contains("&id")
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    drop(n);
    assert!(check(&map(plain), "the same without anchored values"));
}

#[test]
fn refused_where_one_thread_could_differ() {
    let opts = DumpOptions::cloud_init();
    let list = Node::synthetic(Value::Seq(Seq::new(vec![Node::str("x")])));
    // The same list under two keys: one anchor numbering over the whole.
    let shared = map([
        (Node::str("a"), list.clone()),
        (Node::str("b"), Node::str("y")),
        (Node::str("c"), list),
    ]);
    assert_eq!(dump_after_split("", &shared, &opts, None), None);
    // The same list deeper down on either side: the halves' walks find it.
    let inner = Node::synthetic(Value::Seq(Seq::new(vec![Node::str("x")])));
    let deep = map([
        (Node::str("a"), map([(Node::str("k"), inner.clone())])),
        (Node::str("b"), Node::str("y")),
        (
            Node::str("c"),
            Node::synthetic(Value::Seq(Seq::new(vec![inner.clone()]))),
        ),
    ]);
    assert_eq!(dump_after_split("", &deep, &opts, None), None);
    // Referred to from outside the tree only: PyYAML would not anchor it,
    // but the halves cannot tell, so one thread writes it.
    let held = map([
        (Node::str("a"), map([(Node::str("k"), inner.clone())])),
        (Node::str("b"), Node::str("y")),
    ]);
    assert_eq!(dump_after_split("", &held, &opts, None), None);
    drop(inner);
    // Keys Python cannot sort together: the order is Python's to decide.
    let mixed = map([
        (Node::str("a"), Node::str("x")),
        (
            Node::synthetic(Value::Int(cloudfold::yaml::value::Int::Small(1))),
            Node::str("y"),
        ),
    ]);
    assert_eq!(dump_after_split("", &mixed, &opts, None), None);
    // One key: nothing to split.
    let one = map([(Node::str("a"), Node::str("x"))]);
    assert_eq!(dump_after_split("", &one, &opts, None), None);
    let two = map([
        (Node::str("a"), Node::str("x")),
        (Node::str("b"), Node::str("y")),
    ]);
    assert!(check(&two, "two keys"));
    // A cut list of 2-tuples is `!!pairs` in the readable preset: its second
    // run, a document of its own, would carry the tag; one thread writes it.
    let pair = || Node::synthetic(Value::Tuple(Seq::new(vec![Node::str("k"), Node::str("v")])));
    let pairs = map([(
        Node::str("a"),
        Node::synthetic(Value::Seq(Seq::new(vec![pair(), pair(), pair()]))),
    )]);
    assert_eq!(
        dump_after_split("", &pairs, &DumpOptions::readable(), None),
        None
    );
    assert!(check_with(&pairs, &opts, "2-tuples (cloud-init)"));
}

#[test]
fn trailing_line_breaks_at_the_join_and_the_end() {
    // How a document ends (`...` or nothing) depends on its last value; a
    // string ending in line breaks (kept, were it written in a block style)
    // before the join, last, and both.
    let kept = || Node::str("line\n\n");
    let plain = || Node::str("x");
    for (a, b, c) in [
        (kept(), plain(), plain()),
        (plain(), plain(), kept()),
        (kept(), kept(), kept()),
    ] {
        let n = map([
            (Node::str("a"), a),
            (Node::str("b"), b),
            (Node::str("c"), c),
        ]);
        assert!(check(&n, "trailing line breaks"));
    }
    let list = Node::synthetic(Value::Seq(Seq::new(vec![
        Node::str("x"),
        Node::str("y\n\n"),
    ])));
    assert!(check(
        &map([(Node::str("a"), list)]),
        "line breaks in the last item"
    ));
}

#[test]
fn size_guesses_of_nested_long_lists_do_not_overflow() {
    // Each list's first item is the next list: the sampled guess grows by
    // the list's length at every level, to the top of `usize`; ten such
    // values add up past it.
    let nest = || {
        let mut inner = Node::str("x");
        for _ in 0..12 {
            let mut items = vec![inner];
            items.extend((0..999).map(|k| Node::str(&format!("s{k}"))));
            inner = Node::synthetic(Value::Seq(Seq::new(items)));
        }
        inner
    };
    let n = map((0..10).map(|i| (Node::str(&format!("k{i}")), nest())));
    assert!(check(&n, "nested long lists"));
}

#[test]
fn a_long_list_is_cut_between_its_items() {
    // Corpus values without anchors, and strings whose layout depends on
    // what precedes them (a kept final line break, leading spaces, quotes),
    // as the items of one list: cut anywhere, the two runs are the one list.
    let opts = DumpOptions::cloud_init();
    let docs = corpus_docs();
    let plain: Vec<&String> = docs
        .iter()
        .filter(|d| !dump_after("", &fresh(d), &opts, 0).unwrap().contains("&id"))
        .collect();
    assert!(plain.len() > 400, "{} plain corpus documents", plain.len());
    let odd = [
        "text\n\n", "  lead", "'q'", "a: b", "- x", "", "#", "x\ny\n",
    ];
    for (shift, len) in [(0, 2), (3, 3), (5, 40), (11, 400)] {
        let items = || {
            (0..len)
                .map(|i| match i % 3 {
                    0 => Node::str(odd[(i + shift) % odd.len()]),
                    _ => fresh(plain[(i * 7 + shift) % plain.len()]),
                })
                .collect::<Vec<_>>()
        };
        let list = || Node::synthetic(Value::Seq(Seq::new(items())));
        // The list alone under one key, first, last, and between others.
        let alone = map([(Node::str("runcmd"), list())]);
        assert!(check(&alone, &format!("one key, {len} items")), "{len}");
        for keys in [["a", "b", "c"], ["b", "a", "c"], ["c", "b", "a"]] {
            let n = map([
                (Node::str(keys[0]), list()),
                (Node::str(keys[1]), fresh(plain[shift])),
                (Node::str(keys[2]), fresh(plain[shift + 1])),
            ]);
            assert!(check(&n, &format!("{len} items, keys {keys:?}")));
        }
    }
    // One item: nothing to cut, and one key is not split.
    let one = map([(
        Node::str("a"),
        Node::synthetic(Value::Seq(Seq::new(vec![Node::str("x")]))),
    )]);
    assert_eq!(dump_after_split("", &one, &opts, None), None);
}
