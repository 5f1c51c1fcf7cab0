//! Puppet's `Data` type family, as the merge strategies assert it on the values they merge.

use crate::merge::ruby_class;
use crate::yaml::value::{Node, Value};

/// Puppet's `Data`: scalars (integer, float, string, boolean), `undef`,
/// arrays of data and hashes with string keys and data values.
pub(super) fn is_data(node: &Node) -> bool {
    is_data_at(node, 0)
}

fn is_data_at(node: &Node, depth: usize) -> bool {
    if depth > crate::merge::MAX_LEVELS {
        return false;
    }
    match node.value() {
        Value::Null | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => true,
        Value::Seq(s) => s.iter().all(|v| is_data_at(v, depth + 1)),
        Value::Map(m) => m
            .iter()
            .all(|(k, v)| matches!(k.value(), Value::Str(_)) && is_data_at(v, depth + 1)),
        _ => false,
    }
}

/// `Hash[String, Data]` (what `hash` merges, and `lookup_options`).
pub(super) fn is_string_data_hash(node: &Node) -> bool {
    matches!(node.value(), Value::Map(_)) && is_data(node)
}

/// `Variant[Scalar, Array[Data]]` (what `unique` merges): no `undef`, no hash.
pub(super) fn is_scalar_or_data_array(node: &Node) -> bool {
    match node.value() {
        Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_) => true,
        Value::Seq(_) => is_data(node),
        _ => false,
    }
}

/// Puppet's name of a value's type in assertion messages.
pub(super) fn puppet_type_name(node: &Node) -> &'static str {
    match node.value() {
        Value::Null => "Undef",
        Value::Bool(_) => "Boolean",
        Value::Int(_) => "Integer",
        Value::Float(_) => "Float",
        Value::Str(_) => "String",
        Value::Seq(_) => "Array",
        Value::Map(_) => "Hash",
        _ => ruby_class(node),
    }
}

/// Whether a loaded value could come from Puppet's YAML loader at all
/// (`safe_load` refuses dates, binary, sets and ordered maps).
pub(super) fn loadable_by_puppet(node: &Node) -> Result<(), &'static str> {
    loadable_at(node, 0)
}

fn loadable_at(node: &Node, depth: usize) -> Result<(), &'static str> {
    if depth > crate::merge::MAX_LEVELS {
        return Err("nesting too deep");
    }
    match node.value() {
        Value::Seq(s) => s.iter().try_for_each(|v| loadable_at(v, depth + 1)),
        Value::Map(m) => m.iter().try_for_each(|(k, v)| {
            loadable_at(k, depth + 1)?;
            loadable_at(v, depth + 1)
        }),
        Value::Date(_) => Err("Date"),
        Value::DateTime(_) => Err("Time"),
        Value::Bytes(_) => Err("binary String"),
        Value::Set(_) => Err("Set"),
        Value::Tuple(_) => Err("Omap"),
        _ => Ok(()),
    }
}
