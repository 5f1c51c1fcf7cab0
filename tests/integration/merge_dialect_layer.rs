//! `Layer` loading and `origins`: the parts every merge dialect shares.

use cloudfold::merge::dialect::{ExpansionExceeded, Layer, origins};
use cloudfold::source::SourceId;

#[test]
fn a_layer_keeps_tags_and_spans() {
    let layer = Layer::load("a.yaml", SourceId(3), "a: !reset [1]\nb:\n  c: 2\n").unwrap();
    let map = layer.root.as_map().unwrap();
    assert_eq!(layer.tags.tag(map.get_str("a").unwrap()), Some("!reset"));
    let list = origins(&layer.root, 100).unwrap();
    let shown: Vec<String> = list
        .iter()
        .map(|o| {
            format!(
                "{} {}:{}:{}",
                o.path,
                o.source.0,
                o.start.line + 1,
                o.start.column + 1
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "$ 3:1:1",
            "$.a 3:1:4",
            "$.a[0] 3:1:12",
            "$.b 3:3:3",
            "$.b.c 3:3:6"
        ]
    );
}

#[test]
fn an_empty_document_is_null_and_bad_yaml_is_a_located_diagnostic() {
    let empty = Layer::load("e.yaml", SourceId(0), "# nothing\n").unwrap();
    assert!(empty.root.is_null());
    let d = Layer::load("bad.yaml", SourceId(1), "a:\n\tb: 1\n").unwrap_err();
    assert_eq!(d.code, "merge-input-yaml");
    let at = d.primary.unwrap().span.start;
    assert_eq!((at.line, at.column), (1, 0));
}

#[test]
fn origins_stop_at_the_budget_on_an_alias_bomb() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let layer = Layer::load("bomb.yaml", SourceId(0), &text).unwrap();
    assert_eq!(origins(&layer.root, 10_000), Err(ExpansionExceeded(10_000)));
}
