//! The cloud-config handler's merge of one part (spec extraction, default stack) and `mergemanydict`.

use super::{MergeSpec, MergerStack, Version};
use crate::merge::{MergeError, PyException};
use crate::yaml::value::{Map, Node, Value};

/// A part ready to merge: its mapping without the popped spec key, and the
/// stack that governs its merge.
#[derive(Clone, Debug)]
pub struct PreparedPart {
    /// The part's mapping with `merge_how` / `merge_type` removed as cloud-init pops them.
    pub data: Node,
    /// The spec from the payload (`merge_how` or `merge_type`).
    pub payload_spec: MergeSpec,
    /// The spec from the `Merge-Type` / `X-Merge-Type` header.
    pub header_spec: MergeSpec,
    /// The resolved stack (payload spec, then header spec, or the default).
    pub stack: MergerStack,
}

impl PreparedPart {
    /// `accumulator := merge(accumulator, part)`.
    pub fn merge_into(&self, acc: &Node) -> Result<Node, MergeError> {
        self.stack.merge(acc, &self.data)
    }
}

/// Steps 3–5 of the handler's merge of a YAML part: pop the payload spec,
/// parse the header spec (`None` or empty: none), resolve payload spec +
/// header spec, or `dict(replace)+list()+str()` when both are empty.
///
/// Errors come in cloud-init's order: payload spec, header spec syntax
/// (`ValueError`), then merger names and options.
pub fn prepare_part(
    mapping: &Node,
    header_spec: Option<&str>,
    version: Version,
) -> Result<PreparedPart, MergeError> {
    let (data, payload_spec) = extract_payload_mergers(mapping, version)?;
    let header_spec = parse_merge_string(header_spec.unwrap_or(""), version)?;
    let stack = stack_for_part(payload_spec.clone(), header_spec.clone())?;
    Ok(PreparedPart {
        data,
        payload_spec,
        header_spec,
        stack,
    })
}

/// Parse a header (or any) merge-spec string; `""` gives an empty spec.
pub fn parse_merge_string(text: &str, version: Version) -> Result<MergeSpec, MergeError> {
    MergeSpec::parse_str(text, version)
}

/// Pop the payload's spec: remove top-level `merge_how`; if it was absent or
/// null, remove `merge_type` too and use that. When `merge_how` is set,
/// `merge_type` stays in the data as an ordinary key.
///
/// The returned data is `mapping` itself when nothing was removed, else a
/// new mapping (with `mapping`'s span) sharing the other entries.
pub fn extract_payload_mergers(
    mapping: &Node,
    version: Version,
) -> Result<(Node, MergeSpec), MergeError> {
    let map = match mapping.value() {
        Value::Map(m) => m,
        // `config.pop("merge_how", None)` on what is not a dict.
        Value::Seq(_) => {
            return Err(MergeError::type_error(
                "pop expected at most 1 argument, got 2",
            ));
        }
        _ => {
            return Err(MergeError::new(
                PyException::AttributeError,
                format!("'{}' object has no attribute 'pop'", mapping.type_name()),
            ));
        }
    };
    let how = map.get_str("merge_how");
    let (spec_value, remove_type) = match how {
        Some(v) if !v.is_null() => (Some(v), false),
        _ => (map.get_str("merge_type"), true),
    };
    // Only a `str` key equals either name: with neither present (the usual
    // part), nothing is removed and the keys need no scan.
    if how.is_none() && spec_value.is_none() {
        return Ok((mapping.clone(), MergeSpec::default()));
    }
    let removed: Vec<&Node> = map
        .keys()
        .filter(|k| match k.as_str() {
            Some("merge_how") => true,
            Some("merge_type") => remove_type,
            _ => false,
        })
        .collect();
    let data = if removed.is_empty() {
        mapping.clone()
    } else {
        let mut entries = map.to_entries();
        for k in removed {
            entries.shift_remove(k);
        }
        Node::new(Value::Map(Map::new(entries)), mapping.span())
    };
    let spec = match spec_value {
        Some(v) if !v.is_null() => MergeSpec::from_value(v, version)?,
        _ => MergeSpec::default(),
    };
    Ok((data, spec))
}

/// The stack for a part: payload spec then header spec; both empty →
/// `dict(replace)+list()+str()`.
pub fn stack_for_part(payload: MergeSpec, header: MergeSpec) -> Result<MergerStack, MergeError> {
    let all = payload.then(header);
    if all.is_empty() {
        return Ok(MergerStack::handler_default());
    }
    MergerStack::resolve(&all)
}

/// `list()+dict()+str()`, the stack of `mergemanydict` for sources without a spec.
pub fn default_mergers() -> MergerStack {
    MergerStack::default_mergers()
}

/// cloud-init's `util.mergemanydict`: starting from `{}`, merge each truthy
/// source (highest priority first) with its own popped spec, or
/// [`default_mergers`] when it has none.
pub fn merge_many(sources: &[Node], version: Version) -> Result<Node, MergeError> {
    let mut merged = Node::synthetic(Value::Map(Map::default()));
    for src in sources.iter().filter(|s| s.is_truthy()) {
        let (data, spec) = extract_payload_mergers(src, version)?;
        let stack = if spec.is_empty() {
            default_mergers()
        } else {
            MergerStack::resolve(&spec)?
        };
        merged = stack.merge(&merged, &data)?;
    }
    Ok(merged)
}
