//! `SchemaFacts`: cloud-init's cloud-config schema of each release, kept as cloudfold's own compact data (`facts/*.schema`).
//!
//! The files are written once by `scripts/schema_facts.py` from the real
//! `schema-cloud-config-v1.json` of each release (format in its docstring: one schema
//! node per line, indented under its parent, `EDGE key=JSON ...`); a test holds them
//! equal to the real files. `validate --schema` uses them, so it needs no installed
//! cloud-init.

use super::SchemaError;
use crate::userdata::Release;
use serde_json::{Map, Value as J};

const V22_4: &str = include_str!("facts/cloud-init-22.4.schema");
const V25_1: &str = include_str!("facts/cloud-init-25.1.schema");

/// Keywords whose value maps names to schemas.
const MAPS: &[&str] = &["properties", "patternProperties", "$defs", "definitions"];
/// Keywords whose value is a list of schemas.
const LISTS: &[&str] = &["oneOf", "anyOf", "allOf", "items", "prefixItems"];
/// Keywords whose value is one schema.
const ONE: &[&str] = &["items", "additionalProperties", "additionalItems", "not"];

/// The schema facts of one cloud-init release.
#[derive(Debug, Clone, Copy)]
pub struct SchemaFacts {
    text: &'static str,
}

impl SchemaFacts {
    /// The facts of `release`'s schema.
    pub fn of(release: Release) -> SchemaFacts {
        SchemaFacts {
            text: match release {
                Release::V22_4 => V22_4,
                Release::V25_1 => V25_1,
            },
        }
    }

    /// The facts file's text.
    pub fn text(self) -> &'static str {
        self.text
    }

    /// The JSON schema the facts describe (what `schema-cloud-config-v1.json` holds,
    /// without its documentation).
    pub fn to_json(self) -> Result<J, SchemaError> {
        parse(self.text).map_err(SchemaError::Facts)
    }
}

/// A facts file as the JSON schema it describes.
pub(super) fn parse(text: &str) -> Result<J, String> {
    // Open nodes, outermost first: (edge, keywords so far).
    let mut open: Vec<(String, Map<String, J>)> = Vec::new();
    // (An edge is kept as written: a quoted name is JSON, decoded when it is hung.)
    let mut root = None;
    for (n, line) in text.lines().enumerate() {
        let at = |e: String| format!("schema facts line {}: {e}", n + 1);
        let body = line.trim_start_matches(' ');
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let depth = (line.len() - body.len()) / 2;
        if depth > open.len() || (depth == 0 && root.is_some()) {
            return Err(at(format!("indented {depth} levels under {}", open.len())));
        }
        while open.len() > depth {
            close(&mut open, &mut root).map_err(at)?;
        }
        let (edge, mut rest) = split_edge(body).map_err(at)?;
        let mut node = Map::new();
        while !rest.is_empty() {
            let (key, value) = rest
                .split_once('=')
                .ok_or_else(|| at(format!("`{rest}` is not key=JSON")))?;
            let mut values = serde_json::Deserializer::from_str(value).into_iter::<J>();
            let v = values
                .next()
                .ok_or_else(|| at(format!("{key}= has no value")))?
                .map_err(|e| at(format!("{key}=: {e}")))?;
            rest = value
                .get(values.byte_offset()..)
                .unwrap_or("")
                .trim_start_matches(' ');
            node.insert(key.to_owned(), v);
        }
        open.push((edge, node));
    }
    while !open.is_empty() {
        close(&mut open, &mut root)?;
    }
    root.ok_or_else(|| "schema facts: no root node".to_owned())
}

/// A line's edge and the rest: the edge ends at the first space, unless its name is
/// a JSON string (`patternProperties."^[a-z ]+$"`), which ends where the string does.
fn split_edge(body: &str) -> Result<(String, &str), String> {
    if let Some((keyword, quoted)) = body.split_once(".\"")
        && !keyword.contains(' ')
    {
        let quoted = body.get(keyword.len() + 1..).unwrap_or(quoted);
        let mut names = serde_json::Deserializer::from_str(quoted).into_iter::<String>();
        let name = names
            .next()
            .ok_or("an edge's name has no end")?
            .map_err(|e| format!("an edge's name: {e}"))?;
        let rest = quoted.get(names.byte_offset()..).unwrap_or("");
        let edge = format!("{keyword}.{}", J::String(name));
        return Ok((edge, rest.trim_start_matches(' ')));
    }
    let (edge, rest) = body.split_once(' ').unwrap_or((body, ""));
    Ok((edge.to_owned(), rest))
}

/// Pop the innermost open node and hang it on its parent (or make it the root).
fn close(open: &mut Vec<(String, Map<String, J>)>, root: &mut Option<J>) -> Result<(), String> {
    let Some((edge, node)) = open.pop() else {
        return Ok(());
    };
    let node = J::Object(node);
    let Some((_, parent)) = open.last_mut() else {
        if edge != "$" {
            return Err(format!("the root's edge is `{edge}`, not `$`"));
        }
        *root = Some(node);
        return Ok(());
    };
    let (keyword, name) = match edge.split_once('.') {
        Some((k, n)) => (k, Some(n)),
        None => (edge.as_str(), None),
    };
    match name {
        Some(name) if MAPS.contains(&keyword) => {
            let name = if name.starts_with('"') {
                serde_json::from_str::<String>(name).map_err(|e| format!("{edge}: {e}"))?
            } else {
                name.to_owned()
            };
            match parent
                .entry(keyword)
                .or_insert_with(|| J::Object(Map::new()))
            {
                J::Object(m) => {
                    m.insert(name, node);
                }
                _ => return Err(format!("{keyword} is not a map")),
            }
        }
        Some(index) if LISTS.contains(&keyword) => {
            let list = parent
                .entry(keyword)
                .or_insert_with(|| J::Array(Vec::new()));
            match list {
                J::Array(a) if index.parse() == Ok(a.len()) => a.push(node),
                _ => return Err(format!("{edge} is out of order")),
            }
        }
        None if ONE.contains(&keyword) => {
            parent.insert(keyword.to_owned(), node);
        }
        _ => return Err(format!("unknown edge `{edge}`")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn both_releases_parse() {
        for r in Release::ALL {
            let j = SchemaFacts::of(r).to_json().unwrap();
            assert!(
                j["$defs"].as_object().is_some_and(|d| d.len() > 50),
                "{r:?}"
            );
            assert!(j["allOf"].as_array().is_some_and(|a| a.len() > 50), "{r:?}");
        }
    }

    #[test]
    fn edges_and_values() {
        let j = parse(
            "# c\n$ type=\"object\"\n  properties.a type=[\"string\",\"null\"] enum=[\"x y\",1]\n  properties.\"b.c\"\n    oneOf.0 minItems=1\n    oneOf.1 $ref=\"#/$defs/d\"\n  items\n",
        )
        .unwrap();
        assert_eq!(
            j,
            serde_json::json!({"type": "object",
                "properties": {"a": {"type": ["string", "null"], "enum": ["x y", 1]},
                               "b.c": {"oneOf": [{"minItems": 1}, {"$ref": "#/$defs/d"}]}},
                "items": {}})
        );
        assert!(parse("$\n  oneOf.1\n").is_err());
        assert!(parse("$\n    items\n").is_err());
        assert!(parse("$ type=\n").is_err());
    }
}
