//! Decoding the YAML dump oracle's values (shared and recursive objects) into nodes.

use cloudfold::yaml::typed_json::from_typed_json;
use cloudfold::yaml::value::{Entries, Map, Node, Seq, Value, insert};
use serde_json::Value as J;
use std::collections::HashMap;
use std::path::PathBuf;

pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Typed JSON plus `{"$def": name, "$value": v}` / `{"$ref": name}` for
/// shared (and recursive) objects, as the oracle script writes them.
pub(crate) struct SharedDecoder {
    pub defs: HashMap<String, Node>,
}

impl SharedDecoder {
    pub(crate) fn decode(&mut self, j: &J) -> Node {
        match j {
            J::Object(m) if m.len() == 1 && m.contains_key("$ref") => {
                self.defs[m["$ref"].as_str().unwrap()].clone()
            }
            J::Object(m) if m.len() == 2 && m.contains_key("$def") => {
                let name = m["$def"].as_str().unwrap().to_owned();
                self.define(name, &m["$value"])
            }
            J::Array(a) => Node::synthetic(Value::Seq(Seq::new(
                a.iter().map(|x| self.decode(x)).collect(),
            ))),
            J::Object(m)
                if m.len() == 1 && (m.contains_key("$tuple") || m.contains_key("$set")) =>
            {
                let (k, v) = m.iter().next().unwrap();
                let items: Vec<Node> = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| self.decode(x))
                    .collect();
                if k == "$tuple" {
                    Node::synthetic(Value::Tuple(Seq::new(items)))
                } else {
                    Node::synthetic(Value::Set(Map::new(set_entries(items))))
                }
            }
            J::Object(m) if is_plain_map(m) => {
                let mut e = Entries::default();
                for (k, v) in m {
                    insert(&mut e, key_node(k), self.decode(v));
                }
                Node::synthetic(Value::Map(Map::new(e)))
            }
            other => from_typed_json(other).unwrap_or_else(|e| panic!("{e}: {other}")),
        }
    }

    /// A shared object: containers are registered before their items so
    /// that items may refer back to them.
    pub(crate) fn define(&mut self, name: String, j: &J) -> Node {
        match j {
            J::Array(a) => {
                let node = Node::synthetic(Value::Seq(Seq::pending()));
                self.defs.insert(name, node.clone());
                let items = a.iter().map(|x| self.decode(x)).collect();
                let Value::Seq(s) = node.value() else {
                    unreachable!()
                };
                s.fill(items).unwrap();
                node
            }
            J::Object(m)
                if m.len() == 1 && (m.contains_key("$tuple") || m.contains_key("$set")) =>
            {
                let (k, v) = m.iter().next().unwrap();
                let tuple = k == "$tuple";
                let node = Node::synthetic(if tuple {
                    Value::Tuple(Seq::pending())
                } else {
                    Value::Set(Map::pending())
                });
                self.defs.insert(name, node.clone());
                let items: Vec<Node> = v
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| self.decode(x))
                    .collect();
                match node.value() {
                    Value::Tuple(s) => s.fill(items).unwrap(),
                    Value::Set(s) => s.fill(set_entries(items)).unwrap(),
                    _ => unreachable!(),
                }
                node
            }
            J::Object(m) if is_plain_map(m) => {
                let node = Node::synthetic(Value::Map(Map::pending()));
                self.defs.insert(name, node.clone());
                let mut e = Entries::default();
                for (k, v) in m {
                    insert(&mut e, key_node(k), self.decode(v));
                }
                let Value::Map(map) = node.value() else {
                    unreachable!()
                };
                map.fill(e).unwrap();
                node
            }
            other => {
                let node = self.decode(other);
                self.defs.insert(name, node.clone());
                node
            }
        }
    }
}

pub(crate) fn set_entries(items: Vec<Node>) -> Entries {
    let mut e = Entries::default();
    for it in items {
        insert(&mut e, it, Node::synthetic(Value::Null));
    }
    e
}

/// An object that is a mapping rather than a one-key type marker.
pub(crate) fn is_plain_map(m: &serde_json::Map<String, J>) -> bool {
    const MARKERS: [&str; 11] = [
        "$bigint",
        "$float",
        "$str_surrogateescape_b64",
        "$str_codepoints",
        "$bytes_b64",
        "$date",
        "$datetime",
        "$tuple",
        "$set",
        "$ref",
        "$def",
    ];
    !(m.len() == 1
        && m.keys()
            .next()
            .is_some_and(|k| MARKERS.contains(&k.as_str())))
}

/// A typed-JSON key (`"$int:1"` …) as a node, via a one-entry mapping.
pub(crate) fn key_node(k: &str) -> Node {
    let mut m = serde_json::Map::new();
    m.insert(k.to_owned(), J::Null);
    let node = from_typed_json(&J::Object(m)).unwrap();
    node.as_map().unwrap().keys().next().unwrap().clone()
}

pub(crate) fn decode_shared(j: &J) -> Node {
    SharedDecoder {
        defs: HashMap::new(),
    }
    .decode(j)
}

pub(crate) fn seq(items: Vec<Node>) -> Node {
    Node::synthetic(Value::Seq(Seq::new(items)))
}

pub(crate) fn map(pairs: Vec<(Node, Node)>) -> Node {
    let mut e = Entries::default();
    for (k, v) in pairs {
        insert(&mut e, k, v);
    }
    Node::synthetic(Value::Map(Map::new(e)))
}
