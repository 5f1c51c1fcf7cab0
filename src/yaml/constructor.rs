//! `Constructor`: composed nodes to Python values, as SafeConstructor does.
//!
//! Construction order matters for which error wins, so it follows PyYAML's:
//! a collection is created empty when first reached and filled later, in
//! first-reached order (PyYAML's generator queue, i.e. breadth first);
//! scalars are built on the spot. Each composed node yields exactly one
//! [`Node`], so aliases share values (and may be recursive).

use super::composer::{Body, CNode, Composed, NodeId};
use super::error::{PyErrorClass, YamlError};
use super::event::ScalarText;
use super::load_options::LoadOptions;
use super::scalar::{
    construct_binary, construct_bool, construct_float, construct_int, construct_timestamp,
};
use super::tag::Tag;
use super::tag_map::{LocalTag, TagMap};
use super::value::{Entries, Map, Node, PyStr, Seq, Value, insert};
use crate::python::py_repr_str;
use crate::source::{SourceId, Span};
use std::borrow::Cow;
use std::collections::VecDeque;

/// Lone surrogates as stand-ins from plane 15's private use area
/// (U+F0000 + offset), so text constructors can run on `&str`; Python's
/// messages show them as `\udXXX`, restored by [`restore_surrogates`].
fn stand_in_surrogates(p: &PyStr) -> String {
    p.chars()
        .map(|c| {
            let c = if (0xD800..=0xDFFF).contains(&c) {
                0xF0000 + (c - 0xD800)
            } else {
                c
            };
            char::from_u32(c).unwrap_or('\u{FFFD}')
        })
        .collect()
}

/// Undo [`stand_in_surrogates`] in a message (`repr` writes the stand-ins
/// as `\U000f0XXX`, and never writes a surrogate itself).
fn restore_surrogates(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(i) = rest.find("\\U000f0") {
        let (head, tail) = rest.split_at(i);
        out.push_str(head);
        let hex = tail
            .get(7..10)
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match hex {
            Some(v) if v < 0x800 => {
                out.push_str(&format!("\\u{:04x}", 0xD800 + v));
                rest = tail.get(10..).unwrap_or("");
            }
            _ => {
                out.push_str(tail.get(..1).unwrap_or(""));
                rest = tail.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

/// The value of a resolved, non-`str` scalar written as `s` (the scalar
/// constructors `Constructor` uses), for the direct builder.
pub(crate) fn scalar_value(
    tag: Tag<'_>,
    s: &str,
    start: crate::source::Mark,
) -> Result<Value, YamlError> {
    Constructor::scalar_from_text(tag, s, false, start)
}

/// Build the value of a composed document.
pub(crate) fn construct(doc: Composed<'_>, opts: &LoadOptions) -> Result<Node, YamlError> {
    construct_tagged(doc, opts).map(|(root, _)| root)
}

/// [`construct`], also returning the kept local tags by built node.
pub(crate) fn construct_tagged(
    mut doc: Composed<'_>,
    opts: &LoadOptions,
) -> Result<(Node, TagMap), YamlError> {
    let local_tags = std::mem::take(&mut doc.local_tags);
    let n = doc.nodes.len();
    let mut c = Constructor {
        nodes: doc.nodes,
        built: vec![None; n],
        queue: VecDeque::new(),
        source: opts.source,
        python_unicode: opts.python_unicode_tag,
        max_depth: opts.max_depth,
        merge_budget: opts.max_merge_entries,
        null: None,
    };
    let root = c.object(doc.root)?;
    while let Some(id) = c.queue.pop_front() {
        c.fill(id)?;
    }
    let mut tags = TagMap::default();
    for (id, tag) in local_tags {
        // A node unreachable from the root (never the case today) has no value to tag.
        let Some(Some(node)) = c.built.get(id as usize) else {
            continue;
        };
        let scalar_text = match c.nodes.get(id as usize).map(|n| &n.body) {
            Some(Body::Scalar(ScalarText::Text(t))) => Some(Box::from(t.as_ref())),
            Some(Body::Scalar(ScalarText::Wide(p))) => Some(p.to_string_lossy().into()),
            _ => None,
        };
        tags.insert(
            node.clone(),
            LocalTag {
                tag: tag.as_ref().into(),
                scalar_text,
            },
        );
    }
    Ok((root, tags))
}

struct Constructor<'a> {
    nodes: Vec<CNode<'a>>,
    built: Vec<Option<Node>>,
    /// Collections created empty, waiting to be filled.
    queue: VecDeque<NodeId>,
    source: SourceId,
    python_unicode: bool,
    max_depth: usize,
    merge_budget: usize,
    /// One shared `None` for set members' values.
    null: Option<Node>,
}

fn constructor_error(problem: impl Into<String>, at: crate::source::Mark) -> YamlError {
    YamlError::new(PyErrorClass::Constructor, problem, at)
}

fn missing() -> YamlError {
    YamlError {
        class: PyErrorClass::Constructor,
        context: None,
        problem: "internal error: dangling node".into(),
        mark: None,
    }
}

impl<'a> Constructor<'a> {
    fn node(&self, id: NodeId) -> Result<&CNode<'a>, YamlError> {
        self.nodes.get(id as usize).ok_or_else(missing)
    }

    fn node_mut(&mut self, id: NodeId) -> Result<&mut CNode<'a>, YamlError> {
        self.nodes.get_mut(id as usize).ok_or_else(missing)
    }

    fn span(&self, n: &CNode<'_>) -> Span {
        Span::new(self.source, n.start, n.end)
    }

    /// `construct_object`: the value for a node, built once.
    fn object(&mut self, id: NodeId) -> Result<Node, YamlError> {
        if let Some(Some(n)) = self.built.get(id as usize) {
            return Ok(n.clone());
        }
        let node = self.node(id)?;
        let span = self.span(node);
        let value = match node.tag {
            Tag::Seq | Tag::Omap | Tag::Pairs => Some(Value::Seq(Seq::pending())),
            Tag::Map => Some(Value::Map(Map::pending())),
            Tag::Set => Some(Value::Set(Map::pending())),
            _ => None,
        };
        let value = match value {
            Some(v) => {
                self.queue.push_back(id);
                v
            }
            None => self.scalar_value(id)?,
        };
        let built = Node::new(value, span);
        if let Some(slot) = self.built.get_mut(id as usize) {
            *slot = Some(built.clone());
        }
        Ok(built)
    }

    /// Build a scalar-constructed value (or fail as PyYAML does).
    fn scalar_value(&mut self, id: NodeId) -> Result<Value, YamlError> {
        let node = self.node(id)?;
        let start = node.start;
        let tag = match node.tag {
            Tag::PythonUnicode if self.python_unicode => Tag::Str,
            Tag::Null => Tag::Null,
            Tag::Bool => Tag::Bool,
            Tag::Int => Tag::Int,
            Tag::Float => Tag::Float,
            Tag::Timestamp => Tag::Timestamp,
            Tag::Binary => Tag::Binary,
            Tag::Str => Tag::Str,
            _ => {
                return Err(constructor_error(
                    format!(
                        "could not determine a constructor for the tag {}",
                        py_repr_str(&node.tag.full_name())
                    ),
                    start,
                ));
            }
        };
        let src = self.scalar_source(id)?;
        let Body::Scalar(text) = &self.node(src)?.body else {
            return Err(missing());
        };
        if tag == Tag::Str {
            return Ok(Value::Str(match text {
                ScalarText::Text(t) => PyStr::from(t.as_ref()),
                ScalarText::Wide(p) => PyStr::clone(p),
            }));
        }
        let (s, wide): (Cow<'_, str>, bool) = match text {
            ScalarText::Text(t) => (Cow::Borrowed(t.as_ref()), false),
            ScalarText::Wide(p) => (Cow::Owned(stand_in_surrogates(p)), true),
        };
        let built = Self::scalar_from_text(tag, &s, src != id, start);
        if wide {
            return built.map_err(|mut e| {
                e.problem = restore_surrogates(&e.problem);
                e
            });
        }
        built
    }

    /// The scalar constructors proper, on the node's text.
    fn scalar_from_text(
        tag: Tag<'_>,
        s: &str,
        via_value_key: bool,
        start: crate::source::Mark,
    ) -> Result<Value, YamlError> {
        Ok(match tag {
            Tag::Null => Value::Null,
            Tag::Bool => Value::Bool(construct_bool(s)?),
            Tag::Int => Value::Int(construct_int(s)?),
            Tag::Float => Value::Float(construct_float(s)?),
            Tag::Timestamp if via_value_key => {
                // PyYAML matches its regex against the mapping's node list.
                return Err(super::scalar::py_err(
                    PyErrorClass::Type,
                    "expected string or bytes-like object, got 'list'",
                ));
            }
            Tag::Timestamp => construct_timestamp(s)?,
            _ => Value::Bytes(
                construct_binary(s)
                    .map_err(|p| constructor_error(p, start))?
                    .into_boxed_slice(),
            ),
        })
    }

    /// SafeConstructor's `construct_scalar`: a scalar node is itself; a
    /// mapping stands for the value of its first `=` key; else an error.
    fn scalar_source(&self, id: NodeId) -> Result<NodeId, YamlError> {
        let mut cur = id;
        for _ in 0..=self.max_depth {
            let n = self.node(cur)?;
            match &n.body {
                Body::Scalar(_) => return Ok(cur),
                Body::Map(pairs) => {
                    let mut next = None;
                    for &(k, v) in pairs {
                        if self.node(k)?.tag == Tag::Value {
                            next = Some(v);
                            break;
                        }
                    }
                    match next {
                        Some(v) => cur = v,
                        None => {
                            return Err(constructor_error(
                                "expected a scalar node, but found mapping",
                                n.start,
                            ));
                        }
                    }
                }
                Body::Seq(_) => {
                    return Err(constructor_error(
                        "expected a scalar node, but found sequence",
                        n.start,
                    ));
                }
            }
        }
        Err(super::scalar::py_err(
            PyErrorClass::Recursion,
            "maximum recursion depth exceeded",
        ))
    }

    /// Child `i` of a sequence node.
    fn seq_item(&self, id: NodeId, i: usize) -> Result<NodeId, YamlError> {
        match &self.node(id)?.body {
            Body::Seq(items) => items.get(i).copied().ok_or_else(missing),
            _ => Err(missing()),
        }
    }

    fn built(&self, id: NodeId) -> Result<Node, YamlError> {
        self.built
            .get(id as usize)
            .and_then(Clone::clone)
            .ok_or_else(missing)
    }

    /// Fill a collection created by [`Self::object`].
    fn fill(&mut self, id: NodeId) -> Result<(), YamlError> {
        let target = self.built(id)?;
        let node = self.node(id)?;
        let (start, kind) = (node.start, node.body.kind_name());
        match node.tag {
            Tag::Seq => {
                let Body::Seq(items) = &node.body else {
                    return Err(constructor_error(
                        format!("expected a sequence node, but found {kind}"),
                        start,
                    ));
                };
                let mut out = Vec::with_capacity(items.len());
                for i in 0..items.len() {
                    out.push(self.object(self.seq_item(id, i)?)?);
                }
                if let Value::Seq(s) = target.value() {
                    let _ = s.fill(out);
                }
            }
            Tag::Map | Tag::Set => {
                let is_set = node.tag == Tag::Set;
                let entries = self.mapping(id)?;
                match target.value() {
                    Value::Map(m) => {
                        let _ = m.fill(entries);
                    }
                    Value::Set(m) => {
                        let null = self
                            .null
                            .get_or_insert_with(|| Node::synthetic(Value::Null))
                            .clone();
                        let members = entries
                            .into_keys()
                            .map(|k| (k, null.clone()))
                            .collect::<Entries>();
                        let _ = is_set;
                        let _ = m.fill(members);
                    }
                    _ => {}
                }
            }
            Tag::Omap | Tag::Pairs => {
                let what = if node.tag == Tag::Omap {
                    "while constructing an ordered map"
                } else {
                    "while constructing pairs"
                };
                let Body::Seq(items) = &node.body else {
                    return Err(constructor_error(
                        format!("expected a sequence, but found {kind}"),
                        start,
                    )
                    .with_context(what, start));
                };
                let items = items.clone();
                let mut out = Vec::with_capacity(items.len());
                for sub in items {
                    let sn = self.node(sub)?;
                    let (k, v) = match &sn.body {
                        Body::Map(pairs) if let [pair] = pairs.as_slice() => *pair,
                        Body::Map(pairs) => {
                            return Err(constructor_error(
                                format!(
                                    "expected a single mapping item, but found {} items",
                                    pairs.len()
                                ),
                                sn.start,
                            )
                            .with_context(what, start));
                        }
                        other => {
                            return Err(constructor_error(
                                format!(
                                    "expected a mapping of length 1, but found {}",
                                    other.kind_name()
                                ),
                                sn.start,
                            )
                            .with_context(what, start));
                        }
                    };
                    let span = self.span(sn);
                    let key = self.object(k)?;
                    let value = self.object(v)?;
                    out.push(Node::new(Value::Tuple(Seq::new(vec![key, value])), span));
                }
                if let Value::Seq(s) = target.value() {
                    let _ = s.fill(out);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `construct_mapping` after `flatten_mapping`: the entries of a map.
    fn mapping(&mut self, id: NodeId) -> Result<Entries, YamlError> {
        let (start, kind, is_map) = {
            let n = self.node(id)?;
            (n.start, n.body.kind_name(), matches!(n.body, Body::Map(_)))
        };
        if !is_map {
            return Err(constructor_error(
                format!("expected a mapping node, but found {kind}"),
                start,
            ));
        }
        self.flatten(id, 0)?;
        let len = match &self.node(id)?.body {
            Body::Map(p) => p.len(),
            _ => 0,
        };
        let mut entries = Entries::with_capacity(len);
        for i in 0..len {
            let (k, v) = match &self.node(id)?.body {
                Body::Map(p) => p.get(i).copied().ok_or_else(missing)?,
                _ => return Err(missing()),
            };
            let key = self.object(k)?;
            if !key.value().is_hashable() {
                let kmark = self.node(k)?.start;
                return Err(constructor_error("found unhashable key", kmark)
                    .with_context("while constructing a mapping", start));
            }
            let value = self.object(v)?;
            insert(&mut entries, key, value);
        }
        Ok(entries)
    }

    /// `flatten_mapping`: splice `<<` merges into the node's pairs, in place
    /// (shared nodes are flattened once for everyone, as in PyYAML), and make
    /// `=` keys plain strings.
    fn flatten(&mut self, id: NodeId, depth: usize) -> Result<(), YamlError> {
        if depth > self.max_depth {
            return Err(super::scalar::py_err(
                PyErrorClass::Recursion,
                "maximum recursion depth exceeded",
            ));
        }
        let start = self.node(id)?.start;
        let mut merge: Vec<(NodeId, NodeId)> = Vec::new();
        let mut index = 0;
        while let Body::Map(p) = &self.node(id)?.body
            && let Some(&(k, v)) = p.get(index)
        {
            match self.node(k)?.tag {
                Tag::Merge => {
                    if let Body::Map(p) = &mut self.node_mut(id)?.body {
                        p.remove(index);
                    }
                    let vn = self.node(v)?;
                    let (vstart, vkind) = (vn.start, vn.body.kind_name());
                    match &vn.body {
                        Body::Map(_) => {
                            self.flatten(v, depth + 1)?;
                            if let Body::Map(p) = &self.node(v)?.body {
                                merge.extend_from_slice(p);
                            }
                        }
                        Body::Seq(subs) => {
                            let subs = subs.clone();
                            let mut submerge = Vec::with_capacity(subs.len());
                            for sub in subs {
                                let sn = self.node(sub)?;
                                if !matches!(sn.body, Body::Map(_)) {
                                    return Err(constructor_error(
                                        format!(
                                            "expected a mapping for merging, but found {}",
                                            sn.body.kind_name()
                                        ),
                                        sn.start,
                                    )
                                    .with_context("while constructing a mapping", start));
                                }
                                self.flatten(sub, depth + 1)?;
                                if let Body::Map(p) = &self.node(sub)?.body {
                                    submerge.push(p.clone());
                                }
                            }
                            for p in submerge.iter().rev() {
                                merge.extend_from_slice(p);
                            }
                        }
                        Body::Scalar(_) => {
                            return Err(constructor_error(
                                format!(
                                    "expected a mapping or list of mappings for merging, but \
                                     found {vkind}"
                                ),
                                vstart,
                            )
                            .with_context("while constructing a mapping", start));
                        }
                    }
                    if merge.len() > self.merge_budget {
                        return Err(constructor_error(
                            "merge keys expand to more entries than allowed",
                            start,
                        )
                        .with_context("while constructing a mapping", start));
                    }
                }
                Tag::Value => {
                    self.node_mut(k)?.tag = Tag::Str;
                    index += 1;
                }
                _ => index += 1,
            }
        }
        if !merge.is_empty() {
            self.merge_budget = self.merge_budget.saturating_sub(merge.len());
            if let Body::Map(p) = &mut self.node_mut(id)?.body {
                merge.append(p);
                *p = merge;
            }
        }
        Ok(())
    }
}
