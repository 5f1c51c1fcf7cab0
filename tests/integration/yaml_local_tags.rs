//! `load_tagged`: local tags kept as annotations, values built as if untagged.

use cloudfold::yaml::value::Value;
use cloudfold::yaml::{LoadOptions, load, load_tagged};

fn opts() -> LoadOptions {
    LoadOptions {
        keep_local_tags: true,
        ..LoadOptions::default()
    }
}

#[test]
fn tagged_nodes_resolve_as_untagged_and_report_their_tag() {
    let text = "a: !priority:10 5\nb: !override true\nc: !reset [1, 2]\nd: !default {x: 1}\ne: !force 'q'\nf: plain\n";
    let (root, tags) = load_tagged(text, &opts()).unwrap().unwrap();
    let map = root.as_map().unwrap();
    let get = |k: &str| map.get_str(k).unwrap().clone();
    assert!(matches!(get("a").value(), Value::Int(_)));
    assert!(matches!(get("b").value(), Value::Bool(true)));
    assert!(matches!(get("c").value(), Value::Seq(_)));
    assert!(matches!(get("d").value(), Value::Map(_)));
    assert_eq!(get("e").as_str(), Some("q"));
    assert_eq!(tags.tag(&get("a")), Some("!priority:10"));
    assert_eq!(tags.tag(&get("b")), Some("!override"));
    assert_eq!(
        tags.get(&get("b")).unwrap().scalar_text.as_deref(),
        Some("true")
    );
    assert_eq!(tags.tag(&get("c")), Some("!reset"));
    assert_eq!(tags.get(&get("c")).unwrap().scalar_text, None);
    assert_eq!(tags.tag(&get("d")), Some("!default"));
    assert_eq!(tags.tag(&get("e")), Some("!force"));
    assert_eq!(tags.tag(&get("f")), None);
    assert_eq!(tags.len(), 5);
}

#[test]
fn without_the_option_local_tags_fail_as_in_pyyaml() {
    let err = load("a: !reset 1\n", &LoadOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("could not determine a constructor for the tag '!reset'"),
        "{err}"
    );
    // Standard tags still apply with the option on.
    let (root, tags) = load_tagged("a: !!str 1\n", &opts()).unwrap().unwrap();
    let a = root.as_map().unwrap().get_str("a").unwrap().clone();
    assert_eq!(a.as_str(), Some("1"));
    assert!(tags.is_empty());
}
