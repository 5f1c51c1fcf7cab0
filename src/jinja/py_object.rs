//! `PyDict`, `PyList`, `Missing` and friends: Python containers and Jinja2's undefined values as MiniJinja objects.
//!
//! Instance data (and what cloudfold's filters return) is made of these, so a
//! lookup that fails yields a [`Missing`] that knows its name — Jinja2's
//! `UndefinedJinjaVariable`, printed `CI_MISSING_JINJA_VAR/<name>` — and
//! Python's lookup order holds: `d.items` is the method, `d['items']` the key.

use super::py_error::{RenderFault, note};
use super::py_format::{py_repr, py_str_lossy};
use minijinja::value::{Enumerator, Object, ObjectRepr, Value, ValueKind};
use minijinja::{Error, State};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

/// A container's lock (a poisoned lock still holds consistent data: every
/// writer replaces whole values).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The methods Python's `dict` has (an attribute lookup finds these first).
pub(crate) const DICT_METHODS: &[&str] = &[
    "clear",
    "copy",
    "fromkeys",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
];

/// The methods Python's `list` has.
pub(crate) const LIST_METHODS: &[&str] = &[
    "append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse",
    "sort",
];

/// The entries of a [`PyDict`].
pub(crate) type DictEntries = indexmap::IndexMap<DictKey, Value>;

/// A Python `dict` (insertion-ordered; keys are Python values).
///
/// Mutable in place, as Python's is (`d.update(...)` in a template changes
/// the dict every name bound to it sees). The lock is never held while other
/// template code runs: readers copy out what they need.
#[derive(Debug, Default)]
pub(crate) struct PyDict {
    entries: Mutex<DictEntries>,
}

/// A dict key with Python's hashing and equality for the key types instance
/// data and templates use (str, int, float, bool, None).
#[derive(Debug, Clone)]
pub(crate) struct DictKey(pub(crate) Value);

impl PartialEq for DictKey {
    fn eq(&self, other: &Self) -> bool {
        super::py_ops::py_eq(&self.0, &other.0)
    }
}
impl Eq for DictKey {}

impl std::hash::Hash for DictKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Numbers that compare equal (1, 1.0, True) hash equal, as in Python.
        match self.0.kind() {
            ValueKind::Number | ValueKind::Bool => {
                if let Some(f) = super::py_ops::as_f64(&self.0) {
                    if f.fract() == 0.0 && f.abs() < 9.0e15 {
                        0u8.hash(state);
                        (f as i64).hash(state);
                    } else {
                        1u8.hash(state);
                        f.to_bits().hash(state);
                    }
                }
            }
            ValueKind::String => {
                2u8.hash(state);
                self.0.as_str().hash(state);
            }
            ValueKind::None => 3u8.hash(state),
            _ => 4u8.hash(state),
        }
    }
}

impl PyDict {
    /// A dict of these entries (later keys replace earlier ones, keeping
    /// the first position, as `d[k] = v` does).
    pub(crate) fn from_pairs(pairs: impl IntoIterator<Item = (Value, Value)>) -> Self {
        let mut entries = indexmap::IndexMap::new();
        for (k, v) in pairs {
            entries.insert(DictKey(k), v);
        }
        PyDict::from_entries(entries)
    }

    /// A dict of these entries.
    pub(crate) fn from_entries(entries: DictEntries) -> Self {
        PyDict {
            entries: Mutex::new(entries),
        }
    }

    /// The entries, locked (for a mutation or a short read that calls no
    /// template code).
    pub(crate) fn lock(&self) -> MutexGuard<'_, DictEntries> {
        lock(&self.entries)
    }

    /// A copy of the entries.
    pub(crate) fn snapshot(&self) -> DictEntries {
        self.lock().clone()
    }

    /// The `(key, value)` pairs in order.
    pub(crate) fn pairs(&self) -> Vec<(Value, Value)> {
        self.lock()
            .iter()
            .map(|(k, v)| (k.0.clone(), v.clone()))
            .collect()
    }

    /// The keys in order.
    pub(crate) fn keys(&self) -> Vec<Value> {
        self.lock().keys().map(|k| k.0.clone()).collect()
    }

    /// The values in order.
    pub(crate) fn values(&self) -> Vec<Value> {
        self.lock().values().cloned().collect()
    }

    /// How many entries.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// The value under a key.
    pub(crate) fn get(&self, key: &Value) -> Option<Value> {
        self.lock().get(&DictKey(key.clone())).cloned()
    }

    /// As a template value.
    pub(crate) fn into_value(self) -> Value {
        Value::from_object(self)
    }

    /// The value under a string key.
    pub(crate) fn get_str(&self, key: &str) -> Option<Value> {
        self.get(&Value::from(key))
    }
}

impl Object for PyDict {
    // Iterable: iteration and `in` go over the keys (as Python's do), and
    // every item lookup reaches `get_value`, which can answer "missing".
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Iterable
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        // `d[k]`: the key first, then (for a str) the attribute.
        if let Some(v) = self.get(key) {
            return Some(v);
        }
        if let Some(name) = key.as_str()
            && DICT_METHODS.contains(&name)
        {
            return Some(BoundMethod::value(
                Value::from_dyn_object(self.clone()),
                name,
            ));
        }
        Some(Missing::attr(key, "dict object"))
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        // `d.k`: the attribute first (a method), then the key.
        if DICT_METHODS.contains(&key) {
            return Some(BoundMethod::value(
                Value::from_dyn_object(self.clone()),
                key,
            ));
        }
        match self.get_str(key) {
            Some(v) => Some(v),
            None => Some(Missing::attr(&Value::from(key), "dict object")),
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.keys())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.len())
    }

    fn is_true(self: &Arc<Self>) -> bool {
        !self.is_empty()
    }

    fn call_method(
        self: &Arc<Self>,
        state: &mut State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        super::methods::dict_method(state, self, method, args)
    }

    fn custom_cmp(
        self: &Arc<Self>,
        other: &minijinja::value::DynObject,
    ) -> Option<std::cmp::Ordering> {
        let other = other.downcast_ref::<PyDict>()?;
        let (mine, theirs) = (self.snapshot(), other.snapshot());
        let eq = mine.len() == theirs.len()
            && mine
                .iter()
                .all(|(k, v)| theirs.get(k).is_some_and(|w| super::py_ops::py_eq(v, w)));
        // Dicts are only equal or not (Python raises on `<`): unequal dicts
        // are told apart by size so MiniJinja gets an order.
        Some(if eq {
            std::cmp::Ordering::Equal
        } else {
            mine.len().cmp(&theirs.len()).then(std::cmp::Ordering::Less)
        })
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&py_str_lossy(&Value::from_dyn_object(self.clone())))
    }
}

/// A Python `list`, mutable in place like [`PyDict`].
#[derive(Debug, Default)]
pub(crate) struct PyList {
    items: Mutex<Vec<Value>>,
}

impl PyList {
    /// A list of these items.
    pub(crate) fn new(items: Vec<Value>) -> Self {
        PyList {
            items: Mutex::new(items),
        }
    }

    /// As a template value.
    pub(crate) fn value(items: Vec<Value>) -> Value {
        Value::from_object(PyList::new(items))
    }

    /// The items, locked (for a mutation or a short read that calls no
    /// template code).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Vec<Value>> {
        lock(&self.items)
    }

    /// A copy of the items.
    pub(crate) fn items(&self) -> Vec<Value> {
        self.lock().clone()
    }

    /// How many items.
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

impl Object for PyList {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        if key.kind() == ValueKind::Number && key.is_integer() {
            // Python indexes from the end for a negative index.
            let items = self.lock();
            if let Some(i) = key.as_i64()
                && let Some(i) = if i < 0 {
                    usize::try_from(i.unsigned_abs())
                        .ok()
                        .and_then(|back| items.len().checked_sub(back))
                } else {
                    usize::try_from(i).ok()
                }
                && let Some(v) = items.get(i)
            {
                return Some(v.clone());
            }
            return Some(Missing::attr(key, "list object"));
        }
        if let Some(name) = key.as_str()
            && LIST_METHODS.contains(&name)
        {
            return Some(BoundMethod::value(
                Value::from_dyn_object(self.clone()),
                name,
            ));
        }
        Some(Missing::attr(key, "list object"))
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        self.get_value(&Value::from(key))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(self.len())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.len())
    }

    fn is_true(self: &Arc<Self>) -> bool {
        !self.is_empty()
    }

    fn call_method(
        self: &Arc<Self>,
        state: &mut State<'_, '_>,
        method: &str,
        args: &[Value],
    ) -> Result<Value, Error> {
        super::methods::list_method(state, self, method, args)
    }

    fn custom_cmp(
        self: &Arc<Self>,
        other: &minijinja::value::DynObject,
    ) -> Option<std::cmp::Ordering> {
        let other = other.downcast_ref::<PyList>()?;
        super::py_ops::py_cmp_seq(&self.items(), &other.items())
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&py_str_lossy(&Value::from_dyn_object(self.clone())))
    }
}

/// What `_undefined_name` is: a str, or another key (`lst[5]` → 5).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UndefName {
    /// No name (an undefined made from a hint).
    None,
    /// A key: its `str()` and `repr()`, and whether it is a `str`.
    Key {
        /// `str(name)`.
        text: String,
        /// `repr(name)`.
        repr: String,
        /// `isinstance(name, str)`.
        is_str: bool,
    },
}

/// How an undefined came about (what its `UndefinedError` says).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UndefOrigin {
    /// A name not in the context: "'x' is undefined".
    Name,
    /// A failed lookup on an object of this type ("dict object").
    Lookup(String),
    /// Made with a hint (e.g. `first` of an empty sequence).
    Hint(String),
    /// An inline `if` without `else` whose test was false: a plain
    /// `jinja2.Undefined`, not cloud-init's subclass (prints as nothing).
    CondExpr(String),
}

/// Jinja2's undefined value as cloud-init subclasses it (`UndefinedJinjaVariable`).
#[derive(Debug, Clone)]
pub(crate) struct Missing {
    pub(crate) name: UndefName,
    pub(crate) origin: UndefOrigin,
}

impl Missing {
    /// A name the context does not have.
    pub(crate) fn name(name: &str) -> Value {
        Value::from_object(Missing {
            name: UndefName::Key {
                text: name.to_owned(),
                repr: super::py_format::py_repr_text(name),
                is_str: true,
            },
            origin: UndefOrigin::Name,
        })
    }

    /// A failed lookup of `key` in an object of `type_name` (`"dict object"`).
    pub(crate) fn attr(key: &Value, type_name: &str) -> Value {
        Value::from_object(Missing {
            name: UndefName::Key {
                text: py_str_lossy(key),
                repr: py_repr(key).unwrap_or_default(),
                is_str: key.kind() == ValueKind::String,
            },
            origin: UndefOrigin::Lookup(type_name.to_owned()),
        })
    }

    /// An undefined with a hint and no name (printed `CI_MISSING_JINJA_VAR/None`).
    pub(crate) fn hint(hint: impl Into<String>) -> Value {
        Value::from_object(Missing {
            name: UndefName::None,
            origin: UndefOrigin::Hint(hint.into()),
        })
    }

    /// Jinja2's value of an inline `if` on `line` without `else`, its test false.
    pub(crate) fn cond_expr(line: usize) -> Value {
        Value::from_object(Missing {
            name: UndefName::None,
            origin: UndefOrigin::CondExpr(format!(
                "the inline if-expression on line {line} evaluated to false and no else section was defined."
            )),
        })
    }

    /// `str(self)`: `CI_MISSING_JINJA_VAR/<name>` (plain `Undefined`: nothing).
    pub(crate) fn text(&self) -> String {
        if matches!(self.origin, UndefOrigin::CondExpr(_)) {
            return String::new();
        }
        format!("{}{}", super::MISSING_JINJA_PREFIX, self.name_text())
    }

    /// Jinja2's own `Undefined` (an inline `if` without `else`), not cloud-init's subclass.
    pub(crate) fn is_plain_undefined(&self) -> bool {
        matches!(self.origin, UndefOrigin::CondExpr(_))
    }

    /// `str(self._undefined_name)`.
    pub(crate) fn name_text(&self) -> &str {
        match &self.name {
            UndefName::None => "None",
            UndefName::Key { text, .. } => text,
        }
    }

    /// The name as a variable name (for diagnostics), if it is a str.
    #[allow(dead_code)]
    pub(crate) fn var_name(&self) -> Option<&str> {
        match &self.name {
            UndefName::Key {
                text, is_str: true, ..
            } => Some(text),
            _ => None,
        }
    }

    /// Jinja2's `_undefined_message`.
    pub(crate) fn message(&self) -> String {
        match (&self.origin, &self.name) {
            (UndefOrigin::Hint(h) | UndefOrigin::CondExpr(h), _) => h.clone(),
            (UndefOrigin::Name, UndefName::Key { repr, .. }) => format!("{repr} is undefined"),
            (UndefOrigin::Name, UndefName::None) => "None is undefined".to_owned(),
            (UndefOrigin::Lookup(t), UndefName::Key { repr, is_str, .. }) => {
                if *is_str {
                    format!(
                        "{} has no attribute {repr}",
                        super::py_format::py_repr_text(t)
                    )
                } else {
                    format!("{t} has no element {repr}")
                }
            }
            (UndefOrigin::Lookup(t), UndefName::None) => {
                format!(
                    "{} has no attribute None",
                    super::py_format::py_repr_text(t)
                )
            }
        }
    }

    /// Whether a value is one of these.
    pub(crate) fn of(v: &Value) -> Option<&Missing> {
        v.downcast_object_ref::<Missing>()
    }

    /// The value is undefined, as Jinja2's `is defined` sees it.
    pub(crate) fn is_undefined(v: &Value) -> bool {
        v.is_undefined() || Missing::of(v).is_some()
    }
}

impl Object for Missing {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Iterable
    }

    // Any attribute or item of an undefined raises `UndefinedError`; the
    // render goes on with this value, the fault decides the part's fate.
    fn get_value(self: &Arc<Self>, _key: &Value) -> Option<Value> {
        note(RenderFault::undefined(self.message()));
        Some(Value::from_dyn_object(self.clone()))
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        if key.starts_with("__") {
            return None;
        }
        note(RenderFault::undefined(self.message()));
        Some(Value::from_dyn_object(self.clone()))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Empty
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(0)
    }

    fn is_true(self: &Arc<Self>) -> bool {
        false
    }

    fn call(self: &Arc<Self>, _state: &mut State<'_, '_>, _args: &[Value]) -> Result<Value, Error> {
        super::py_error::py_err(super::py_error::PyExc::UndefinedError, self.message())
    }

    fn call_method(
        self: &Arc<Self>,
        _state: &mut State<'_, '_>,
        _method: &str,
        _args: &[Value],
    ) -> Result<Value, Error> {
        super::py_error::py_err(super::py_error::PyExc::UndefinedError, self.message())
    }

    fn custom_cmp(
        self: &Arc<Self>,
        other: &minijinja::value::DynObject,
    ) -> Option<std::cmp::Ordering> {
        // `Undefined.__eq__`: equal to any other undefined.
        other
            .downcast_ref::<Missing>()
            .map(|_| std::cmp::Ordering::Equal)
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// A method looked up as an attribute without being called (`d.items`):
/// Python prints it with its memory address (cloudfold writes a fixed one).
#[derive(Debug)]
pub(crate) struct BoundMethod {
    owner: Value,
    name: String,
}

impl BoundMethod {
    /// `owner.name`, uncalled.
    pub(crate) fn value(owner: Value, name: &str) -> Value {
        Value::from_object(BoundMethod {
            owner,
            name: name.to_owned(),
        })
    }

    /// Python's `repr()`: `<built-in method items of dict object at 0x…>`.
    /// The address differs on every run of Python; this one is fixed.
    pub(crate) fn repr(&self) -> String {
        format!(
            "<built-in method {} of {} object at 0x7f0000000000>",
            self.name,
            super::py_ops::type_name(&self.owner)
        )
    }
}

impl Object for BoundMethod {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn is_true(self: &Arc<Self>) -> bool {
        true
    }

    fn get_value_by_str(self: &Arc<Self>, _key: &str) -> Option<Value> {
        None
    }

    fn call(self: &Arc<Self>, state: &mut State<'_, '_>, args: &[Value]) -> Result<Value, Error> {
        self.owner.call_method(state, &self.name, args)
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&BoundMethod::repr(self))
    }
}

/// What a view or lazy sequence is, for printing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SeqKind {
    /// `dict_keys([...])`.
    DictKeys,
    /// `dict_values([...])`.
    DictValues,
    /// `dict_items([...])`.
    DictItems,
    /// A generator (Python prints its address).
    Generator,
    /// A `list_reverseiterator` (same).
    ReverseIterator,
}

impl SeqKind {
    fn type_name(self) -> &'static str {
        match self {
            SeqKind::DictKeys => "dict_keys",
            SeqKind::DictValues => "dict_values",
            SeqKind::DictItems => "dict_items",
            SeqKind::Generator => "generator",
            SeqKind::ReverseIterator => "list_reverseiterator",
        }
    }
}

/// A dict view or a generator: iterable, not indexable.
#[derive(Debug)]
pub(crate) struct PySeq {
    /// What it is.
    pub kind: SeqKind,
    /// Its items.
    pub items: Vec<Value>,
}

impl PySeq {
    /// As a template value.
    pub(crate) fn value(kind: SeqKind, items: Vec<Value>) -> Value {
        Value::from_object(PySeq { kind, items })
    }

    /// `len()` works on views, not on iterators.
    pub(crate) fn has_len(&self) -> bool {
        matches!(
            self.kind,
            SeqKind::DictKeys | SeqKind::DictValues | SeqKind::DictItems
        )
    }

    /// Python's type name.
    pub(crate) fn type_name(&self) -> &'static str {
        self.kind.type_name()
    }
}

impl Object for PySeq {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Iterable
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        // Not subscriptable: Jinja2's getitem falls back to an undefined.
        Some(Missing::attr(
            key,
            &format!("{} object", self.kind.type_name()),
        ))
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        Some(Missing::attr(
            &Value::from(key),
            &format!("{} object", self.kind.type_name()),
        ))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(self.items.clone())
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.items.len())
    }

    fn is_true(self: &Arc<Self>) -> bool {
        // Views are falsy when empty; generators are always true.
        !self.has_len() || !self.items.is_empty()
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&py_str_lossy(&Value::from_dyn_object(self.clone())))
    }
}

/// Python's `range` object (lazy: `range(10**9)` costs nothing until iterated).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PyRange {
    /// First value.
    pub start: i64,
    /// End (exclusive).
    pub stop: i64,
    /// Step (never 0).
    pub step: i64,
}

impl PyRange {
    /// How many values.
    pub(crate) fn len(&self) -> usize {
        let (start, stop, step) = (
            i128::from(self.start),
            i128::from(self.stop),
            i128::from(self.step),
        );
        let n = if step > 0 && start < stop {
            (stop - start + step - 1) / step
        } else if step < 0 && start > stop {
            (start - stop - step - 1) / (-step)
        } else {
            0
        };
        usize::try_from(n).unwrap_or(usize::MAX)
    }

    /// Whether empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`th value.
    pub(crate) fn nth(&self, i: usize) -> Option<i64> {
        if i >= self.len() {
            return None;
        }
        let v = i128::from(self.start) + i128::try_from(i).ok()? * i128::from(self.step);
        i64::try_from(v).ok()
    }
}

impl Object for PyRange {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        if key.is_integer()
            && let Some(i) = key.as_i64()
            && let Ok(i) = usize::try_from(i)
            && let Some(v) = self.nth(i)
        {
            return Some(Value::from(v));
        }
        Some(Missing::attr(key, "range object"))
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        let r = **self;
        Enumerator::Iter(Box::new(
            (0..r.len()).map_while(move |i| r.nth(i).map(Value::from)),
        ))
    }

    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.len())
    }

    fn is_true(self: &Arc<Self>) -> bool {
        !self.is_empty()
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.step == 1 {
            write!(f, "range({}, {})", self.start, self.stop)
        } else {
            write!(f, "range({}, {}, {})", self.start, self.stop, self.step)
        }
    }
}

/// An integer beyond 128 bits (Python's ints are unbounded): printable,
/// comparable, not computable with.
#[derive(Debug)]
pub(crate) struct BigInt(pub num_bigint::BigInt);

impl Object for BigInt {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }

    fn is_true(self: &Arc<Self>) -> bool {
        true
    }

    fn custom_cmp(
        self: &Arc<Self>,
        other: &minijinja::value::DynObject,
    ) -> Option<std::cmp::Ordering> {
        Some(self.0.cmp(&other.downcast_ref::<BigInt>()?.0))
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A literal as Python evaluates it: MiniJinja's lists and dicts (shared,
/// immutable) become new [`PyList`]s and [`PyDict`]s, inside tuples too.
pub(crate) fn fresh(v: &Value) -> Result<Value, Error> {
    // Only what MiniJinja's literals build: a `Vec` (list), a tuple, an
    // `IndexMap` (dict); anything else in a literal (`[ns]`) stays itself.
    if let Some(items) = v.downcast_object_ref::<Vec<Value>>() {
        return Ok(PyList::value(
            items.iter().map(fresh).collect::<Result<_, _>>()?,
        ));
    }
    if let Some(map) = v.downcast_object_ref::<indexmap::IndexMap<Value, Value>>() {
        let mut pairs = Vec::with_capacity(map.len());
        for (k, x) in map {
            let k = fresh(k)?;
            // `{[1]: 2}`: Python hashes each key as it builds the dict.
            if let Some(t) = super::py_ops::unhashable(&k) {
                return super::py_error::py_err(
                    super::py_error::PyExc::TypeError,
                    format!("unhashable type: '{t}'"),
                );
            }
            pairs.push((k, fresh(x)?));
        }
        return Ok(PyDict::from_pairs(pairs).into_value());
    }
    if v.is_tuple() {
        return Ok(py_tuple(
            v.try_iter()
                .into_iter()
                .flatten()
                .map(|x| fresh(&x))
                .collect::<Result<_, _>>()?,
        ));
    }
    Ok(v.clone())
}

/// The result of MiniJinja's `a + b` as Python's: a lazily chained sequence
/// becomes a new list (numbers, strings and tuples are already right).
pub(crate) fn concatenated(v: &Value) -> Value {
    let ours = v.downcast_object_ref::<PyList>().is_some()
        || v.downcast_object_ref::<PyDict>().is_some()
        || v.downcast_object_ref::<PySeq>().is_some()
        || v.downcast_object_ref::<PyRange>().is_some()
        || Missing::of(v).is_some();
    if !ours && !v.is_tuple() && matches!(v.kind(), ValueKind::Seq | ValueKind::Iterable) {
        return PyList::value(v.try_iter().into_iter().flatten().collect());
    }
    v.clone()
}

/// A copy of `v` sharing no mutable container with it (Python's
/// `copy.deepcopy` for the values instance data holds): each render gets
/// its own instance data, as cloud-init loads the file again for each part.
pub(crate) fn deep_copy(v: &Value) -> Value {
    if let Some(d) = v.downcast_object_ref::<PyDict>() {
        return PyDict::from_pairs(d.pairs().into_iter().map(|(k, x)| (k, deep_copy(&x))))
            .into_value();
    }
    if let Some(l) = v.downcast_object_ref::<PyList>() {
        return PyList::value(l.items().iter().map(deep_copy).collect());
    }
    v.clone()
}

/// A Python tuple of these values.
pub(crate) fn py_tuple(items: Vec<Value>) -> Value {
    Value::from_object(minijinja::value::Tuple::new(items))
}
