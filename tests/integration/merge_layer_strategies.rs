//! The engine's layer strategies (`Strategy::Layer`) driven directly, without the Hiera dialect around them.

use cloudfold::merge::{
    DeepOptions, Knockout, LayerStrategy, Limits, NoObserver, Path, Rules, Strategy, merge_with,
};
use cloudfold::yaml::value::Node;
use cloudfold::yaml::{LoadOptions, load};

struct One(Strategy, Option<Knockout>);

impl Rules for One {
    fn strategy_for(&self, _: &Path, _: &Node) -> Option<&Strategy> {
        Some(&self.0)
    }
    fn knockout(&self) -> Option<&Knockout> {
        self.1.as_ref()
    }
}

fn y(s: &str) -> Node {
    load(s, &LoadOptions::default()).unwrap().unwrap()
}

fn json(n: &Node) -> String {
    let j = cloudfold::yaml::typed_json::to_typed_json(n, Default::default()).unwrap();
    serde_json::to_string(&j).unwrap()
}

fn merge(rules: &One, old: &str, new: &str) -> Result<String, String> {
    merge_with(rules, &y(old), &y(new), &Limits::default(), &mut NoObserver)
        .map(|n| json(&n))
        .map_err(|e| e.message)
}

fn deep(knockout: Option<&str>, sort: bool, mha: bool) -> One {
    One(
        Strategy::Layer(LayerStrategy::Deep(DeepOptions {
            knockout: knockout.is_some(),
            sort_merged_arrays: sort,
            merge_hash_arrays: mha,
        })),
        knockout.map(|p| Knockout::new(p).unwrap()),
    )
}

#[test]
fn unique_flattens_new_first_and_keeps_int_and_float_apart() {
    let u = One(Strategy::Layer(LayerStrategy::Unique), None);
    assert_eq!(
        merge(&u, "[1, [a, 1.0]]", "[[b, 1], a, true]").unwrap(),
        r#"["b",1,"a",true,1.0]"#
    );
    assert_eq!(merge(&u, "x", "y").unwrap(), r#"["y","x"]"#);
}

#[test]
fn replace_takes_new_whatever_the_types() {
    let r = One(Strategy::Layer(LayerStrategy::Replace), None);
    assert_eq!(merge(&r, "{a: 1}", "[1]").unwrap(), "[1]");
}

#[test]
fn deep_unions_lowest_first_and_knocks_out() {
    assert_eq!(
        merge(
            &deep(None, false, false),
            "{l: [a, b], m: 1}",
            "{l: [c, a], n: 2}"
        )
        .unwrap(),
        r#"{"l":["a","b","c"],"m":1,"n":2}"#
    );
    let ko = deep(Some("--"), false, false);
    assert_eq!(
        merge(&ko, "[a, b, 1]", "['--a', '--1', c]").unwrap(),
        r#"["b",1,"c"]"#
    );
    assert_eq!(merge(&ko, "[a, b]", "['--', c]").unwrap(), r#"["c"]"#);
    assert_eq!(merge(&ko, "{a: 1}", "{a: '--x'}").unwrap(), r#"{"a":""}"#);
    // A null source keeps dest; a false dest takes the source as is.
    assert_eq!(merge(&ko, "[a]", "null").unwrap(), r#"["a"]"#);
    assert_eq!(merge(&ko, "false", "['--a', b]").unwrap(), r#"["--a","b"]"#);
}

#[test]
fn deep_sorts_and_merges_hash_arrays() {
    assert_eq!(
        merge(&deep(None, true, false), "[b, a]", "[c]").unwrap(),
        r#"["a","b","c"]"#
    );
    let err = merge(&deep(None, true, false), "[1, a]", "[b]").unwrap_err();
    assert!(err.starts_with("comparison of"), "{err}");
    assert_eq!(
        merge(&deep(None, false, true), "[{a: 1}, {b: 2}]", "[{c: 3}]").unwrap(),
        r#"[{"a":1,"c":3},{"b":2}]"#
    );
}

#[test]
fn knockout_prefix_is_a_regexp_and_never_empty() {
    assert!(Knockout::new("").is_err());
    let dot = deep(Some("."), false, false);
    assert_eq!(merge(&dot, "[a, b]", "[c]").unwrap(), r#"["a","b"]"#);
}
