//! The `nickel` dialect on hand-written cases (the Nickel manual's merging examples are fixtures, see merge_nickel_fixtures).

use crate::support;

use cloudfold::merge::NoObserver;
use cloudfold::merge::SymmetricError as NickelError;
use cloudfold::merge::nickel::merge_layers;
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};

fn run(docs: &[&str]) -> Result<String, NickelError> {
    let (roots, maps) = support::tagged_docs::load_docs(docs);
    merge_layers(&roots, &maps, &mut NoObserver)
        .map(|n| canonical(&to_typed_json(&n, WalkLimits::default()).unwrap()))
}

fn ok(docs: &[&str]) -> String {
    match run(docs) {
        Ok(v) => v,
        Err(e) => panic!("{docs:?}: {e}"),
    }
}

fn err(docs: &[&str]) -> String {
    match run(docs) {
        Ok(v) => panic!("{docs:?} merged to {v}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn records_merge_and_equal_values_agree() {
    assert_eq!(
        ok(&["a: 1\nr: {x: [1, 2]}\n", "b: 2\nr: {x: [1, 2], y: s}\n"]),
        ok(&["a: 1\nb: 2\nr: {x: [1, 2], y: s}\n"])
    );
    assert_eq!(ok(&["a: 1.0\n", "a: 1\n"]), ok(&["a: 1\n"]));
}

#[test]
fn unequal_values_do_not_merge() {
    let e = err(&["a: 1\n", "a: 2\n"]);
    assert!(e.contains("non mergeable terms at $.a"), "{e}");
    assert!(
        e.contains("source 0:1:4") && e.contains("source 1:1:4"),
        "{e}"
    );
    err(&["a: [1]\n", "a: [1, 2]\n"]);
    err(&["a: {x: 1}\n", "a: 5\n"]);
    err(&["a: true\n", "a: 1\n"]);
    err(&["a: '1'\n", "a: 1\n"]);
}

#[test]
fn priorities_order_default_numbers_force() {
    assert_eq!(ok(&["a: !default 1\n", "a: 2\n"]), ok(&["a: 2\n"]));
    assert_eq!(ok(&["a: 2\n", "a: !default 1\n"]), ok(&["a: 2\n"]));
    assert_eq!(
        ok(&["a: !priority:-1.5 1\n", "a: !default 2\n"]),
        ok(&["a: 1\n"])
    );
    assert_eq!(
        ok(&["a: !priority:10 1\n", "a: !force 2\n"]),
        ok(&["a: 2\n"])
    );
    assert_eq!(
        ok(&["a: !priority:10 1\n", "a: !priority:9.99 2\n"]),
        ok(&["a: 1\n"])
    );
    // The higher erases the whole lower value, records included.
    assert_eq!(
        ok(&["a: !force {x: 1}\n", "a: {x: 2, y: 3}\n"]),
        ok(&["a: {x: 1}\n"])
    );
    err(&["a: !default 1\n", "a: !default 2\n"]);
}

#[test]
fn a_conflict_a_higher_priority_erases_is_no_error() {
    assert_eq!(ok(&["a: 1\n", "a: 2\n", "a: !force 3\n"]), ok(&["a: 3\n"]));
    assert_eq!(
        ok(&["a: {x: 1}\n", "a: {x: 2}\n", "a: {x: !priority:1 3}\n"]),
        ok(&["a: {x: 3}\n"])
    );
    // Still a conflict when something of the same priority follows.
    err(&["a: 1\n", "a: 2\n", "a: 1\n"]);
}

#[test]
fn tags_are_checked() {
    assert!(err(&["a: !bogus 1\n"]).contains("not a Nickel priority"));
    assert!(err(&["a: [!force 1]\n"]).contains("belongs on a mapping value"));
    assert!(err(&["a: 2001-01-01\n"]).contains("no Nickel equivalent"));
    assert!(err(&["1: a\n"]).contains("int key"));
}

#[test]
fn deep_nesting_merges_without_overflow() {
    // As deep as the YAML loader allows, merged and conflicting at the bottom.
    let depth = 480;
    let doc = |leaf: &str| format!("{}{leaf}{}\n", "{a: ".repeat(depth), "}".repeat(depth));
    ok(&[&doc("1"), &doc("1")]);
    err(&[&doc("1"), &doc("2")]);
    // A recursive alias is refused up front.
    assert!(err(&["&x {a: *x}\n"]).contains("recursive alias"));
}

mod props {
    use super::*;
    use crate::support::{nickel_gen, rng};
    use proptest::prelude::*;

    proptest! {
        /// Nickel's merge is commutative: any order of the layers gives the
        /// same result (up to key order) or fails alike.
        #[test]
        fn layer_order_does_not_matter(seed in any::<u64>(), perm in any::<u64>()) {
            let mut r = rng::Rng::new(seed);
            let layers: Vec<String> = nickel_gen::case(&mut r).iter().map(nickel_gen::to_yaml).collect();
            let mut shuffled = layers.clone();
            let mut p = rng::Rng::new(perm);
            for i in (1..shuffled.len()).rev() {
                let j = p.below(i + 1);
                shuffled.swap(i, j);
            }
            let a: Vec<&str> = layers.iter().map(String::as_str).collect();
            let b: Vec<&str> = shuffled.iter().map(String::as_str).collect();
            prop_assert_eq!(run(&a).ok(), run(&b).ok());
        }
    }
}
