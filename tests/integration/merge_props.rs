//! Property tests: the cloud-init merge never panics and never modifies its inputs, whatever the trees and specs.

// Test harness: a failed unwrap is a failed test.

use cloudfold::merge::Trace;
use cloudfold::merge::cloud_init::{MergeSpec, MergerStack, Version, prepare_part};
use cloudfold::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use cloudfold::yaml::value::{Entries, Int, Map, Node, PyStr, Seq, Value, insert};
use proptest::prelude::*;

fn scalar() -> impl Strategy<Value = Node> {
    let n = Node::synthetic;
    prop_oneof![
        Just(()).prop_map(move |()| n(Value::Null)),
        any::<bool>().prop_map(move |b| n(Value::Bool(b))),
        (-3i64..4).prop_map(move |i| n(Value::Int(Int::Small(i)))),
        prop_oneof![Just(0.0f64), Just(1.0), Just(-2.5)].prop_map(move |f| n(Value::Float(f))),
        "[a-d]{0,3}".prop_map(move |s| n(Value::Str(PyStr::from(s)))),
        prop::collection::vec(any::<u8>(), 0..3).prop_map(move |b| n(Value::Bytes(b.into()))),
    ]
}

fn key() -> impl Strategy<Value = Node> {
    prop_oneof![
        "[a-d]{1,2}".prop_map(|s| Node::str(&s)),
        (0i64..3).prop_map(|i| Node::synthetic(Value::Int(Int::Small(i)))),
        any::<bool>().prop_map(|b| Node::synthetic(Value::Bool(b))),
    ]
}

fn tree() -> impl Strategy<Value = Node> {
    scalar().prop_recursive(4, 40, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|v| Node::synthetic(Value::Seq(Seq::new(v)))),
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|v| Node::synthetic(Value::Tuple(Seq::new(v)))),
            prop::collection::vec((key(), inner), 0..4).prop_map(|kv| {
                let mut e = Entries::default();
                for (k, v) in kv {
                    insert(&mut e, k, v);
                }
                Node::synthetic(Value::Map(Map::new(e)))
            }),
            prop::collection::vec(key(), 0..3).prop_map(|ks| {
                let mut e = Entries::default();
                for k in ks {
                    insert(&mut e, k, Node::synthetic(Value::Null));
                }
                Node::synthetic(Value::Set(Map::new(e)))
            }),
        ]
    })
}

fn spec_string() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("dict"),
        Just("list"),
        Just("str"),
        Just("m_dict"),
        Just("DICT"),
        Just("foo"),
        Just(""),
    ];
    let opt = prop_oneof![
        Just("replace"),
        Just("no_replace"),
        Just("no-replace"),
        Just("append"),
        Just("prepend"),
        Just("allow_delete"),
        Just("recurse_list"),
        Just("recurse_array"),
        Just("recurse_str"),
        Just("recurse_dict"),
        Just(" "),
        Just(")"),
    ];
    let token =
        (name, prop::collection::vec(opt, 0..3), 0u8..8).prop_map(|(n, o, shape)| match shape {
            0 => n.to_owned(),
            1 => format!("{n} ({})", o.join(",")),
            _ => format!("{n}({})", o.join(",")),
        });
    prop::collection::vec(token, 0..4).prop_map(|t| t.join("+"))
}

fn json(n: &Node) -> String {
    canonical(&to_typed_json(n, WalkLimits::default()).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn merging_never_panics_nor_mutates(spec in spec_string(), old in tree(), new in tree()) {
        let (before_old, before_new) = (json(&old), json(&new));
        if let Ok(stack) = MergerStack::parse(&spec, Version::V25_1) {
            let plain = stack.merge(&old, &new);
            let mut trace = Trace::default();
            let observed = stack.merge_observed(&old, &new, &mut trace);
            // Observing changes nothing.
            match (&plain, &observed) {
                (Ok(a), Ok(b)) => prop_assert_eq!(json(a), json(b)),
                (Err(a), Err(b)) => prop_assert_eq!(a.class, b.class),
                _ => prop_assert!(false, "observer changed the outcome"),
            }
        }
        prop_assert_eq!(json(&old), before_old);
        prop_assert_eq!(json(&new), before_new);
    }

    #[test]
    fn list_form_specs_never_panic(value in tree(), data in tree(), header in spec_string()) {
        let _ = MergeSpec::from_value(&value, Version::V22_4)
            .and_then(|s| MergerStack::resolve(&s));
        let mut e = Entries::default();
        insert(&mut e, Node::str("merge_how"), value);
        insert(&mut e, Node::str("data"), data);
        let part = Node::synthetic(Value::Map(Map::new(e)));
        if let Ok(p) = prepare_part(&part, Some(&header), Version::V25_1) {
            let acc = Node::synthetic(Value::Map(Map::default()));
            let _ = p.merge_into(&acc);
        }
    }
}
