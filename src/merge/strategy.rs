//! `Strategy` and its per-type parts: how to merge when the old value is a dict, a list or a str — pure data.
//!
//! A dialect is a table of these (see [`super::Rules`]); the engine
//! ([`super::merge_with`]) implements each mode once. cloud-init's mergers
//! map onto them one to one; later dialects add modes here, not code paths
//! elsewhere.

use crate::yaml::value::{Node, Value};

/// The kind of old value a strategy handles (Python's type as the dispatcher sees it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeClass {
    /// `dict`.
    Dict,
    /// `list` and `tuple`.
    List,
    /// `str`.
    Str,
    /// Any old value: strategies chosen by more than the type
    /// ([`Strategy::Unify`], [`Strategy::Layer`], [`Strategy::Replace`], [`Strategy::Flatten`]) that look at both values
    /// themselves. [`TypeClass::of`] never returns it, so type-only tables
    /// never pick them.
    Any,
}

impl TypeClass {
    /// The class of a value; `None` for every other type (scalars, bytes,
    /// dates, sets), which no strategy handles: old is kept.
    pub fn of(node: &Node) -> Option<TypeClass> {
        match node.value() {
            Value::Map(_) => Some(TypeClass::Dict),
            Value::Seq(_) | Value::Tuple(_) => Some(TypeClass::List),
            Value::Str(_) => Some(TypeClass::Str),
            _ => None,
        }
    }
}

/// Which types of *new* value make a strategy merge old and new recursively
/// instead of taking one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Recurse {
    /// New is a mapping.
    pub dict: bool,
    /// New is a list or tuple.
    pub list: bool,
    /// New is a string.
    pub str: bool,
}

impl Recurse {
    /// Whether a new value of this type is merged recursively.
    pub fn wants(&self, new: &Node) -> bool {
        match new.value() {
            Value::Map(_) => self.dict,
            Value::Seq(_) | Value::Tuple(_) => self.list,
            Value::Str(_) => self.str,
            _ => false,
        }
    }
}

/// What happens to a key present in both mappings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DictMode {
    /// New's value replaces old's, no recursion.
    Replace,
    /// Old's value is kept unless new's type is in [`DictStrategy::recurse`].
    Keep,
    /// Every key in both is merged recursively, whatever new's type: the
    /// rules decide at the child (Compose's mapping merge).
    Merge,
    /// Symmetric (Nickel's `&`, the keyed cloud-config dialect): for a key in
    /// both, [`super::Rules::precedence`] decides (priorities); values that
    /// meet merge through the table whatever new's type. A non-mapping new
    /// is a [`super::Rules::conflict`].
    Symmetric,
}

/// Merging into a mapping. A non-mapping new leaves old as it is; keys only
/// in new are added (null values included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DictStrategy {
    /// Keys in both.
    pub mode: DictMode,
    /// A key in both whose new value is null is deleted (before the mode applies).
    pub allow_delete: bool,
    /// In [`DictMode::Keep`], new value types merged recursively.
    pub recurse: Recurse,
}

/// How a list combines with new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListMode {
    /// Old's items, then new iterated the Python way (a string gives its
    /// characters, a mapping its keys; a scalar is a `TypeError`).
    Append,
    /// New iterated, then old's items.
    Prepend,
    /// Index-wise overlay of a list/tuple new, truncated to old's length
    /// (cloud-init's `replace`); any other new replaces old wholesale.
    Overlay,
    /// Index-wise, old kept (cloud-init's `no_replace`); new is still
    /// measured and indexed, which fails for mappings and scalars.
    Keep,
    /// Keyed union: old's items, then new's; a new item whose key (from
    /// [`super::Rules::item_key`]) equals an earlier item's takes that
    /// item's place (first position, last value), merged recursively with
    /// it when its type is in [`ListStrategy::recurse`]. Items without a key
    /// are appended. New must be a list or tuple (the rules check).
    Union,
    /// Symmetric union by identity (the keyed cloud-config dialect): a new
    /// item whose identity ([`super::Rules::item_identity`]) matches an old item's merges
    /// with it through the table; other new items are appended, except, with
    /// `dedupe`, those equal ([`super::Rules::equal`]) to an old item. A
    /// non-list new is a [`super::Rules::conflict`].
    ByIdentity {
        /// Drop new items equal to an old one.
        dedupe: bool,
    },
}

/// Merging into a list or tuple (a tuple result stays a tuple).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListStrategy {
    /// Combination mode.
    pub mode: ListMode,
    /// In [`ListMode::Overlay`], new item types merged recursively with the
    /// old item at the same index.
    pub recurse: Recurse,
}

/// How a string combines with new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrMode {
    /// Concatenation; a non-string new is a `TypeError`.
    Append,
    /// New, whatever its type.
    Replace,
}

/// Merging into a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrStrategy {
    /// Combination mode.
    pub mode: StrMode,
}

/// Flattening both sides into one sequence (Compose's `environment`,
/// `labels`, `dns`…): a mapping becomes its entries as text, sorted
/// ([`super::Rules::flatten_entry`], `key=value` or the bare key for a
/// null), a list its items, a string one item; null and other scalars give
/// nothing. New's items are appended to old's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlattenStrategy {
    /// Items with equal keys ([`super::Rules::item_key`]) are merged into
    /// one: first position, last value.
    pub unique: bool,
}
/// Merging two values that must agree (Nickel's merge of non-records).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnifyStrategy {}

/// One merge strategy for one kind of old value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// For mappings.
    Dict(DictStrategy),
    /// For lists and tuples.
    List(ListStrategy),
    /// For strings.
    Str(StrStrategy),
    /// Any old: new replaces it, whatever the types (Compose's `command`,
    /// a `!override` tag, a scalar overridden).
    Replace,
    /// Any old: old and new cannot be combined here; the merge fails with a
    /// `TypeError` "cannot override" (Compose's type mismatch).
    Conflict,
    /// Any old: both flattened into one sequence.
    Flatten(FlattenStrategy),
    /// For any old value: old and new must be equal
    /// ([`super::Rules::equal`]), else it is a [`super::Rules::conflict`].
    Unify(UnifyStrategy),
    /// For any old value: a whole-value layer strategy (Hiera's).
    Layer(LayerStrategy),
}

impl Strategy {
    /// The kind of old value this strategy handles.
    pub fn handles(&self) -> TypeClass {
        match self {
            Strategy::Dict(_) => TypeClass::Dict,
            Strategy::List(_) => TypeClass::List,
            Strategy::Str(_) => TypeClass::Str,
            Strategy::Replace | Strategy::Conflict | Strategy::Flatten(_) => TypeClass::Any,
            // Given by rules that look at more than the type.
            Strategy::Unify(_) | Strategy::Layer(_) => TypeClass::Any,
        }
    }
}

// ---- Layer strategies (Hiera). `old` is the lower-priority layer's value,
// `new` the higher one's (already merged with everything above it).

/// How a higher layer's value (new) combines with a lower one's (old),
/// whatever their types: Hiera 5's lookup merge behaviours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerStrategy {
    /// New, as it is (Hiera `first`).
    Replace,
    /// Both flattened into one list, new's items first, duplicates removed
    /// by strict equality (`1` and `1.0` differ) — Hiera `unique`.
    Unique,
    /// `deep_merge` 1.1 as Hiera's `deep` calls it (new is the source, old
    /// the destination).
    Deep(DeepOptions),
}

/// Options of [`LayerStrategy::Deep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DeepOptions {
    /// Knock out with the prefix the rules give
    /// ([`super::Rules::knockout`]): a list item `"<prefix>x"` removes `x`,
    /// a bare prefix clears the lower list, a prefixed scalar becomes `""`.
    pub knockout: bool,
    /// Sort every merged list (fails on values that do not compare).
    pub sort_merged_arrays: bool,
    /// Lists made only of mappings merge item by item.
    pub merge_hash_arrays: bool,
}
