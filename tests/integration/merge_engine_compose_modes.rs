//! The engine modes the compose dialect added, driven by a minimal rules table: `DictMode::Merge`, `ListMode::Union`, `Strategy::Flatten`, `Strategy::Replace`, `Strategy::Conflict`.

use cloudfold::merge::{
    DictMode, DictStrategy, FlattenStrategy, Limits, ListMode, ListStrategy, MergeError,
    NoObserver, Path, PathSeg, Recurse, Rules, Strategy, merge_with,
};
use cloudfold::yaml::value::{Node, Value};
use cloudfold::yaml::{LoadOptions, load};

/// Mappings merge, `u` is a union keyed by the text before `:`, `f` is
/// flattened with de-duplication by the text before `=`, `r` is replaced,
/// other lists append, scalars are replaced, mapping vs scalar conflicts.
struct Table;

fn last_key(path: &Path) -> Option<String> {
    match path.segments().last() {
        Some(PathSeg::Key(k)) => k.as_str().map(str::to_string),
        _ => None,
    }
}

impl Rules for Table {
    fn strategy_for(&self, _path: &Path, _old: &Node) -> Option<&Strategy> {
        None
    }

    fn uses_path(&self) -> bool {
        true
    }

    fn strategy_for_new(&self, path: &Path, old: &Node, new: &Node) -> Option<Strategy> {
        match last_key(path).as_deref() {
            Some("f") => return Some(Strategy::Flatten(FlattenStrategy { unique: true })),
            Some("r") => return Some(Strategy::Replace),
            _ => {}
        }
        if new.is_null() {
            return None;
        }
        match (old.value(), new.value()) {
            (Value::Map(_), Value::Map(_)) => Some(Strategy::Dict(DictStrategy {
                mode: DictMode::Merge,
                allow_delete: false,
                recurse: Recurse::default(),
            })),
            (Value::Seq(_), Value::Seq(_)) => Some(Strategy::List(ListStrategy {
                mode: if last_key(path).as_deref() == Some("u") {
                    ListMode::Union
                } else {
                    ListMode::Append
                },
                recurse: Recurse::default(),
            })),
            (Value::Map(_) | Value::Seq(_), _) => Some(Strategy::Conflict),
            _ => Some(Strategy::Replace),
        }
    }

    fn item_key(&self, path: &Path, item: &Node) -> Result<Option<String>, MergeError> {
        let sep = if last_key(path).as_deref() == Some("u") {
            ':'
        } else {
            '='
        };
        Ok(item
            .as_str()
            .map(|s| s.split(sep).next().unwrap_or_default().to_string()))
    }
}

fn y(text: &str) -> Node {
    load(text, &LoadOptions::default()).unwrap().unwrap()
}

fn merged(a: &str, b: &str) -> Result<String, MergeError> {
    let out = merge_with(&Table, &y(a), &y(b), &Limits::default(), &mut NoObserver)?;
    Ok(cloudfold::yaml::value::py_repr(&out))
}

#[test]
fn mappings_merge_scalars_replace_and_null_keeps() {
    assert_eq!(
        merged("{a: 1, m: {x: 1}}", "{a: 2, m: {y: 2}, n: null}").unwrap(),
        "{'a': 2, 'm': {'x': 1, 'y': 2}, 'n': None}"
    );
    assert_eq!(merged("{a: 1}", "{a: null}").unwrap(), "{'a': 1}");
}

#[test]
fn union_keeps_first_position_and_last_value() {
    assert_eq!(
        merged("{u: ['a:1', 'b:1']}", "{u: ['c:2', 'a:2']}").unwrap(),
        "{'u': ['a:2', 'b:1', 'c:2']}"
    );
}

#[test]
fn flatten_turns_mappings_into_sorted_entries() {
    assert_eq!(
        merged("{f: {B: 1, A: null}}", "{f: [B=2, C=3]}").unwrap(),
        "{'f': ['A', 'B=2', 'C=3']}"
    );
}

#[test]
fn replace_and_conflict() {
    assert_eq!(merged("{r: [1, 2]}", "{r: [3]}").unwrap(), "{'r': [3]}");
    let e = merged("{m: {x: 1}}", "{m: 3}").unwrap_err();
    assert!(e.message.contains("cannot override"), "{e}");
    assert_eq!(e.at.as_deref(), Some("$.m"));
}
