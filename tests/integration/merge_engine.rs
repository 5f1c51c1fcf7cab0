//! cloud-init merge dialect: spec-parser quirks (spec §9.3), the cheat sheet (§11.4), limits, observer, per-part extraction.

// Test harness: a failed unwrap is a failed test.

use cloudfold::merge::cloud_init::{
    MergeSpec, MergerStack, Options, SpecName, Version, default_mergers, merge_many, prepare_part,
};
use cloudfold::merge::{Decision, KeepReason, Limits, PyException, Trace};
use cloudfold::yaml::typed_json::{WalkLimits, from_typed_json, to_typed_json};
use cloudfold::yaml::value::{Entries, Map, Node, Seq, Value, insert};
use serde_json::json;

fn v(j: serde_json::Value) -> Node {
    from_typed_json(&j).unwrap()
}

fn j(n: &Node) -> serde_json::Value {
    to_typed_json(n, WalkLimits::default()).unwrap()
}

fn merge(spec: &str, old: serde_json::Value, new: serde_json::Value) -> serde_json::Value {
    let stack = MergerStack::parse(spec, Version::V25_1).unwrap();
    j(&stack.merge(&v(old), &v(new)).unwrap())
}

fn merge_err(spec: &str, old: serde_json::Value, new: serde_json::Value) -> PyException {
    let stack = MergerStack::parse(spec, Version::V25_1).unwrap();
    stack.merge(&v(old), &v(new)).unwrap_err().class
}

fn names_opts(spec: &MergeSpec) -> Vec<(String, Options)> {
    spec.entries
        .iter()
        .map(|e| (e.name.to_string(), e.options.clone()))
        .collect()
}

fn list(opts: &[&str]) -> Options {
    Options::List(opts.iter().map(|s| (*s).to_owned()).collect())
}

// ---- §9.3 string form ----

#[test]
fn string_form_normalises_tokens() {
    let s = MergeSpec::parse_str(
        " DICT(No-Replace , Recurse-LIST,)++list( )+",
        Version::V25_1,
    )
    .unwrap();
    assert_eq!(
        names_opts(&s),
        vec![
            ("dict".into(), list(&["no_replace", "recurse_list"])),
            ("list".into(), list(&[])),
        ]
    );
    assert!(MergeSpec::parse_str("", Version::V25_1).unwrap().is_empty());
    assert!(
        MergeSpec::parse_str(" + +", Version::V25_1)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn string_form_keeps_odd_options() {
    // Everything between the first `(` and the final `)`.
    let s = MergeSpec::parse_str("dict(replace))", Version::V25_1).unwrap();
    assert_eq!(names_opts(&s), vec![("dict".into(), list(&["replace)"]))]);
    let s = MergeSpec::parse_str("dict(a(b),c)", Version::V25_1).unwrap();
    assert_eq!(names_opts(&s), vec![("dict".into(), list(&["a(b)", "c"]))]);
    // `replace)` matches nothing: default no_replace.
    assert_eq!(
        merge("dict(replace))", json!({"a": 1}), json!({"a": 2})),
        json!({"a": 1})
    );
}

#[test]
fn string_form_errors_are_value_errors() {
    for bad in [
        "dict",
        "dict (replace)",
        " Dict ( Replace ) ",
        "1dict()",
        "dict()x",
        "dict(re\nplace)",
        "(x)",
    ] {
        let e = MergeSpec::parse_str(bad, Version::V25_1).unwrap_err();
        assert_eq!(e.class, PyException::ValueError, "{bad:?}");
        assert!(e.is_value_error());
    }
    let e = MergeSpec::parse_str("dict+list()", Version::V25_1).unwrap_err();
    assert_eq!(
        e.message,
        "Matcher identifier 'dict' is not in the right format"
    );
    let e = MergeSpec::parse_str("Dict-X", Version::V22_4).unwrap_err();
    assert_eq!(
        e.message,
        "Matcher identifer 'dict_x' is not in the right format"
    );
}

#[test]
fn unknown_names_are_import_errors() {
    let e = MergerStack::parse("dict()+foo()", Version::V25_1).unwrap_err();
    assert_eq!(e.class, PyException::ImportError);
    assert_eq!(
        e.message,
        "Could not find merger module named 'm_foo' with attribute 'Merger' \
         (searched ['cloudinit.mergers.m_foo'])"
    );
    // `m_` prefix is optional; `-` became `_` everywhere.
    assert!(MergerStack::parse("m_dict()+M-LIST()+m_str()", Version::V25_1).is_ok());
    assert_eq!(
        MergerStack::parse("m_m_dict()", Version::V25_1)
            .unwrap_err()
            .class,
        PyException::ImportError
    );
}

// ---- §9.3 list form (YAML value of merge_how) ----

fn spec_of(value: serde_json::Value) -> Result<MergeSpec, PyException> {
    MergeSpec::from_value(&v(value), Version::V25_1).map_err(|e| e.class)
}

fn resolve_of(value: serde_json::Value) -> Result<MergerStack, PyException> {
    MergerStack::resolve(&spec_of(value)?).map_err(|e| e.class)
}

#[test]
fn list_form_name_settings_dicts() {
    let s = spec_of(json!([{"name": " dict-", "settings": ["Replace", "x"]}])).unwrap();
    assert_eq!(
        names_opts(&s),
        vec![("dict_".into(), list(&["Replace", "x"]))]
    );
    // Name not lower-cased: `Dict` is unknown.
    assert_eq!(
        resolve_of(json!([{"name": "Dict", "settings": []}])).unwrap_err(),
        PyException::ImportError
    );
    // Settings as a string: substring tests (`no_replace` contains `replace`).
    let st = resolve_of(json!([{"name": "dict", "settings": "no_replace"}])).unwrap();
    assert_eq!(st.to_string(), "dict(replace)");
    let st = resolve_of(json!([{"name": "list", "settings": "no_replace"}])).unwrap();
    assert_eq!(st.to_string(), "list(replace)");
    // Settings as a mapping: key membership.
    let st = resolve_of(json!([{"name": "dict", "settings": {"replace": 1}}])).unwrap();
    assert_eq!(st.to_string(), "dict(replace)");
    // Missing keys, bad types.
    assert_eq!(
        spec_of(json!([{"name": "dict"}])).unwrap_err(),
        PyException::KeyError
    );
    assert_eq!(
        spec_of(json!([{"settings": []}])).unwrap_err(),
        PyException::KeyError
    );
    assert_eq!(
        spec_of(json!([{"name": 5, "settings": []}])).unwrap_err(),
        PyException::AttributeError
    );
    assert_eq!(
        resolve_of(json!([{"name": "dict", "settings": null}])).unwrap_err(),
        PyException::TypeError
    );
    assert_eq!(
        resolve_of(json!([{"name": "dict", "settings": 3}])).unwrap_err(),
        PyException::TypeError
    );
    assert_eq!(
        resolve_of(json!([{"name": "dict", "settings": {"$bytes_b64": "eA=="}}])).unwrap_err(),
        PyException::TypeError
    );
    // Falsy names are dropped (before settings are ever tested).
    assert!(
        spec_of(json!([{"name": "  ", "settings": null}]))
            .unwrap()
            .is_empty()
    );
}

#[test]
fn list_form_indexable_entries() {
    let s = spec_of(json!([["dict", "no_replace", "recurse_list"], ["list"]])).unwrap();
    assert_eq!(
        names_opts(&s),
        vec![
            ("dict".into(), list(&["no_replace", "recurse_list"])),
            ("list".into(), list(&[]))
        ]
    );
    // Non-string options never match; string ones still do.
    assert_eq!(
        resolve_of(json!([["dict", 5, "replace"]]))
            .unwrap()
            .to_string(),
        "dict(replace)"
    );
    // A tuple works like a list.
    assert_eq!(
        resolve_of(json!([{"$tuple": ["dict", "replace"]}]))
            .unwrap()
            .to_string(),
        "dict(replace)"
    );
    // A plain string is indexed by character: name `d`.
    let s = spec_of(json!(["dict(replace)"])).unwrap();
    assert_eq!(
        names_opts(&s),
        vec![("d".into(), Options::Substring("ict(replace)".into()))]
    );
    assert_eq!(
        resolve_of(json!(["dict(replace)"])).unwrap_err(),
        PyException::ImportError
    );
    // Falsy names dropped; non-string truthy names fail at construction.
    assert!(
        spec_of(json!([[0, "x"], [null], [false], [""]]))
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        spec_of(json!([[5]])).unwrap().entries[0].name,
        SpecName::NotStr("int")
    );
    assert_eq!(
        resolve_of(json!([[5]])).unwrap_err(),
        PyException::AttributeError
    );
    assert_eq!(
        resolve_of(json!([[true]])).unwrap_err(),
        PyException::AttributeError
    );
    // Names are checked in order before any options: ImportError beats a later AttributeError.
    assert_eq!(
        resolve_of(json!([["foo"], [5]])).unwrap_err(),
        PyException::ImportError
    );
    assert_eq!(
        resolve_of(json!([[5], ["foo"]])).unwrap_err(),
        PyException::AttributeError
    );
    assert_eq!(
        resolve_of(json!([{"name": "dict", "settings": null}, ["foo"]])).unwrap_err(),
        PyException::ImportError
    );
    // Empty entries, scalars.
    assert_eq!(spec_of(json!([[]])).unwrap_err(), PyException::IndexError);
    assert_eq!(spec_of(json!([""])).unwrap_err(), PyException::IndexError);
    assert_eq!(spec_of(json!([5])).unwrap_err(), PyException::TypeError);
    assert_eq!(spec_of(json!([null])).unwrap_err(), PyException::TypeError);
}

#[test]
fn list_form_whole_value() {
    // A mapping iterates its keys: `dict` → name `d`.
    assert_eq!(
        resolve_of(json!({"dict": 1})).unwrap_err(),
        PyException::ImportError
    );
    assert!(spec_of(json!({})).unwrap().is_empty());
    assert_eq!(spec_of(json!(5)).unwrap_err(), PyException::TypeError);
    assert_eq!(spec_of(json!(true)).unwrap_err(), PyException::TypeError);
    assert_eq!(spec_of(json!(1.5)).unwrap_err(), PyException::TypeError);
    assert_eq!(
        spec_of(json!({"$bytes_b64": "YWI="})).unwrap_err(),
        PyException::TypeError
    );
    assert!(spec_of(json!({"$bytes_b64": ""})).unwrap().is_empty());
    // A string is the string form.
    assert_eq!(spec_of(json!("dict")).unwrap_err(), PyException::ValueError);
}

// ---- §11.4 cheat sheet ----

fn part(spec: Option<&str>, header: Option<&str>, data: serde_json::Value) -> Node {
    let mut d = data;
    if let Some(s) = spec {
        d.as_object_mut()
            .unwrap()
            .insert("merge_how".into(), json!(s));
    }
    let p = prepare_part(&v(d), header, Version::V25_1).unwrap();
    p.data.clone()
}

fn fold(parts: &[(Option<&str>, serde_json::Value)]) -> serde_json::Value {
    let mut acc = v(json!({}));
    for (spec, data) in parts {
        let mut d = data.clone();
        if let Some(s) = spec {
            d.as_object_mut()
                .unwrap()
                .insert("merge_how".into(), json!(s));
        }
        let p = prepare_part(&v(d), None, Version::V25_1).unwrap();
        acc = p.merge_into(&acc).unwrap();
    }
    j(&acc)
}

#[test]
fn cheat_sheet() {
    let old = json!({"s": "a", "n": 1, "l": [1], "m": {"x": [1], "y": "p", "z": 1}, "k": 1});
    let new = json!({"s": "b", "n": 2, "l": [2], "m": {"x": [2], "y": "q", "w": 3}, "k": null});
    let run = |spec: Option<&str>| fold(&[(None, old.clone()), (spec, new.clone())]);
    // Default dict(replace)+list()+str(): wholesale replacement, null included.
    assert_eq!(run(None), new);
    // dict() / dict(no_replace): keep old, merge nested mappings, add keys.
    let keep =
        json!({"s": "a", "n": 1, "l": [1], "m": {"x": [1], "y": "p", "z": 1, "w": 3}, "k": 1});
    assert_eq!(run(Some("dict()")), keep);
    assert_eq!(run(Some("dict(no_replace)")), keep);
    // dict(no_replace,recurse_list)+list(append): lists concatenated at any depth.
    assert_eq!(
        run(Some("dict(no_replace,recurse_list)+list(append)")),
        json!({"s": "a", "n": 1, "l": [1, 2], "m": {"x": [1, 2], "y": "p", "z": 1, "w": 3}, "k": 1})
    );
    assert_eq!(
        run(Some("dict(recurse_list)+list(prepend)")),
        json!({"s": "a", "n": 1, "l": [2, 1], "m": {"x": [2, 1], "y": "p", "z": 1, "w": 3}, "k": 1})
    );
    // dict(replace)+list(append): same as the default.
    assert_eq!(run(Some("dict(replace)+list(append)")), new);
    // dict(recurse_str)+str(append): strings concatenated.
    assert_eq!(
        run(Some("dict(recurse_str)+str(append)")),
        json!({"s": "ab", "n": 1, "l": [1], "m": {"x": [1], "y": "pq", "z": 1, "w": 3}, "k": 1})
    );
    // dict(allow_delete,no_replace): null deletes.
    assert_eq!(
        run(Some("dict(allow_delete,no_replace)")),
        json!({"s": "a", "n": 1, "l": [1], "m": {"x": [1], "y": "p", "z": 1, "w": 3}})
    );
    // list(append) alone: no dict merger, the part changes nothing.
    assert_eq!(run(Some("list(append)")), old);
}

#[test]
fn list_overlay_truncates() {
    assert_eq!(
        merge("list()", json!([1, 2, 3]), json!([9])),
        json!([9, 2, 3])
    );
    assert_eq!(merge("list()", json!([1]), json!([7, 8, 9])), json!([7]));
    assert_eq!(merge("list()", json!([]), json!([1, 2])), json!([]));
    // Tuples stay tuples, and `tuple(new)` iterates a replacing value.
    assert_eq!(
        merge("list()", json!({"$tuple": [1, 2]}), json!("ab")),
        json!({"$tuple": ["a", "b"]})
    );
    assert_eq!(
        merge_err("list()", json!({"$tuple": [1, 2]}), json!(null)),
        PyException::TypeError
    );
    assert_eq!(
        merge("list(append)", json!({"$tuple": [1, 2]}), json!([3])),
        json!({"$tuple": [1, 2, 3]})
    );
    // no_replace indexes new: a mapping with int keys works, others fail.
    assert_eq!(
        merge("list(no_replace)", json!([1]), json!({"$int:0": 5})),
        json!([1])
    );
    assert_eq!(
        merge_err("list(no_replace)", json!([1]), json!({"a": 1})),
        PyException::KeyError
    );
    assert_eq!(
        merge_err("list(no_replace)", json!([1]), json!({"$set": [1]})),
        PyException::TypeError
    );
    assert_eq!(
        merge_err("list(no_replace)", json!([1]), json!(5)),
        PyException::TypeError
    );
}

// ---- §9.2 per-part extraction ----

#[test]
fn merge_how_and_merge_type_popping() {
    // merge_how wins; merge_type stays in the data.
    let d = part(
        None,
        None,
        json!({"merge_how": "dict()", "merge_type": "list()", "a": 1}),
    );
    assert_eq!(j(&d), json!({"merge_type": "list()", "a": 1}));
    // merge_how null: both popped, merge_type used.
    let p = prepare_part(
        &v(json!({"merge_how": null, "merge_type": "dict(replace)", "a": 1})),
        None,
        Version::V25_1,
    )
    .unwrap();
    assert_eq!(j(&p.data), json!({"a": 1}));
    assert_eq!(p.stack.to_string(), "dict(replace)");
    // Payload spec first, then header: the header only adds missing types.
    let p = prepare_part(
        &v(json!({"merge_how": "dict()", "a": 1})),
        Some("dict(replace)+list(append)"),
        Version::V25_1,
    )
    .unwrap();
    assert_eq!(
        p.stack.to_string(),
        "dict(no_replace)+dict(replace)+list(append)"
    );
    // Nothing given → dict(replace)+list()+str().
    let p = prepare_part(&v(json!({"a": 1})), Some(""), Version::V25_1).unwrap();
    assert_eq!(p.stack.to_string(), "dict(replace)+list(replace)+str()");
    // Untouched data is the same node.
    let n = v(json!({"a": 1}));
    let p = prepare_part(&n, None, Version::V25_1).unwrap();
    assert!(Node::ptr_eq(&n, &p.data));
    // A bad header is a ValueError; a bad payload entry wins over it.
    let e = prepare_part(&v(json!({"a": 1})), Some("dict"), Version::V25_1).unwrap_err();
    assert_eq!(e.class, PyException::ValueError);
    let e = prepare_part(&v(json!({"merge_how": [[]]})), Some("dict"), Version::V25_1).unwrap_err();
    assert_eq!(e.class, PyException::IndexError);
}

#[test]
fn mergemanydict_default_first_wins() {
    let srcs = [
        v(json!({"1": "2", "b": "c"})),
        v(json!({"b": "e", "Blah3": [1]})),
        v(json!({})),
    ];
    assert_eq!(
        j(&merge_many(&srcs, Version::V25_1).unwrap()),
        json!({"1": "2", "b": "c", "Blah3": [1]})
    );
    assert_eq!(
        default_mergers().to_string(),
        "list(replace)+dict(no_replace)+str()"
    );
}

// ---- identity, spans, keys ----

#[test]
fn new_values_are_inserted_as_is_and_old_keys_kept() {
    let old = v(json!({"$int:1": "a", "m": {"x": 1}}));
    let new = v(json!({"$float:1.0": "b", "m": {"y": [1]}, "z": [2]}));
    let out = MergerStack::parse("dict(replace)", Version::V25_1)
        .unwrap()
        .merge(&old, &new)
        .unwrap();
    let m = out.as_map().unwrap();
    // The old key object `1` (an int) is kept, with new's value.
    let (k, val) = m.get_index(0).unwrap();
    assert_eq!(k.type_name(), "int");
    assert_eq!(val.as_str(), Some("b"));
    // Values from new are the same nodes.
    let new_z = new.as_map().unwrap().get_str("z").unwrap();
    assert!(Node::ptr_eq(m.get_str("z").unwrap(), new_z));
    // Old is untouched.
    assert_eq!(j(&old), json!({"$int:1": "a", "m": {"x": 1}}));
}

// ---- limits ----

fn nest_dicts(n: usize) -> Node {
    let mut d = v(json!({}));
    for _ in 0..n {
        let mut e = Entries::default();
        insert(&mut e, Node::str("a"), d);
        d = Node::synthetic(Value::Map(Map::new(e)));
    }
    d
}

fn nest_lists(n: usize) -> Node {
    let mut d = v(json!([]));
    for _ in 0..n {
        d = Node::synthetic(Value::Seq(Seq::new(vec![d])));
    }
    d
}

#[test]
fn recursion_limit_matches_python_direct_call() {
    let dict = MergerStack::parse("dict()", Version::V25_1).unwrap();
    assert!(dict.merge(&nest_dicts(198), &nest_dicts(198)).is_ok());
    let e = dict.merge(&nest_dicts(199), &nest_dicts(199)).unwrap_err();
    assert_eq!(e.class, PyException::RecursionError);
    let list = MergerStack::parse("list(recurse_list)", Version::V25_1).unwrap();
    assert!(list.merge(&nest_lists(248), &nest_lists(248)).is_ok());
    assert_eq!(
        list.merge(&nest_lists(249), &nest_lists(249))
            .unwrap_err()
            .class,
        PyException::RecursionError
    );
}

#[test]
fn recursive_values_end_in_recursion_error() {
    // a = {"a": a}, as a recursive YAML alias builds it.
    let m = Map::pending();
    let a = Node::synthetic(Value::Map(m));
    let mut e = Entries::default();
    insert(&mut e, Node::str("a"), a.clone());
    a.as_map().unwrap().fill(e).unwrap();
    let dict = MergerStack::parse("dict()", Version::V25_1).unwrap();
    let err = dict.merge(&a, &a).unwrap_err();
    assert_eq!(err.class, PyException::RecursionError);
    // Even with a huge frame budget the engine stops by itself.
    let big = dict.with_limits(Limits {
        python_frames: usize::MAX,
        max_work: 1_000_000,
    });
    assert!(big.merge(&a, &a).is_err());
    // Also while observing (bigger frames).
    let mut trace = Trace::default();
    assert!(big.merge_observed(&a, &a, &mut trace).is_err());
    let list_stack = MergerStack::parse("list(recurse_list)", Version::V25_1)
        .unwrap()
        .with_limits(Limits {
            python_frames: usize::MAX,
            max_work: 1_000_000,
        });
    let l = Node::synthetic(Value::Seq(Seq::pending()));
    l.as_seq().unwrap().fill(vec![l.clone()]).unwrap();
    assert!(list_stack.merge_observed(&l, &l, &mut trace).is_err());
}

#[test]
fn shared_aliases_hit_the_work_budget() {
    // d_{k+1} = {"a": d_k, "b": d_k}: 2^k paths over k+1 nodes.
    let mut d = v(json!({"x": 1}));
    for _ in 0..40 {
        let mut e = Entries::default();
        insert(&mut e, Node::str("a"), d.clone());
        insert(&mut e, Node::str("b"), d.clone());
        d = Node::synthetic(Value::Map(Map::new(e)));
    }
    let dict = MergerStack::parse("dict()", Version::V25_1)
        .unwrap()
        .with_limits(Limits {
            max_work: 200_000,
            ..Limits::default()
        });
    assert_eq!(
        dict.merge(&d, &d).unwrap_err().class,
        PyException::MemoryError
    );
}

// ---- observer ----

#[test]
fn trace_reports_decisions_with_paths() {
    let stack =
        MergerStack::parse("dict(recurse_list,allow_delete)+list()", Version::V25_1).unwrap();
    let old = v(json!({"runcmd": ["a", "b", "c"], "x": 1, "gone": 1, "odd key": 1}));
    let new = v(json!({"runcmd": ["z"], "x": 2, "gone": null, "y": 3, "odd key": 2}));
    let mut trace = Trace::default();
    let out = stack.merge_observed(&old, &new, &mut trace).unwrap();
    assert_eq!(
        j(&out),
        json!({"runcmd": ["z", "b", "c"], "x": 1, "odd key": 1, "y": 3})
    );
    let got: Vec<(String, Decision)> = trace
        .entries
        .iter()
        .map(|e| (e.path_text.clone(), e.decision))
        .collect();
    assert_eq!(
        got,
        vec![
            ("$.runcmd".into(), Decision::Recursed),
            (
                "$.runcmd".into(),
                Decision::OverlaidTruncated {
                    old_len: 3,
                    new_len: 1
                }
            ),
            ("$.runcmd[0]".into(), Decision::Replaced),
            ("$.x".into(), Decision::KeptOld(KeepReason::NotRecursed)),
            ("$.gone".into(), Decision::Deleted),
            ("$.y".into(), Decision::Added),
            (
                "$['odd key']".into(),
                Decision::KeptOld(KeepReason::NotRecursed)
            ),
        ]
    );
}

#[test]
fn errors_are_located() {
    let stack = MergerStack::parse("dict(recurse_str)+str(append)", Version::V25_1).unwrap();
    let old = v(json!({"a": {"b": "x"}}));
    let new = v(json!({"a": {"b": 5}}));
    // 5 is not recursed into (not a str): fine.
    assert!(stack.merge(&old, &new).is_ok());
    let stack = MergerStack::parse("dict()+str(append)", Version::V25_1).unwrap();
    let new = v(json!({"a": {"b": {"c": 1}}}));
    // Located with or without an observer.
    let e = stack.merge(&old, &new).unwrap_err();
    assert_eq!(e.at.as_deref(), Some("$.a.b"));
    let mut trace = Trace::default();
    let e = stack.merge_observed(&old, &new, &mut trace).unwrap_err();
    assert_eq!(e.class, PyException::TypeError);
    assert_eq!(e.at.as_deref(), Some("$.a.b"));
    assert_eq!(
        e.to_string(),
        "TypeError: can only concatenate str (not \"dict\") to str (at $.a.b)"
    );
    let stack = MergerStack::parse(
        "dict(recurse_list)+list(recurse_list,recurse_dict)+str(append)",
        Version::V25_1,
    )
    .unwrap();
    let e = stack
        .merge(
            &v(json!({"x y": [["s"]]})),
            &v(json!({"x y": [[{"k": 1}]]})),
        )
        .unwrap_err();
    assert_eq!(e.at.as_deref(), Some("$['x y'][0][0]"));
}

#[test]
fn mergemanydict_compat_examples() {
    let many = |srcs: Vec<serde_json::Value>| {
        let nodes: Vec<Node> = srcs.into_iter().map(v).collect();
        j(&merge_many(&nodes, Version::V25_1).unwrap())
    };
    assert_eq!(
        many(vec![json!({"1": "2", "b": "c"}), json!({"b": "e"})]),
        json!({"1": "2", "b": "c"})
    );
    assert_eq!(
        many(vec![json!({"Blah3": 3}), json!({"Blah3": [1]})]),
        json!({"Blah3": 3})
    );
    assert_eq!(
        many(vec![
            json!({"l": [1, 2, 3]}),
            json!({"l": [4, 5]}),
            json!({"l": [6, 7]})
        ]),
        json!({"l": [1, 2, 3]})
    );
    assert_eq!(
        many(vec![json!({"s": "a"}), json!({"s": "b"})]),
        json!({"s": "a"})
    );
    assert_eq!(
        many(vec![json!({"m": {"x": 1}}), json!({"m": {"x": 2, "y": 3}})]),
        json!({"m": {"x": 1, "y": 3}})
    );
    assert_eq!(
        many(vec![json!({"f": ["1"]}), json!({"f": []})]),
        json!({"f": ["1"]})
    );
    // A source's own spec governs how it merges into the higher-priority data.
    assert_eq!(
        many(vec![
            json!({"l": [1]}),
            json!({"l": [2], "merge_how": "dict(recurse_list)+list(append)"})
        ]),
        json!({"l": [1, 2]})
    );
    // Falsy sources are skipped.
    assert_eq!(many(vec![json!({}), json!({"a": 1})]), json!({"a": 1}));
}

/// First nesting depth at which the merge fails with RecursionError.
fn first_recursion_failure(
    spec: &str,
    make_old: impl Fn(usize) -> Node,
    make_new: impl Fn(usize) -> Node,
) -> usize {
    let stack = MergerStack::parse(spec, Version::V25_1).unwrap();
    (150..300)
        .find(|&n| {
            stack
                .merge(&make_old(n), &make_new(n))
                .is_err_and(|e| e.class == PyException::RecursionError)
        })
        .unwrap()
}

fn wrap_dict(inner: Node) -> Node {
    let mut e = Entries::default();
    insert(&mut e, Node::str("a"), inner);
    Node::synthetic(Value::Map(Map::new(e)))
}

fn nest_with(n: usize, leaf: Node, wrap: impl Fn(usize, Node) -> Node) -> Node {
    (0..n).fold(leaf, |d, i| wrap(i, d))
}

#[test]
fn recursion_thresholds_match_python_for_other_shapes() {
    // Recorded with cloud-init's mergers called directly (CPython 3.11).
    let tuple = |n| {
        nest_with(n, v(json!({"$tuple": []})), |_, d| {
            Node::synthetic(Value::Tuple(Seq::new(vec![d])))
        })
    };
    assert_eq!(
        first_recursion_failure("list(recurse_list)", tuple, tuple),
        199
    );
    let mixed = |n| {
        nest_with(n, v(json!({})), |i, d| {
            if i % 2 == 1 {
                Node::synthetic(Value::Seq(Seq::new(vec![d])))
            } else {
                wrap_dict(d)
            }
        })
    };
    assert_eq!(
        first_recursion_failure("dict(recurse_list)+list(recurse_dict)", mixed, mixed),
        221
    );
    let str_leaf = |n| nest_with(n, Node::str("s"), |_, d| wrap_dict(d));
    assert_eq!(
        first_recursion_failure("dict(recurse_str)+str()", str_leaf, str_leaf),
        199
    );
    let int_leaf = |n| nest_with(n, v(json!(5)), |_, d| wrap_dict(d));
    assert_eq!(
        first_recursion_failure("dict(recurse_str)+str()", int_leaf, str_leaf),
        199
    );
}

#[test]
fn recursion_thresholds_for_list_leaves() {
    let lists = |leaf: serde_json::Value| {
        move |n| {
            nest_with(n, v(leaf.clone()), |_, d| {
                Node::synthetic(Value::Seq(Seq::new(vec![d])))
            })
        }
    };
    let a = first_recursion_failure("list(recurse_list)", lists(json!(5)), lists(json!([])));
    let b = first_recursion_failure(
        "list(recurse_list,recurse_str)",
        lists(json!("s")),
        lists(json!("t")),
    );
    // Both recorded from cloud-init's mergers: 249.
    assert_eq!((a, b), (249, 249));
}
