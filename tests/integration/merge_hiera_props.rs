//! Property: the `hiera` dialect never panics, whatever the data and options, and its results are stable.

use cloudfold::merge::hiera::{HieraLayer, HieraStrategy, Hierarchy, MergeBehavior};
use cloudfold::yaml::{LoadOptions, load};
use proptest::prelude::*;
use serde_json::Value as J;

fn scalar() -> impl Strategy<Value = J> {
    prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        (-3i64..4).prop_map(J::from),
        Just(J::from(1.5)),
        prop::sample::select(vec![
            "a", "b", "--a", "--", "!b", ".", "x\n--a", "^k", "(", ""
        ])
        .prop_map(|s| J::String(s.to_owned())),
    ]
}

fn value() -> impl Strategy<Value = J> {
    scalar().prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(J::Array),
            prop::collection::vec(
                (prop::sample::select(vec!["p", "q", "k1", "^k"]), inner),
                0..4
            )
            .prop_map(|kv| J::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

fn lookup_options() -> impl Strategy<Value = J> {
    let merge = prop_oneof![
        prop::sample::select(vec![
            "first",
            "unique",
            "hash",
            "deep",
            "reverse_deep",
            "bogus"
        ])
        .prop_map(|s| J::String(s.to_owned())),
        (
            any::<bool>(),
            any::<bool>(),
            prop::sample::select(vec!["--", ".", "(", ""])
        )
            .prop_map(
                |(s, m, p)| serde_json::json!({"strategy": "deep", "sort_merged_arrays": s,
                                           "merge_hash_arrays": m, "knockout_prefix": p})
            ),
        value(),
    ];
    prop::collection::vec(
        (
            prop::sample::select(vec!["k1", "^k", "k2", "^(", "^k1$"]),
            merge,
        ),
        0..3,
    )
    .prop_map(|kv| {
        J::Object(
            kv.into_iter()
                .map(|(k, m)| (k.to_owned(), serde_json::json!({ "merge": m })))
                .collect(),
        )
    })
}

fn layer() -> impl Strategy<Value = J> {
    prop_oneof![
        4 => (prop::option::of(value()), prop::option::of(value()), prop::option::of(lookup_options()))
            .prop_map(|(a, b, lo)| {
                let mut m = serde_json::Map::new();
                if let Some(a) = a { m.insert("k1".into(), a); }
                if let Some(b) = b { m.insert("k2".into(), b); }
                if let Some(lo) = lo { m.insert("lookup_options".into(), lo); }
                J::Object(m)
            }),
        1 => value(),
    ]
}

fn behavior() -> impl Strategy<Value = Option<MergeBehavior>> {
    prop::option::of(
        (
            prop::sample::select(vec![
                HieraStrategy::First,
                HieraStrategy::Unique,
                HieraStrategy::Hash,
                HieraStrategy::Deep,
                HieraStrategy::ReverseDeep,
            ]),
            prop::option::of(prop::sample::select(vec!["--", ".", "-", "("])),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(st, ko, sort, mha)| MergeBehavior {
                strategy: st,
                knockout_prefix: ko.map(str::to_owned),
                sort_merged_arrays: sort,
                merge_hash_arrays: mha,
            }),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_is_deterministic(layers in prop::collection::vec(layer(), 1..5), cli in behavior()) {
        let build = || {
            Hierarchy::new(
                layers
                    .iter()
                    .enumerate()
                    .map(|(i, l)| HieraLayer {
                        name: format!("{i}.yaml"),
                        root: load(&l.to_string(), &LoadOptions::default()).unwrap(),
                    })
                    .collect(),
            )
        };
        let a = build().merge_all(cli.as_ref()).map(|m| format!("{:?}", m.to_node()));
        let b = build().merge_all(cli.as_ref()).map(|m| format!("{:?}", m.to_node()));
        prop_assert_eq!(a.is_ok(), b.is_ok());
        if let (Ok(a), Ok(b)) = (a, b) {
            prop_assert_eq!(a, b);
        }
    }
}
