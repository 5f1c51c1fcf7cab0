//! `MergerStack::merge_owned` and `merge_owned_observed` (in-place folds of an accumulator) agree with `merge` and restore `old` on error.

// Test harness: a failed unwrap is a failed test.

use cloudfold::merge::NoObserver;
use cloudfold::merge::cloud_init::{MergerStack, Version};
use cloudfold::yaml::typed_json::{WalkLimits, from_typed_json, to_typed_json};
use cloudfold::yaml::value::Node;
use serde_json::json;

fn v(j: &serde_json::Value) -> Node {
    from_typed_json(j).unwrap()
}

fn j(n: &Node) -> serde_json::Value {
    to_typed_json(n, WalkLimits::default()).unwrap()
}

const SPECS: &[&str] = &[
    "list(append)+dict(no_replace,recurse_list)+str()",
    "list(append)+dict(no_replace,recurse_list)+str(append)",
    "list(prepend)+dict(replace,recurse_list)+str()",
    "list(extend)+dict(recurse_array)+str()",
    "dict(replace)+list()+str()",
    "dict(allow_delete,no_replace,recurse_list)+list(append)+str()",
    "list(append,recurse_dict)+dict(no_replace,recurse_list,recurse_str)+str(append)",
];

fn deep(levels: usize, leaf: serde_json::Value) -> serde_json::Value {
    (0..levels).fold(leaf, |acc, _| json!({"d": acc}))
}

fn cases() -> Vec<(serde_json::Value, serde_json::Value)> {
    vec![
        // RecursionError deep under `x`, after `a` and `b.c` were extended in place
        // and `z` was added.
        (
            json!({"a": [1], "b": {"c": [2]}, "x": deep(260, json!([1]))}),
            json!({"z": 1, "a": [3], "b": {"c": [4], "new": [5]}, "x": deep(260, json!([2]))}),
        ),
        (
            json!({"b": {"c": [2], "e": [1], "x": deep(260, json!(1))}, "k": [1]}),
            json!({"k": [7], "b": {"c": [4], "e": [9], "x": deep(260, json!(2))}}),
        ),
        (
            json!({"a": [1], "b": {"c": [2], "s": "x"}, "d": "x"}),
            json!({"z": 0, "a": [3], "b": {"c": [4], "n": 1}, "d": "y"}),
        ),
        // str(append) fails on `d` after `a` and `b` were extended in place.
        (
            json!({"a": [1], "b": {"c": [2]}, "d": "x"}),
            json!({"z": 1, "a": [3], "b": {"c": [4], "new": [5]}, "d": 5}),
        ),
        // The failure is nested, after a sibling list grew.
        (
            json!({"b": {"c": [2], "d": "x", "e": [1]}, "k": [1]}),
            json!({"k": [7], "b": {"c": [4], "d": 5, "e": [9]}}),
        ),
        (
            json!({"a": [1, 2], "n": null}),
            json!({"a": null, "n": [1]}),
        ),
        (json!({"a": [1]}), json!({"a": "abc"})),
        (json!({"a": [1]}), json!({"a": 3})),
        (json!({"a": {"b": [1]}}), json!({"a": [{"b": [2]}]})),
        (json!({"a": [{"x": [1]}]}), json!({"a": [{"x": [2]}]})),
        (json!([1, 2]), json!([3])),
        (json!({"a": [1]}), json!(["not a map"])),
    ]
}

/// `merge_owned_observed`, with what is left of `new` dropped.
fn given(
    stack: &MergerStack,
    old: Node,
    mut new: Node,
) -> Result<Node, (cloudfold::merge::MergeError, Node)> {
    stack.merge_owned_observed(old, &mut new, &mut NoObserver)
}

#[test]
fn owned_merge_matches_borrowed_and_restores_old_on_error() {
    let mut errors = 0;
    for spec in SPECS {
        let stack = MergerStack::parse(spec, Version::V25_1).unwrap();
        for (old, new) in cases() {
            let borrowed = stack.merge(&v(&old), &v(&new));
            let owned = stack.merge_owned(v(&old), &v(&new));
            let given = given(&stack, v(&old), v(&new));
            for (how, owned) in [("owned", owned), ("given", given)] {
                match (&borrowed, owned) {
                    (Ok(b), Ok(o)) => assert_eq!(j(b), j(&o), "{spec} {how}: {old} <- {new}"),
                    (Err(b), Err((o, back))) => {
                        errors += 1;
                        assert_eq!(b.to_string(), o.to_string(), "{spec} {how}: {old} <- {new}");
                        assert_eq!(j(&back), old, "{spec} {how}: old not restored");
                    }
                    (b, o) => panic!("{spec} {how}: {old} <- {new}: {b:?} vs {o:?}"),
                }
            }
        }
    }
    assert!(errors >= 4, "the error cases did not fail ({errors})");
}

#[test]
fn a_given_part_gives_up_its_items_unless_held_elsewhere() {
    let stack = MergerStack::parse(
        "list(append)+dict(no_replace,recurse_list)+str()",
        Version::V25_1,
    )
    .unwrap();
    let old = json!({"runcmd": ["a"], "w": {"f": [1]}, "h": "x"});
    let new = json!({"runcmd": ["b", "c"], "w": {"f": [2], "g": [3]}, "n": 1, "h": "y"});
    let want = json!({"runcmd": ["a", "b", "c"], "w": {"f": [1, 2], "g": [3]}, "n": 1, "h": "x"});
    // Given alone: the items it adds move out of it; what old keeps stays.
    let mut part = v(&new);
    let item = part
        .as_map()
        .unwrap()
        .get_str("runcmd")
        .unwrap()
        .as_seq()
        .unwrap()
        .items()[1]
        .clone();
    let merged = stack
        .merge_owned_observed(v(&old), &mut part, &mut NoObserver)
        .unwrap();
    assert_eq!(j(&merged), want);
    let runcmd = merged.as_map().unwrap().get_str("runcmd").unwrap();
    assert!(Node::ptr_eq(&runcmd.as_seq().unwrap().items()[2], &item));
    assert_eq!(
        j(&part),
        json!({"runcmd": [], "w": {"f": [], "g": null}, "n": null, "h": "y"}),
        "lists emptied, values taken (a null hole left), the value not merged kept"
    );
    // Held elsewhere too: left as it was, the result the same.
    let held = v(&new);
    let mut part = held.clone();
    let merged = stack
        .merge_owned_observed(v(&old), &mut part, &mut NoObserver)
        .unwrap();
    assert_eq!(j(&merged), want);
    assert_eq!(j(&held), new, "a part held elsewhere is not changed");
}

#[test]
fn folding_many_parts_owned_equals_borrowed() {
    let stack = MergerStack::parse(
        "list(append)+dict(no_replace,recurse_list)+str()",
        Version::V25_1,
    )
    .unwrap();
    let mut a = v(&json!({}));
    let mut b = v(&json!({}));
    let mut c = v(&json!({}));
    for i in 0..300 {
        let part = v(&json!({"runcmd": [format!("echo {i}")], "n": i, "w": {"f": [i, i]}}));
        a = stack.merge(&a, &part).unwrap();
        b = stack.merge_owned(b, &part).unwrap();
        c = given(&stack, c, part).unwrap();
    }
    assert_eq!(j(&a), j(&b));
    assert_eq!(j(&a), j(&c));
    assert_eq!(
        a.as_map()
            .unwrap()
            .get_str("runcmd")
            .unwrap()
            .as_seq()
            .unwrap()
            .len(),
        300
    );
}
