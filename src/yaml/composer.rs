//! `Composer`: events to a graph of tagged nodes (PyYAML's composer), iteratively.
//!
//! Nodes live in one arena and refer to each other by index, so an alias is
//! just the anchor's index (shared, possibly recursive) and nesting depth
//! costs heap, not stack. Tags are resolved here, as PyYAML does while
//! composing; scalar text stays borrowed from the input.

use super::error::{PyErrorClass, YamlError};
use super::event::{Event, EventKind, ScalarStyle, ScalarText};
use super::load_options::LoadOptions;
use super::resolver::resolve_plain;
use super::scalar::py_err;
use super::tag::Tag;
use crate::source::Mark;
use std::borrow::Cow;
use std::collections::HashMap;

/// Index of a node in [`Composed::nodes`].
pub(crate) type NodeId = u32;

/// What a composed node holds.
#[derive(Debug)]
pub(crate) enum Body<'a> {
    Scalar(ScalarText<'a>),
    Seq(Vec<NodeId>),
    Map(Vec<(NodeId, NodeId)>),
}

impl Body<'_> {
    /// PyYAML's `node.id`.
    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            Body::Scalar(_) => "scalar",
            Body::Seq(_) => "sequence",
            Body::Map(_) => "mapping",
        }
    }
}

/// A composed node: resolved tag, marks, body.
#[derive(Debug)]
pub(crate) struct CNode<'a> {
    pub tag: Tag<'a>,
    pub start: Mark,
    pub end: Mark,
    pub body: Body<'a>,
}

/// The node graph of one document.
#[derive(Debug)]
pub(crate) struct Composed<'a> {
    pub nodes: Vec<CNode<'a>>,
    pub root: NodeId,
    /// Local tags kept by [`LoadOptions::keep_local_tags`], by node.
    pub local_tags: Vec<(NodeId, Cow<'a, str>)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    BlockSeq,
    FlowSeq,
    BlockMap,
    FlowMap,
}

struct Frame {
    id: NodeId,
    open: Open,
    /// Where this collection's finished children start in the shared
    /// child stack (moved out, exactly sized, when it closes).
    base: usize,
}

fn recursion_error() -> YamlError {
    py_err(
        PyErrorClass::Recursion,
        "maximum recursion depth exceeded while calling a Python object",
    )
}

fn explicit_or<'a>(tag: Option<Cow<'a, str>>, resolve: impl FnOnce() -> Tag<'a>) -> Tag<'a> {
    match tag {
        Some(t) if t != "!" => Tag::from_explicit(t),
        _ => resolve(),
    }
}

/// With [`LoadOptions::keep_local_tags`], a `!name` tag is set aside (the
/// node then resolves as if untagged); other tags stay.
fn split_local<'a>(
    keep: bool,
    tag: Option<Cow<'a, str>>,
) -> (Option<Cow<'a, str>>, Option<Cow<'a, str>>) {
    match tag {
        Some(t) if keep && t.len() > 1 && t.starts_with('!') => (None, Some(t)),
        other => (other, None),
    }
}

/// Compose the single document of a stream; `None` for an empty stream.
///
/// `size_hint` is the expected number of nodes (pre-sizes the arena).
pub(crate) fn compose<'a>(
    mut next: impl FnMut() -> Result<Event<'a>, YamlError>,
    opts: &LoadOptions,
    size_hint: usize,
) -> Result<Option<Composed<'a>>, YamlError> {
    next()?; // StreamStart
    let first = next()?;
    if matches!(first.kind, EventKind::StreamEnd) {
        return Ok(None);
    }
    // `first` is the DocumentStart.
    let mut nodes: Vec<CNode<'a>> = Vec::with_capacity(size_hint);
    let mut children: Vec<NodeId> = Vec::new();
    let mut anchors: HashMap<Cow<'a, str>, NodeId> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<NodeId> = None;
    let mut local_tags: Vec<(NodeId, Cow<'a, str>)> = Vec::new();
    // PyYAML's RecursionError boundary (see `PYYAML_MAX_DEPTH`), counted in
    // Python frames: two per open collection, plus the caller's, against a
    // budget of `2 * max_depth + 1`. Inside a flow sequence the parser and
    // scanner need three frames fewer, for a scalar inside a flow mapping one
    // (three if that mapping is itself in a flow sequence);
    // an empty scalar needs no scanner call, and a block mapping key was scanned
    // ahead: two fewer again (measured against PyYAML under callers of several
    // depths, and against the oracle).
    let budget = opts.max_depth.saturating_mul(2).saturating_add(1);
    let caller = opts.caller_frames;
    let too_deep = |stack: &[Frame], children: &[NodeId], start: bool, empty: bool| {
        let Some(parent) = stack.last() else {
            return false;
        };
        // A block mapping's key was scanned ahead, one frame shallower.
        let key = !start
            && parent.open == Open::BlockMap
            && (children.len().saturating_sub(parent.base)).is_multiple_of(2);
        let empty = empty || key;
        let grandparent_is_flow_seq = stack
            .len()
            .checked_sub(2)
            .and_then(|i| stack.get(i))
            .is_some_and(|f| f.open == Open::FlowSeq);
        let spared = match parent.open {
            Open::FlowSeq => 3,
            // A flow mapping inside a flow sequence was scanned ahead further.
            Open::FlowMap if !start && grandparent_is_flow_seq => 3,
            Open::FlowMap if !start => 1,
            _ => 0,
        } + if empty { 2 } else { 0 };
        let frames = stack.len().saturating_mul(2).saturating_add(caller);
        frames > budget.saturating_add(spared)
    };
    while root.is_none() {
        let ev = next()?;
        let (start, end) = (ev.start, ev.end);
        let is_seq = matches!(ev.kind, EventKind::SequenceStart { .. });
        // The finished node (scalar, alias, or closed collection), if any.
        let done: NodeId = match ev.kind {
            EventKind::Alias { anchor } => {
                if too_deep(&stack, &children, false, false) {
                    return Err(recursion_error());
                }
                match anchors.get(&anchor) {
                    Some(&id) => id,
                    None => {
                        return Err(YamlError::new(
                            PyErrorClass::Composer,
                            format!(
                                "found undefined alias {}",
                                crate::python::py_repr_str(&anchor)
                            ),
                            start,
                        ));
                    }
                }
            }
            EventKind::Scalar {
                props,
                implicit,
                value,
                style,
            } => {
                let len = value.as_str().map_or(0, str::len);
                if len > opts.max_scalar_size {
                    return Err(YamlError::new(
                        PyErrorClass::Limit,
                        format!(
                            "a YAML scalar of {len} bytes is larger than the limit of {} bytes",
                            opts.max_scalar_size
                        ),
                        start,
                    ));
                }
                let empty = style == ScalarStyle::Plain && value.as_str() == Some("");
                if too_deep(&stack, &children, false, empty) {
                    return Err(recursion_error());
                }
                check_anchor(&anchors, &nodes, props.anchor.as_deref(), start)?;
                let (explicit, local) = split_local(opts.keep_local_tags, props.tag);
                // Untagged, a plain scalar resolves implicitly.
                let plain = implicit.0 || (local.is_some() && style == ScalarStyle::Plain);
                let tag = explicit_or(explicit, || {
                    if plain {
                        match &value {
                            ScalarText::Text(t) => resolve_plain(t),
                            ScalarText::Wide(_) => Tag::Str,
                        }
                    } else {
                        Tag::Str
                    }
                });
                let id = push(
                    &mut nodes,
                    CNode {
                        tag,
                        start,
                        end,
                        body: Body::Scalar(value),
                    },
                )?;
                if let Some(t) = local {
                    local_tags.push((id, t));
                }
                if let Some(a) = props.anchor {
                    anchors.insert(a, id);
                }
                id
            }
            EventKind::SequenceStart { props, flow, .. }
            | EventKind::MappingStart { props, flow, .. } => {
                let open = match (is_seq, flow) {
                    (true, true) => Open::FlowSeq,
                    (true, false) => Open::BlockSeq,
                    (false, true) => Open::FlowMap,
                    (false, false) => Open::BlockMap,
                };
                if too_deep(&stack, &children, true, false) {
                    return Err(recursion_error());
                }
                check_anchor(&anchors, &nodes, props.anchor.as_deref(), start)?;
                let (explicit, local) = split_local(opts.keep_local_tags, props.tag);
                let (tag, body) = if is_seq {
                    (explicit_or(explicit, || Tag::Seq), Body::Seq(Vec::new()))
                } else {
                    (explicit_or(explicit, || Tag::Map), Body::Map(Vec::new()))
                };
                let id = push(
                    &mut nodes,
                    CNode {
                        tag,
                        start,
                        end,
                        body,
                    },
                )?;
                if let Some(t) = local {
                    local_tags.push((id, t));
                }
                if let Some(a) = props.anchor {
                    anchors.insert(a, id);
                }
                stack.push(Frame {
                    id,
                    open,
                    base: children.len(),
                });
                continue;
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => {
                let Some(frame) = stack.pop() else {
                    return Err(unexpected(start));
                };
                let kids = children.get(frame.base..).unwrap_or_default();
                if let Some(n) = nodes.get_mut(frame.id as usize) {
                    n.end = end;
                    match &mut n.body {
                        Body::Seq(items) => *items = kids.to_vec(),
                        Body::Map(pairs) => {
                            *pairs = kids
                                .chunks_exact(2)
                                .filter_map(|c| match c {
                                    [k, v] => Some((*k, *v)),
                                    _ => None,
                                })
                                .collect();
                        }
                        Body::Scalar(_) => {}
                    }
                }
                children.truncate(frame.base);
                frame.id
            }
            _ => return Err(unexpected(start)),
        };
        // Attach the finished node to its parent, or make it the root.
        if stack.is_empty() {
            root = Some(done);
        } else {
            children.push(done);
        }
    }
    next()?; // DocumentEnd
    let after = next()?;
    let root = root.unwrap_or_default();
    if !matches!(after.kind, EventKind::StreamEnd) {
        let doc_start = nodes
            .get(root as usize)
            .map(|n| n.start)
            .unwrap_or_default();
        return Err(YamlError::new(
            PyErrorClass::Composer,
            "but found another document",
            after.start,
        )
        .with_context("expected a single document in the stream", doc_start));
    }
    Ok(Some(Composed {
        nodes,
        root,
        local_tags,
    }))
}

fn push<'a>(nodes: &mut Vec<CNode<'a>>, node: CNode<'a>) -> Result<NodeId, YamlError> {
    let id = NodeId::try_from(nodes.len())
        .map_err(|_| py_err(PyErrorClass::Composer, "too many nodes"))?;
    nodes.push(node);
    Ok(id)
}

/// PyYAML rejects an anchor name used twice in one document.
fn check_anchor(
    anchors: &HashMap<Cow<'_, str>, NodeId>,
    nodes: &[CNode<'_>],
    anchor: Option<&str>,
    at: Mark,
) -> Result<(), YamlError> {
    let Some(a) = anchor else { return Ok(()) };
    let Some(&first) = anchors.get(a) else {
        return Ok(());
    };
    let first_mark = nodes
        .get(first as usize)
        .map(|n| n.start)
        .unwrap_or_default();
    Err(
        YamlError::new(PyErrorClass::Composer, "second occurrence", at).with_context(
            format!(
                "found duplicate anchor {}; first occurrence",
                crate::python::py_repr_str(a)
            ),
            first_mark,
        ),
    )
}

/// An event the parser never produces at this point.
fn unexpected(at: Mark) -> YamlError {
    YamlError::new(PyErrorClass::Composer, "unexpected event", at)
}
