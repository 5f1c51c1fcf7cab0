//! Applying `diff --format json` to `render --format json` of OLD, as README's "diff --format json" says a program may.

#![allow(dead_code)]

use cloudfold::yaml::typed_json::canonical;
use serde_json::{Map, Value as J};
use std::collections::{BTreeMap, BTreeSet};

/// The container a pointer leads to (`{"$tuple": [...]}` and `{"$set": [...]}`
/// are walked into as lists).
fn resolve<'a>(doc: &'a mut J, ptr: &[J]) -> Result<&'a mut J, String> {
    let mut cur = doc;
    for seg in ptr {
        cur = match seg {
            J::Number(n) => {
                let i = n.as_u64().ok_or("bad index")? as usize;
                let arr = match cur {
                    J::Array(a) => a,
                    J::Object(m) => m
                        .get_mut("$tuple")
                        .and_then(J::as_array_mut)
                        .ok_or("an index into a mapping")?,
                    other => return Err(format!("an index into {other}")),
                };
                arr.get_mut(i)
                    .ok_or_else(|| format!("index {i} out of range"))?
            }
            J::String(k) => match cur {
                J::Object(m) => m.get_mut(k).ok_or_else(|| format!("no key {k}"))?,
                other => return Err(format!("a key into {other}")),
            },
            other => return Err(format!("bad pointer segment {other}")),
        };
    }
    Ok(cur)
}

fn list_ops(items: Vec<J>, ops: &[&J]) -> Result<Vec<J>, String> {
    let mut removed = BTreeSet::new();
    let mut changed = BTreeMap::new();
    let mut added = BTreeMap::new();
    for op in ops {
        let oi = op["old_index"].as_u64().map(|i| i as usize);
        let ni = op["new_index"].as_u64().map(|i| i as usize);
        match op["op"].as_str() {
            Some("remove") => {
                removed.insert(oi.ok_or("remove without old_index")?);
            }
            Some("add") => {
                added.insert(ni.ok_or("add without new_index")?, op["new"].clone());
            }
            Some("change") => {
                changed.insert(oi.ok_or("change without old_index")?, op["new"].clone());
            }
            other => return Err(format!("list op {other:?}")),
        }
    }
    let new_len = items.len() - removed.len() + added.len();
    let mut kept = items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !removed.contains(i));
    let mut out = Vec::with_capacity(new_len);
    for k in 0..new_len {
        if let Some(v) = added.remove(&k) {
            out.push(v);
        } else {
            let (i, v) = kept.next().ok_or("ran out of old items")?;
            out.push(changed.remove(&i).unwrap_or(v));
        }
    }
    if kept.next().is_some() || !changed.is_empty() {
        return Err("old items left over".into());
    }
    Ok(out)
}

fn apply_container(c: &mut J, ops: &[&J]) -> Result<(), String> {
    let (entries, rest): (Vec<&J>, Vec<&J>) = ops
        .iter()
        .partition(|op| matches!(op["op"].as_str(), Some("add" | "remove" | "change")));
    let is_set = c.as_object().is_some_and(|m| m.contains_key("$set"));
    if !entries.is_empty() {
        if is_set {
            let arr = c["$set"].as_array_mut().ok_or("bad set")?;
            for op in &entries {
                let el = &op["element"];
                match op["op"].as_str() {
                    Some("add") => arr.push(el.clone()),
                    Some("remove") => {
                        let i = arr.iter().position(|x| x == el).ok_or("no such element")?;
                        arr.remove(i);
                    }
                    other => return Err(format!("set op {other:?}")),
                }
            }
            arr.sort_by_cached_key(canonical);
        } else if let J::Object(m) = c
            && !m.contains_key("$tuple")
        {
            for op in &entries {
                let k = op["key"].as_str().ok_or("map op without key")?.to_owned();
                match op["op"].as_str() {
                    Some("remove") => {
                        m.shift_remove(&k)
                            .ok_or_else(|| format!("remove: no key {k}"))?;
                    }
                    Some("change") => {
                        *m.get_mut(&k).ok_or_else(|| format!("change: no key {k}"))? =
                            op["new"].clone();
                    }
                    Some("add") => {
                        if m.insert(k.clone(), op["new"].clone()).is_some() {
                            return Err(format!("add: key {k} already there"));
                        }
                    }
                    _ => unreachable!(),
                }
            }
        } else {
            let arr = match c {
                J::Array(a) => a,
                J::Object(m) => m
                    .get_mut("$tuple")
                    .and_then(J::as_array_mut)
                    .ok_or("bad tuple")?,
                _ => return Err(format!("entry ops on {c}")),
            };
            let items = std::mem::take(arr);
            *arr = list_ops(items, &entries)?;
        }
    }
    for op in rest {
        match op["op"].as_str() {
            Some("retype") => {
                let inner = match std::mem::take(c) {
                    J::Array(a) => a,
                    J::Object(mut m) => match m.remove("$tuple") {
                        Some(J::Array(a)) => a,
                        _ => return Err("retype of a non-list".into()),
                    },
                    other => return Err(format!("retype of {other}")),
                };
                *c = match op["new_type"].as_str() {
                    Some("tuple") => {
                        let mut m = Map::new();
                        m.insert("$tuple".into(), J::Array(inner));
                        J::Object(m)
                    }
                    _ => J::Array(inner),
                };
            }
            Some("reorder") if is_set => {}
            Some("reorder") => {
                let J::Object(m) = c else {
                    return Err("reorder of a non-mapping".into());
                };
                let mut old = std::mem::take(m);
                for k in op["new_keys"].as_array().ok_or("no new_keys")? {
                    let k = k.as_str().ok_or("bad key")?;
                    let v = old
                        .shift_remove(k)
                        .ok_or_else(|| format!("reorder: no key {k}"))?;
                    m.insert(k.to_owned(), v);
                }
                if !old.is_empty() {
                    return Err("reorder left keys over".into());
                }
            }
            other => return Err(format!("container op {other:?}")),
        }
    }
    Ok(())
}

/// `old` (typed JSON of a merged config, `null` for none) with the diff's
/// changes applied: deepest containers first (their `container.old` pointers
/// are OLD's, untouched until then), within a container its entries, then a
/// retype or a reorder; changes to the config as a whole last.
pub(crate) fn apply(old: &J, diff: &J) -> Result<J, String> {
    let mut doc = old.clone();
    let changes = diff["changes"].as_array().ok_or("no changes array")?;
    // Keyed deepest first; each a container's pointer and its changes.
    type Groups<'a> = BTreeMap<(std::cmp::Reverse<usize>, String), (Vec<J>, Vec<&'a J>)>;
    let mut groups: Groups<'_> = BTreeMap::new();
    let mut root = Vec::new();
    for c in changes {
        match c["container"]["old"].as_array() {
            Some(ptr) => {
                let key = (
                    std::cmp::Reverse(ptr.len()),
                    J::Array(ptr.clone()).to_string(),
                );
                groups
                    .entry(key)
                    .or_insert_with(|| (ptr.clone(), Vec::new()))
                    .1
                    .push(c);
            }
            None => root.push(c),
        }
    }
    for (_, (ptr, ops)) in groups {
        let c = resolve(&mut doc, &ptr)?;
        apply_container(c, &ops)?;
    }
    for c in root {
        doc = match c["op"].as_str() {
            Some("add" | "change") => c["new"].clone(),
            Some("remove") => J::Null,
            other => return Err(format!("root op {other:?}")),
        };
    }
    Ok(doc)
}
