//! The one-walk dump (`yaml::dump`) against the two-pass reference (`yaml::dump_via_graph`).

use cloudfold::yaml::value::{Date, Entries, Map, Node, Seq, Value, insert};
use cloudfold::yaml::{DumpOptions, dump, dump_via_graph};

fn map(pairs: Vec<(Node, Node)>) -> Node {
    let mut e = Entries::default();
    for (k, v) in pairs {
        insert(&mut e, k, v);
    }
    Node::synthetic(Value::Map(Map::new(e)))
}

fn same(n: &Node) {
    for o in [DumpOptions::cloud_init(), DumpOptions::readable()] {
        assert_eq!(dump(n, &o).unwrap(), dump_via_graph(n, &o).unwrap());
    }
}

#[test]
fn shared_dates_and_a_recursive_root() {
    let d = Node::synthetic(Value::Date(Date::new(2001, 1, 1).unwrap()));
    let l = Node::synthetic(Value::Seq(Seq::new(vec![Node::str("x")])));
    let m = Node::synthetic(Value::Map(Map::pending()));
    let mut e = Entries::default();
    insert(&mut e, Node::str("a"), d.clone());
    insert(&mut e, Node::str("b"), d.clone());
    insert(&mut e, Node::str("c"), l.clone());
    insert(&mut e, Node::str("d"), l.clone());
    insert(&mut e, Node::str("self"), m.clone());
    let Value::Map(inner) = m.value() else {
        unreachable!()
    };
    inner.fill(e).unwrap();
    same(&m);
    let flat = map(vec![(Node::str("a"), d.clone()), (Node::str("b"), d)]);
    same(&flat);
    drop(m);
}

/// `dump_after` writes the same document after its prefix, on the one-walk
/// path, after a rewalk (a value met again), and when the limit on output
/// counts the document only.
#[test]
fn dump_after_a_prefix() {
    use cloudfold::yaml::{DumpError, dump_after};
    let l = Node::synthetic(Value::Seq(Seq::new(vec![Node::str("x"), Node::str("y")])));
    let shared = map(vec![(Node::str("k"), l.clone()), (Node::str("j"), l)]);
    let plain = map(vec![(Node::str("a"), Node::str("b"))]);
    for n in [&shared, &plain] {
        for o in [DumpOptions::cloud_init(), DumpOptions::readable()] {
            let want = format!("#head\n\n{}", dump(n, &o).unwrap());
            for cap in [0, 3, 1 << 20] {
                assert_eq!(dump_after("#head\n\n", n, &o, cap).unwrap(), want);
            }
        }
    }
    let doc = dump(&plain, &DumpOptions::cloud_init()).unwrap();
    let tight = DumpOptions {
        max_output_bytes: doc.len(),
        ..DumpOptions::cloud_init()
    };
    let long_prefix = "#".repeat(4 * doc.len());
    assert!(dump_after(&long_prefix, &plain, &tight, 0).is_ok());
    let tighter = DumpOptions {
        max_output_bytes: doc.len() / 2,
        ..DumpOptions::cloud_init()
    };
    assert!(matches!(
        dump_after("", &plain, &tighter, 0),
        Err(DumpError::TooLarge(_))
    ));
}
