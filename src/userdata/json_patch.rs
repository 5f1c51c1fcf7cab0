//! `JsonPatch`: RFC 6902 over our values, with the quirks of python-jsonpatch 1.33 / jsonpointer 3.1.
//!
//! cloud-init applies a `#cloud-config-jsonp` part to a `copy.deepcopy` of the
//! accumulated config and then mutates it in place. A deep copy keeps shared
//! objects shared, so a change through one alias shows through every other.
//! To reproduce that, the document is copied into a mutable arena (one slot
//! per container, sharing kept), patched there, and turned back into nodes.

use crate::source::Span;
use crate::yaml::value::{Entries, Key, Map, Node, PyStr, PyStrBuilder, Seq, Value, insert, py_eq};
use indexmap::IndexMap;
use std::collections::HashMap;

/// Why a patch did not apply. cloud-init skips the part in every case; the
/// python class only decides whether it is listed as a schema error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{class}: {message}")]
pub struct PatchError {
    /// Python exception class (`InvalidJsonPatch`, `JsonPatchConflict`,
    /// `JsonPointerException`, `JsonPatchTestFailed`, `TypeError`, …).
    pub class: &'static str,
    /// What went wrong.
    pub message: String,
}

fn fail(class: &'static str, message: impl Into<String>) -> PatchError {
    PatchError {
        class,
        message: message.into(),
    }
}

type Id = usize;

/// A slot of the mutable copy.
enum Slot {
    /// A value that patches cannot change in place (scalars, and
    /// str/bytes which are immutable sequences).
    Leaf(Node),
    List(Vec<Id>, Span),
    Tuple(Vec<Id>, Span),
    Dict(IndexMap<Key, Id>, Span),
    Set(Node),
}

/// The mutable copy.
struct Arena {
    slots: Vec<Slot>,
}

impl Arena {
    fn push(&mut self, s: Slot) -> Id {
        self.slots.push(s);
        self.slots.len() - 1
    }

    /// `copy.deepcopy`, keeping shared objects shared (and cycles).
    fn import(&mut self, node: &Node, memo: &mut HashMap<usize, Id>) -> Id {
        if let Some(&id) = memo.get(&node.id()) {
            return id;
        }
        let id = self.push(Slot::Leaf(node.clone()));
        memo.insert(node.id(), id);
        let slot = match node.value() {
            Value::Seq(s) => Slot::List(
                s.iter().map(|n| self.import(n, memo)).collect(),
                node.span(),
            ),
            Value::Tuple(s) => Slot::Tuple(
                s.iter().map(|n| self.import(n, memo)).collect(),
                node.span(),
            ),
            Value::Map(m) => {
                let mut d = IndexMap::with_capacity(m.len());
                for (k, v) in m.iter() {
                    let vid = self.import(v, memo);
                    d.insert(Key(k.clone()), vid);
                }
                Slot::Dict(d, node.span())
            }
            Value::Set(_) => Slot::Set(node.clone()),
            _ => return id,
        };
        if let Some(s) = self.slots.get_mut(id) {
            *s = slot;
        }
        id
    }

    fn export(&self, id: Id, memo: &mut HashMap<Id, Node>) -> Node {
        if let Some(n) = memo.get(&id) {
            return n.clone();
        }
        let node = match self.slots.get(id) {
            None => Node::synthetic(Value::Null),
            Some(Slot::Leaf(n) | Slot::Set(n)) => n.clone(),
            Some(Slot::List(items, span) | Slot::Tuple(items, span)) => {
                let seq = Seq::pending();
                let tuple = matches!(self.slots.get(id), Some(Slot::Tuple(..)));
                let node = Node::new(
                    if tuple {
                        Value::Tuple(seq)
                    } else {
                        Value::Seq(seq)
                    },
                    *span,
                );
                memo.insert(id, node.clone());
                let children: Vec<Node> = items.iter().map(|&c| self.export(c, memo)).collect();
                if let Some(s) = node.as_seq() {
                    let _ = s.fill(children);
                }
                node
            }
            Some(Slot::Dict(d, span)) => {
                let node = Node::new(Value::Map(Map::pending()), *span);
                memo.insert(id, node.clone());
                let mut entries = Entries::with_capacity(d.len());
                for (k, &v) in d {
                    insert(&mut entries, k.0.clone(), self.export(v, memo));
                }
                if let Some(m) = node.as_map() {
                    let _ = m.fill(entries);
                }
                node
            }
        };
        memo.insert(id, node.clone());
        node
    }

    fn is_sequence(&self, id: Id) -> bool {
        match self.slots.get(id) {
            Some(Slot::List(..) | Slot::Tuple(..)) => true,
            Some(Slot::Leaf(n)) => matches!(n.value(), Value::Str(_) | Value::Bytes(_)),
            _ => false,
        }
    }

    fn is_mapping(&self, id: Id) -> bool {
        matches!(self.slots.get(id), Some(Slot::Dict(..)))
    }
}

/// A pointer step after `get_part`: a key, a list index, or `-`.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Key(PyStr),
    Index(usize),
    End,
    /// The pointer is empty: the document itself.
    Root,
}

fn parse_pointer(p: &PyStr) -> Result<Vec<PyStr>, PatchError> {
    let b = p.as_wtf8();
    for (i, &c) in b.iter().enumerate() {
        if c == b'~' && !matches!(b.get(i + 1), Some(b'0' | b'1')) {
            return Err(fail("JsonPointerException", "Found invalid escape"));
        }
    }
    let mut parts = b.split(|&c| c == b'/');
    if parts.next() != Some(&[][..]) {
        return Err(fail("JsonPointerException", "Location must start with /"));
    }
    // Unescaping `~1` then `~0`, as jsonpointer does (so `~01` is `~1`).
    Ok(parts
        .map(|t| {
            let mut out = PyStrBuilder::with_capacity(t.len());
            let mut rest = t;
            while let Some(i) = rest.iter().position(|&c| c == b'~') {
                out.push_wtf8(rest.get(..i).unwrap_or_default());
                match rest.get(i + 1) {
                    Some(b'1') => out.push('/'),
                    _ => out.push('~'),
                }
                rest = rest.get(i + 2..).unwrap_or_default();
            }
            out.push_wtf8(rest);
            out.finish()
        })
        .collect())
}

/// A pointer token as a dict key.
fn key_node(k: &PyStr) -> Node {
    Node::synthetic(Value::Str(k.clone()))
}

fn valid_index(s: &str) -> Option<usize> {
    let ok = s == "0"
        || (s.starts_with(|c: char| ('1'..='9').contains(&c))
            && s.bytes().all(|b| b.is_ascii_digit()));
    if ok { s.parse().ok() } else { None }
}

impl Arena {
    fn get_part(&self, doc: Id, part: &PyStr) -> Result<Part, PatchError> {
        if self.is_mapping(doc) {
            return Ok(Part::Key(part.clone()));
        }
        if self.is_sequence(doc) {
            if part == "-" {
                return Ok(Part::End);
            }
            return part
                .as_str()
                .and_then(valid_index)
                .map(Part::Index)
                .ok_or_else(|| {
                    fail(
                        "JsonPointerException",
                        format!("'{part}' is not a valid sequence index"),
                    )
                });
        }
        Err(fail(
            "JsonPointerException",
            "Document does not support indexing",
        ))
    }

    /// `doc[part]` for walking; `None` when Python raises.
    fn child(&mut self, doc: Id, part: &Part) -> Result<Id, PatchError> {
        let missing = || fail("JsonPointerException", format!("member {part:?} not found"));
        match (self.slots.get(doc), part) {
            (Some(Slot::Dict(d, _)), Part::Key(k)) => {
                d.get(&Key(key_node(k))).copied().ok_or_else(missing)
            }
            (Some(Slot::List(v, _) | Slot::Tuple(v, _)), Part::Index(i)) => {
                v.get(*i).copied().ok_or_else(missing)
            }
            (Some(Slot::Leaf(n)), Part::Index(i)) => {
                let leaf = match n.value() {
                    Value::Str(s) => s
                        .chars()
                        .nth(*i)
                        .map(|c| Value::Str(PyStr::from_code_points([c]))),
                    Value::Bytes(b) => b.get(*i).map(|&x| Value::Int(i64::from(x).into())),
                    _ => None,
                };
                let v = leaf.ok_or_else(missing)?;
                Ok(self.push(Slot::Leaf(Node::synthetic(v))))
            }
            _ => Err(missing()),
        }
    }

    fn resolve_last(&mut self, root: Id, parts: &[PyStr]) -> Result<(Id, Part), PatchError> {
        let Some((last, init)) = parts.split_last() else {
            return Ok((root, Part::Root));
        };
        let mut doc = root;
        for p in init {
            let part = self.get_part(doc, p)?;
            if part == Part::End {
                // EndOfList: nothing can be indexed below it.
                return Err(fail(
                    "JsonPointerException",
                    "Document does not support indexing",
                ));
            }
            doc = self.child(doc, &part)?;
        }
        Ok((doc, self.get_part(doc, last)?))
    }
}

/// One parsed operation.
struct Op<'a> {
    op: &'a str,
    path: Vec<PyStr>,
    from: Option<Result<Vec<PyStr>, PatchError>>,
    value: Option<&'a Node>,
}

fn parse_ops(patch: &Node) -> Result<Vec<Op<'_>>, PatchError> {
    let items: Vec<&Node> = match patch.value() {
        Value::Seq(s) | Value::Tuple(s) => s.iter().collect(),
        Value::Map(_) | Value::Str(_) => {
            return Err(fail(
                "InvalidJsonPatch",
                "Document is expected to be sequence of operations",
            ));
        }
        _ => {
            return Err(fail(
                "TypeError",
                format!("'{}' object is not iterable", patch.type_name()),
            ));
        }
    };
    let mut ops = Vec::with_capacity(items.len());
    for it in items {
        let Some(m) = it.as_map() else {
            return Err(fail("InvalidJsonPatch", "Operation is not an object"));
        };
        let op = m
            .get_str("op")
            .ok_or_else(|| fail("InvalidJsonPatch", "Operation does not contain 'op' member"))?;
        let op = op
            .as_str()
            .ok_or_else(|| fail("InvalidJsonPatch", "Operation's op must be a string"))?;
        if !matches!(op, "add" | "remove" | "replace" | "move" | "copy" | "test") {
            return Err(fail(
                "InvalidJsonPatch",
                format!("Unknown operation {op:?}"),
            ));
        }
        let path = m
            .get_str("path")
            .ok_or_else(|| fail("InvalidJsonPatch", "Operation must have a 'path' member"))?;
        let path = path
            .as_py_str()
            .ok_or_else(|| fail("InvalidJsonPointer", "Invalid JSON Pointer"))?;
        let path = parse_pointer(path)?;
        let from_node = m.get_str("from");
        let from = from_node.map(|f| match f.as_py_str() {
            Some(s) => parse_pointer(s),
            None => Err(fail("TypeError", "expected string")),
        });
        ops.push(Op {
            op,
            path,
            from,
            value: m.get_str("value"),
        });
    }
    Ok(ops)
}

/// Apply a parsed patch document to `doc`, as `JsonPatch(patch).apply(doc, in_place=False)`.
pub fn apply_patch(doc: &Node, patch: &Node) -> Result<Node, PatchError> {
    let ops = parse_ops(patch)?;
    let mut arena = Arena { slots: Vec::new() };
    let mut memo = HashMap::new();
    let mut root = arena.import(doc, &mut memo);
    for op in &ops {
        root = apply_one(&mut arena, root, op)?;
    }
    Ok(arena.export(root, &mut HashMap::new()))
}

fn need_value<'a>(op: &Op<'a>) -> Result<&'a Node, PatchError> {
    op.value.ok_or_else(|| {
        fail(
            "InvalidJsonPatch",
            "The operation does not contain a 'value' member",
        )
    })
}

fn from_ptr(op: &Op<'_>) -> Result<Vec<PyStr>, PatchError> {
    match &op.from {
        None => Err(fail(
            "InvalidJsonPatch",
            "The operation does not contain a 'from' member",
        )),
        Some(r) => r.clone(),
    }
}

fn apply_one(a: &mut Arena, root: Id, op: &Op<'_>) -> Result<Id, PatchError> {
    match op.op {
        "add" => {
            let v = need_value(op)?;
            let vid = a.import(v, &mut HashMap::new());
            add(a, root, &op.path, vid)
        }
        "remove" => remove(a, root, &op.path),
        "replace" => {
            let v = need_value(op)?;
            let vid = a.import(v, &mut HashMap::new());
            replace(a, root, &op.path, vid)
        }
        "move" => {
            let from = from_ptr(op)?;
            let (sub, part) = a.resolve_last(root, &from)?;
            let value = subscript(a, sub, &part)?;
            if from == op.path {
                return Ok(root);
            }
            if a.is_mapping(sub) && op.path.starts_with(&from) {
                return Err(fail(
                    "JsonPatchConflict",
                    "Cannot move values into their own children",
                ));
            }
            let root = remove(a, root, &from)?;
            add(a, root, &op.path, value)
        }
        "copy" => {
            let from = from_ptr(op)?;
            let (sub, part) = a.resolve_last(root, &from)?;
            let value = subscript(a, sub, &part)?;
            let copied = {
                let node = a.export(value, &mut HashMap::new());
                a.import(&deep_copy(&node), &mut HashMap::new())
            };
            add(a, root, &op.path, copied)
        }
        _ => {
            // test
            let (sub, part) = a
                .resolve_last(root, &op.path)
                .map_err(|e| fail("JsonPatchTestFailed", e.message))?;
            let val = match part {
                Part::Root => Some(sub),
                Part::End => None,
                p => Some(
                    a.child(sub, &p)
                        .map_err(|e| fail("JsonPatchTestFailed", e.message))?,
                ),
            };
            let want = need_value(op)?;
            let equal = match val {
                Some(id) => py_eq(&a.export(id, &mut HashMap::new()), want),
                None => false,
            };
            if equal {
                Ok(root)
            } else {
                Err(fail("JsonPatchTestFailed", "test failed"))
            }
        }
    }
}

/// `subobj[part]` as move/copy read it (KeyError/IndexError → conflict).
fn subscript(a: &mut Arena, sub: Id, part: &Part) -> Result<Id, PatchError> {
    match part {
        Part::Root => match a.slots.get(sub) {
            // `doc[None]`: only a dict with a None key answers.
            Some(Slot::Dict(d, _)) => d
                .get(&Key(Node::synthetic(Value::Null)))
                .copied()
                .ok_or_else(|| fail("JsonPatchConflict", "None")),
            _ => Err(fail("TypeError", "indices must be integers")),
        },
        Part::End => Err(fail("TypeError", "indices must be integers")),
        p => a
            .child(sub, p)
            .map_err(|e| fail("JsonPatchConflict", e.message)),
    }
}

fn add(a: &mut Arena, root: Id, path: &[PyStr], value: Id) -> Result<Id, PatchError> {
    let (sub, part) = a.resolve_last(root, path)?;
    match a.slots.get_mut(sub) {
        Some(Slot::List(v, _)) => match part {
            Part::End => v.push(value),
            Part::Index(i) if i <= v.len() => v.insert(i, value),
            Part::Index(_) => {
                return Err(fail("JsonPatchConflict", "can't insert outside of list"));
            }
            _ => return Err(fail("TypeError", "'>' not supported")),
        },
        Some(Slot::Dict(d, _)) => match part {
            Part::Root => return Ok(value),
            Part::Key(k) => {
                let key = Key(key_node(&k));
                match d.get_mut(&key) {
                    Some(slot) => *slot = value,
                    None => {
                        d.insert(key, value);
                    }
                }
            }
            _ => {
                return Err(fail(
                    "JsonPatchConflict",
                    "unable to fully resolve json pointer",
                ));
            }
        },
        _ => {
            return Err(match part {
                Part::Root => fail("TypeError", "invalid document type"),
                _ => fail("JsonPatchConflict", "unable to fully resolve json pointer"),
            });
        }
    }
    Ok(root)
}

fn remove(a: &mut Arena, root: Id, path: &[PyStr]) -> Result<Id, PatchError> {
    let (sub, part) = a.resolve_last(root, path)?;
    if a.is_sequence(sub) && !matches!(part, Part::Index(_)) {
        return Err(fail("JsonPointerException", "invalid array index"));
    }
    let conflict = || fail("JsonPatchConflict", "can't remove a non-existent object");
    match (a.slots.get_mut(sub), part) {
        (Some(Slot::List(v, _)), Part::Index(i)) => {
            if i < v.len() {
                v.remove(i);
            } else {
                return Err(conflict());
            }
        }
        (Some(Slot::Dict(d, _)), part) => {
            let key = match part {
                Part::Key(k) => key_node(&k),
                // `del d[None]`.
                _ => Node::synthetic(Value::Null),
            };
            if d.shift_remove(&Key(key)).is_none() {
                return Err(conflict());
            }
        }
        _ => return Err(fail("TypeError", "object doesn't support item deletion")),
    }
    Ok(root)
}

fn replace(a: &mut Arena, root: Id, path: &[PyStr], value: Id) -> Result<Id, PatchError> {
    let (sub, part) = a.resolve_last(root, path)?;
    match part {
        Part::Root => return Ok(value),
        Part::End => {
            return Err(fail(
                "InvalidJsonPatch",
                "'path' with '-' can't be applied to 'replace' operation",
            ));
        }
        _ => {}
    }
    match (a.slots.get_mut(sub), part) {
        (Some(Slot::List(v, _)), Part::Index(i)) => match v.get_mut(i) {
            Some(slot) => *slot = value,
            None => return Err(fail("JsonPatchConflict", "can't replace outside of list")),
        },
        (Some(Slot::Dict(d, _)), Part::Key(k)) => match d.get_mut(&Key(key_node(&k))) {
            Some(slot) => *slot = value,
            None => {
                return Err(fail(
                    "JsonPatchConflict",
                    "can't replace a non-existent object",
                ));
            }
        },
        _ => {
            return Err(fail(
                "JsonPatchConflict",
                "unable to fully resolve json pointer",
            ));
        }
    }
    Ok(root)
}

/// `copy.deepcopy` of a node: new containers (sharing inside kept), scalars reused.
fn deep_copy(node: &Node) -> Node {
    let mut arena = Arena { slots: Vec::new() };
    let id = arena.import(node, &mut HashMap::new());
    arena.export(id, &mut HashMap::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;
    use crate::userdata::py_json::parse_py_json;
    use crate::yaml::typed_json::{WalkLimits, canonical, to_typed_json};

    fn run(doc: &str, patch: &str) -> Result<String, PatchError> {
        let d = parse_py_json(doc, SourceId(0), 100).unwrap();
        let p = parse_py_json(patch, SourceId(1), 100).unwrap();
        apply_patch(&d, &p).map(|n| canonical(&to_typed_json(&n, WalkLimits::default()).unwrap()))
    }

    #[test]
    fn operations() {
        assert_eq!(
            run("{}", r#"[{"op":"add","path":"/baz","value":"qux"}]"#).unwrap(),
            r#"{"baz":"qux"}"#
        );
        assert_eq!(
            run(
                r#"{"a":"b","c":"d"}"#,
                r#"[{"op":"replace","path":"/a","value":"c"},{"op":"remove","path":"/c"}]"#
            )
            .unwrap(),
            r#"{"a":"c"}"#
        );
        assert_eq!(
            run(
                r#"{"l":[1,2]}"#,
                r#"[{"op":"add","path":"/l/-","value":3},{"op":"add","path":"/l/0","value":0}]"#
            )
            .unwrap(),
            r#"{"l":[0,1,2,3]}"#
        );
        assert_eq!(
            run(
                r#"{"a":{"b":1}}"#,
                r#"[{"op":"move","from":"/a/b","path":"/c"}]"#
            )
            .unwrap(),
            r#"{"a":{},"c":1}"#
        );
        assert_eq!(
            run(
                r#"{"a":[1]}"#,
                r#"[{"op":"copy","from":"/a","path":"/b"},{"op":"test","path":"/b/0","value":1.0}]"#
            )
            .unwrap(),
            r#"{"a":[1],"b":[1]}"#
        );
        assert_eq!(
            run(r#"{"a":1}"#, r#"[{"op":"add","path":"","value":[1]}]"#).unwrap(),
            "[1]"
        );
        assert!(run(r#"{"l":[1]}"#, r#"[{"op":"add","path":"/l/01","value":3}]"#).is_err());
        assert!(run(r#"{"l":[1]}"#, r#"[{"op":"add","path":"/l/5","value":3}]"#).is_err());
        assert!(run(r#"{"a":1}"#, r#"[{"op":"test","path":"/a","value":2}]"#).is_err());
        assert!(run(r#"{"a":1}"#, r#"{"op":"test"}"#).is_err());
        assert_eq!(run(r#"{"a":1}"#, "[]").unwrap(), r#"{"a":1}"#);
    }

    #[test]
    fn shared_objects_stay_shared() {
        let shared = Node::synthetic(Value::Seq(Seq::new(vec![Node::str("x")])));
        let mut e = Entries::default();
        insert(&mut e, Node::str("a"), shared.clone());
        insert(&mut e, Node::str("b"), shared);
        let doc = Node::synthetic(Value::Map(Map::new(e)));
        let p = parse_py_json(
            r#"[{"op":"add","path":"/a/-","value":"y"}]"#,
            SourceId(1),
            100,
        )
        .unwrap();
        let out = apply_patch(&doc, &p).unwrap();
        let j = canonical(&to_typed_json(&out, WalkLimits::default()).unwrap());
        assert_eq!(j, r#"{"a":["x","y"],"b":["x","y"]}"#);
    }
}
