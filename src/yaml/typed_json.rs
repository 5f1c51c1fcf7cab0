//! Type-faithful JSON: the documented mapping of Python values that JSON lacks.
//!
//! This is the oracle's encoding (see README "JSON output"), so our output and
//! cloud-init's can be compared as JSON:
//!
//! | value | JSON |
//! |---|---|
//! | `None`/`bool` | `null`/`true`/`false` |
//! | int in [-2^63, 2^64-1] | integer |
//! | larger int | `{"$bigint": "123…"}` |
//! | finite float | number with `.` or `e` |
//! | inf/-inf/nan | `{"$float": "inf"}` / `"-inf"` / `"nan"` |
//! | str with lone surrogates | `{"$str_surrogateescape_b64": …}` (bytes of the surrogateescape encoding), or `{"$str_codepoints": [..]}` when not escapable |
//! | bytes | `{"$bytes_b64": …}` |
//! | datetime / date | `{"$datetime": isoformat}` / `{"$date": …}` |
//! | tuple | `{"$tuple": [...]}` |
//! | set | `{"$set": [...]}` sorted by canonical JSON |
//! | dict key not a str | `"$null"`, `"$bool:true"`, `"$int:1"`, `"$float:1.5"`, `"$bytes_b64:…"`, `"$date:…"`, `"$datetime:…"`, else `"$json:<canonical>"`; a str key starting with `$` becomes `"$str:$…"` |

use super::value::{
    CANONICAL_NAN, Date, DateTime, Entries, Int, Map, Node, OTHER_NAN, PyStr, Seq, Value, insert,
    py_float_repr,
};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Map as JMap, Number, Value as J};

/// Why a value could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypedJsonError {
    /// The value refers to itself (a recursive alias); JSON cannot hold it.
    #[error("the value is recursive (an alias refers to its own ancestor)")]
    Recursive,
    /// Walking shared aliases would visit more nodes than allowed.
    #[error(
        "expanding aliases would exceed the budget of {0} nodes (raise it with --max-alias-expansion)"
    )]
    Budget(usize),
    /// Nesting is deeper than allowed.
    #[error("nesting deeper than {0} levels")]
    TooDeep(usize),
    /// A marker object or key that does not decode.
    #[error("invalid typed JSON: {0}")]
    Invalid(String),
}

impl TypedJsonError {
    /// Whether this is cloudfold's alias-expansion budget (`--max-alias-expansion`).
    pub fn is_limit(&self) -> bool {
        matches!(self, TypedJsonError::Budget(_))
    }
}

/// Limits for walking a value that may share nodes.
#[derive(Debug, Clone, Copy)]
pub struct WalkLimits {
    /// Total nodes visited, counting each alias expansion again.
    pub max_nodes: usize,
    /// Maximum nesting depth. The first levels are walked on the caller's
    /// stack; a deeper value is walked again on a thread with a large stack
    /// of its own, so no caller needs more than a small stack.
    pub max_depth: usize,
}

impl Default for WalkLimits {
    fn default() -> Self {
        WalkLimits {
            max_nodes: 2_000_000,
            max_depth: 10_000,
        }
    }
}

/// Encode a value as type-faithful JSON (mapping order kept; sets sorted).
///
/// Values nested deeper than a few levels are walked on a thread of the
/// library's own (see [`WalkLimits::max_depth`]): any caller's stack will do.
pub fn to_typed_json(node: &Node, limits: WalkLimits) -> Result<J, TypedJsonError> {
    crate::deep_stack::with_depth(
        limits.max_depth,
        |max_depth| {
            let mut enc = Encoder {
                limits: WalkLimits {
                    max_depth,
                    ..limits
                },
                visited: 0,
                path: Vec::new(),
                deepest: 0,
            };
            enc.encode(node)
        },
        |e| matches!(e, TypedJsonError::TooDeep(d) if *d < limits.max_depth),
    )
}

/// A mapping key as [`to_typed_json`] writes it in an object (`"runcmd"`,
/// `"$int:1"`, `"$str:$x"`, …; see the table above).
///
/// ```
/// use cloudfold::yaml::Node;
/// use cloudfold::yaml::typed_json::{WalkLimits, to_typed_key};
/// assert_eq!(to_typed_key(&Node::str("$x"), WalkLimits::default()).unwrap(), "$str:$x");
/// ```
pub fn to_typed_key(key: &Node, limits: WalkLimits) -> Result<String, TypedJsonError> {
    let mut enc = Encoder {
        limits,
        visited: 0,
        path: Vec::new(),
        deepest: 0,
    };
    enc.encode_key(key)
}

/// [`to_typed_json`] written as pretty JSON text (`serde_json::to_string_pretty`
/// of it, byte for byte), serialized as the value is walked rather than
/// built as a JSON value first: a large merged config's value tree cost
/// more than writing its text.
pub fn to_typed_json_pretty(node: &Node, limits: WalkLimits) -> Result<String, TypedJsonError> {
    crate::deep_stack::with_depth(
        limits.max_depth,
        |max_depth| {
            let mut text = Vec::new();
            let limits = WalkLimits {
                max_depth,
                ..limits
            };
            match pretty_walk(node, limits, &mut text) {
                // serde_json writes UTF-8 only.
                Ok(()) => Ok(String::from_utf8(text).unwrap_or_default()),
                Err(TypedJsonWriteError::Json(e)) => Err(e),
                Err(TypedJsonWriteError::Io(e)) => Err(TypedJsonError::Invalid(e.to_string())),
            }
        },
        |e| matches!(e, TypedJsonError::TooDeep(d) if *d < limits.max_depth),
    )
}

/// [`to_typed_json_pretty`] written to `w` as the value is walked, so the
/// text is never held whole (a 20 MB list's JSON is ~28 MB). The limits are
/// checked by a walk that writes nothing before the first byte is written:
/// a value over a limit leaves `w` untouched. `w` is best buffered; it is
/// flushed at the end. Values deeper than a few levels are written from a
/// thread of the library's own, as [`to_typed_json`] walks them.
pub fn write_typed_json_pretty<W: std::io::Write + Send>(
    node: &Node,
    limits: WalkLimits,
    w: W,
) -> Result<(), TypedJsonWriteError> {
    let deepest = crate::deep_stack::with_depth(
        limits.max_depth,
        |max_depth| {
            let mut enc = Encoder {
                limits: WalkLimits {
                    max_depth,
                    ..limits
                },
                visited: 0,
                path: Vec::new(),
                deepest: 0,
            };
            check_walk(&mut enc, node).map(|()| enc.deepest)
        },
        |e| matches!(e, TypedJsonError::TooDeep(d) if *d < limits.max_depth),
    )?;
    if deepest < crate::deep_stack::INLINE_DEPTH {
        return pretty_walk(node, limits, w);
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("cloudfold-deep-walk".into())
            .stack_size(crate::deep_stack::DEEP_STACK)
            .spawn_scoped(scope, || pretty_walk(node, limits, w))
            .map_err(TypedJsonWriteError::Io)?
            .join()
            .unwrap_or_else(|_| {
                Err(TypedJsonWriteError::Io(std::io::Error::other(
                    "the JSON writer's thread stopped",
                )))
            })
    })
}

/// Why [`write_typed_json_pretty`] stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TypedJsonWriteError {
    /// The value cannot be written (nothing was written).
    #[error(transparent)]
    Json(#[from] TypedJsonError),
    /// The writer failed (part of the text may have been written).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The visits and checks [`Streaming`] makes, without writing.
fn check_walk(enc: &mut Encoder, node: &Node) -> Result<(), TypedJsonError> {
    match node.value() {
        Value::Seq(items) => {
            enc.enter(node)?;
            for n in items.iter() {
                check_walk(enc, n)?;
            }
            enc.path.pop();
        }
        Value::Map(m) if m.keys().all(|k| k.as_str().is_some()) => {
            enc.enter(node)?;
            for (_, v) in m.iter() {
                check_walk(enc, v)?;
            }
            enc.path.pop();
        }
        // Encoded whole by the writer too.
        Value::Tuple(_) | Value::Set(_) | Value::Map(_) => {
            enc.encode(node)?;
        }
        _ => enc.visit()?,
    }
    Ok(())
}

/// [`to_typed_json_pretty`]'s walk, writing to `w` on this thread.
fn pretty_walk<W: std::io::Write>(
    node: &Node,
    limits: WalkLimits,
    w: W,
) -> Result<(), TypedJsonWriteError> {
    let walk = Streamed {
        enc: std::cell::RefCell::new(Encoder {
            limits,
            visited: 0,
            path: Vec::new(),
            deepest: 0,
        }),
        failed: std::cell::RefCell::new(None),
    };
    let mut w = w;
    match serde_json::to_writer_pretty(&mut w, &Streaming { node, walk: &walk }) {
        Ok(()) => Ok(w.flush()?),
        Err(e) => Err(match walk.failed.into_inner() {
            Some(f) => TypedJsonWriteError::Json(f),
            None if e.is_io() => TypedJsonWriteError::Io(e.into()),
            None => TypedJsonWriteError::Json(TypedJsonError::Invalid(e.to_string())),
        }),
    }
}

/// The walk state [`to_typed_json_pretty`] shares between the nodes it
/// serializes, and the error that stopped it.
struct Streamed {
    enc: std::cell::RefCell<Encoder>,
    failed: std::cell::RefCell<Option<TypedJsonError>>,
}

impl Streamed {
    /// `r`'s value, or the serializer's error with `r`'s error kept.
    fn check<T, E: serde::ser::Error>(&self, r: Result<T, TypedJsonError>) -> Result<T, E> {
        r.map_err(|e| {
            let msg = e.to_string();
            *self.failed.borrow_mut() = Some(e);
            E::custom(msg)
        })
    }
}

/// One node of a [`to_typed_json_pretty`] walk.
struct Streaming<'a> {
    node: &'a Node,
    walk: &'a Streamed,
}

impl serde::Serialize for Streaming<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        let walk = self.walk;
        let node = self.node;
        let child = |node| Streaming { node, walk };
        match node.value() {
            Value::Seq(items) => {
                walk.check(walk.enc.borrow_mut().enter(node))?;
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for n in items.iter() {
                    seq.serialize_element(&child(n))?;
                }
                walk.enc.borrow_mut().path.pop();
                seq.end()
            }
            // Only string keys are streamed: other keys are encoded, and two
            // of them may encode alike (NaNs), which a JSON object keeps once.
            Value::Map(m) if m.keys().all(|k| k.as_str().is_some()) => {
                walk.check(walk.enc.borrow_mut().enter(node))?;
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m.iter().filter_map(|(k, v)| Some((k.as_str()?, v))) {
                    map.serialize_entry(&str_key(k), &child(v))?;
                }
                walk.enc.borrow_mut().path.pop();
                map.end()
            }
            // Tuples, sets, other mappings: encoded as `to_typed_json` does
            // (rare in a config).
            Value::Tuple(_) | Value::Set(_) | Value::Map(_) => {
                let j = walk.check::<J, S::Error>(walk.enc.borrow_mut().encode(node))?;
                j.serialize(s)
            }
            v => {
                walk.check(walk.enc.borrow_mut().visit())?;
                match v {
                    Value::Str(text) => match text.as_str() {
                        Some(t) => s.serialize_str(t),
                        None => scalar_to_json(v).serialize(s),
                    },
                    _ => scalar_to_json(v).serialize(s),
                }
            }
        }
    }
}

struct Encoder {
    limits: WalkLimits,
    visited: usize,
    path: Vec<usize>,
    /// The longest `path` entered.
    deepest: usize,
}

impl Encoder {
    fn enter(&mut self, node: &Node) -> Result<(), TypedJsonError> {
        self.visited += 1;
        if self.visited > self.limits.max_nodes {
            return Err(TypedJsonError::Budget(self.limits.max_nodes));
        }
        if self.path.len() >= self.limits.max_depth {
            return Err(TypedJsonError::TooDeep(self.limits.max_depth));
        }
        if self.path.contains(&node.id()) {
            return Err(TypedJsonError::Recursive);
        }
        self.path.push(node.id());
        self.deepest = self.deepest.max(self.path.len());
        Ok(())
    }

    /// A scalar visited: counted against the budget.
    fn visit(&mut self) -> Result<(), TypedJsonError> {
        self.visited += 1;
        if self.visited > self.limits.max_nodes {
            return Err(TypedJsonError::Budget(self.limits.max_nodes));
        }
        Ok(())
    }

    fn encode(&mut self, node: &Node) -> Result<J, TypedJsonError> {
        let j = match node.value() {
            Value::Seq(s) => {
                self.enter(node)?;
                let v = J::Array(self.items(s)?);
                self.path.pop();
                v
            }
            Value::Tuple(s) => {
                self.enter(node)?;
                let v = marker("$tuple", J::Array(self.items(s)?));
                self.path.pop();
                v
            }
            Value::Set(m) => {
                self.enter(node)?;
                let mut items = m
                    .keys()
                    .map(|k| self.encode(k))
                    .collect::<Result<Vec<_>, _>>()?;
                items.sort_by_cached_key(canonical);
                self.path.pop();
                marker("$set", J::Array(items))
            }
            Value::Map(m) => {
                self.enter(node)?;
                let mut out = JMap::new();
                for (k, v) in m.iter() {
                    let key = self.encode_key(k)?;
                    let val = self.encode(v)?;
                    out.insert(key, val);
                }
                self.path.pop();
                J::Object(out)
            }
            v => {
                self.visit()?;
                scalar_to_json(v)
            }
        };
        Ok(j)
    }

    fn items(&mut self, s: &Seq) -> Result<Vec<J>, TypedJsonError> {
        s.iter().map(|n| self.encode(n)).collect()
    }

    fn encode_key(&mut self, k: &Node) -> Result<String, TypedJsonError> {
        Ok(match k.value() {
            Value::Str(s) => match s.as_str() {
                Some(s) => str_key(s).into_owned(),
                None => format!("$json:{}", canonical(&scalar_to_json(k.value()))),
            },
            Value::Null => "$null".into(),
            Value::Bool(b) => format!("$bool:{b}"),
            Value::Int(i) => format!("$int:{i}"),
            Value::Float(f) => format!("$float:{}", py_float_repr(*f)),
            Value::Bytes(b) => format!("$bytes_b64:{}", B64.encode(b)),
            Value::Date(d) => format!("$date:{d}"),
            Value::DateTime(d) => format!("$datetime:{}", d.isoformat('T')),
            _ => format!("$json:{}", canonical(&self.encode(k)?)),
        })
    }
}

/// A `str` key as typed JSON writes it: itself, or `$str:` before one that
/// starts with `$` (the markers' prefix).
fn str_key(s: &str) -> std::borrow::Cow<'_, str> {
    if s.starts_with('$') {
        format!("$str:{s}").into()
    } else {
        s.into()
    }
}

fn marker(key: &str, v: J) -> J {
    let mut m = JMap::new();
    m.insert(key.to_owned(), v);
    J::Object(m)
}

fn scalar_to_json(v: &Value) -> J {
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(Int::Small(i)) => J::Number(Number::from(*i)),
        Value::Int(i @ Int::Big(b)) => match u64::try_from(&**b) {
            Ok(u) => J::Number(Number::from(u)),
            Err(_) => marker("$bigint", J::String(i.to_string())),
        },
        Value::Float(f) => {
            if f.is_nan() {
                marker("$float", J::String("nan".into()))
            } else if f.is_infinite() {
                marker(
                    "$float",
                    J::String(if *f > 0.0 { "inf" } else { "-inf" }.into()),
                )
            } else {
                Number::from_f64(*f).map_or(J::Null, J::Number)
            }
        }
        Value::Str(s) => match s.as_str() {
            Some(s) => J::String(s.to_owned()),
            None => match s.to_utf8_surrogateescape() {
                Some(raw) => marker("$str_surrogateescape_b64", J::String(B64.encode(raw))),
                None => marker(
                    "$str_codepoints",
                    J::Array(s.chars().map(|c| J::Number(Number::from(c))).collect()),
                ),
            },
        },
        Value::Bytes(b) => marker("$bytes_b64", J::String(B64.encode(b))),
        Value::Date(d) => marker("$date", J::String(d.to_string())),
        Value::DateTime(d) => marker("$datetime", J::String(d.isoformat('T'))),
        // Containers are handled by the encoder.
        Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_) => J::Null,
    }
}

/// Canonical JSON text: keys sorted, no spaces (as the oracle's `_canon`).
pub fn canonical(v: &J) -> String {
    fn sort(v: &J) -> J {
        match v {
            J::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = JMap::new();
                for k in keys {
                    if let Some(x) = m.get(k) {
                        out.insert(k.clone(), sort(x));
                    }
                }
                J::Object(out)
            }
            J::Array(a) => J::Array(a.iter().map(sort).collect()),
            x => x.clone(),
        }
    }
    serde_json::to_string(&sort(v)).unwrap_or_default()
}

/// Decode type-faithful JSON into a value (all spans unknown).
pub fn from_typed_json(j: &J) -> Result<Node, TypedJsonError> {
    Ok(Node::synthetic(decode_value(j)?))
}

fn bad(what: impl Into<String>) -> TypedJsonError {
    TypedJsonError::Invalid(what.into())
}

fn decode_value(j: &J) -> Result<Value, TypedJsonError> {
    Ok(match j {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(Int::Small(i))
            } else if let Some(u) = n.as_u64() {
                Value::Int(Int::from_big(u.into()))
            } else {
                Value::Float(n.as_f64().ok_or_else(|| bad("number"))?)
            }
        }
        J::String(s) => Value::Str(PyStr::from(s.as_str())),
        J::Array(a) => Value::Seq(Seq::new(
            a.iter()
                .map(from_typed_json)
                .collect::<Result<Vec<_>, _>>()?,
        )),
        J::Object(m) => {
            if m.len() == 1
                && let Some((k, v)) = m.iter().next()
                && let Some(val) = decode_marker(k, v)?
            {
                return Ok(val);
            }
            let mut entries = Entries::default();
            for (k, v) in m {
                insert(
                    &mut entries,
                    Node::synthetic(decode_key(k)?),
                    from_typed_json(v)?,
                );
            }
            Value::Map(Map::new(entries))
        }
    })
}

fn as_str<'a>(v: &'a J, what: &str) -> Result<&'a str, TypedJsonError> {
    v.as_str()
        .ok_or_else(|| bad(format!("{what} needs a string")))
}

fn decode_marker(k: &str, v: &J) -> Result<Option<Value>, TypedJsonError> {
    Ok(Some(match k {
        "$bigint" => {
            Value::Int(parse_int(as_str(v, k)?).ok_or_else(|| bad("$bigint needs decimal digits"))?)
        }
        "$float" => Value::Float(match as_str(v, k)? {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => CANONICAL_NAN,
            other => return Err(bad(format!("$float {other:?}"))),
        }),
        "$str_surrogateescape_b64" => {
            let raw = B64.decode(as_str(v, k)?).map_err(|e| bad(e.to_string()))?;
            Value::Str(PyStr::from_utf8_surrogateescape(&raw))
        }
        "$str_codepoints" => {
            let a = v
                .as_array()
                .ok_or_else(|| bad("$str_codepoints needs an array"))?;
            let cps = a
                .iter()
                .map(|c| c.as_u64().and_then(|c| u32::try_from(c).ok()))
                .collect::<Option<Vec<u32>>>()
                .ok_or_else(|| bad("$str_codepoints needs code points"))?;
            Value::Str(PyStr::from_code_points(cps))
        }
        "$bytes_b64" => Value::Bytes(
            B64.decode(as_str(v, k)?)
                .map_err(|e| bad(e.to_string()))?
                .into_boxed_slice(),
        ),
        "$date" => Value::Date(parse_date(as_str(v, k)?).ok_or_else(|| bad("$date"))?),
        "$datetime" => {
            Value::DateTime(parse_datetime(as_str(v, k)?).ok_or_else(|| bad("$datetime"))?)
        }
        "$tuple" | "$set" => {
            let a = v
                .as_array()
                .ok_or_else(|| bad(format!("{k} needs an array")))?;
            let items = a
                .iter()
                .map(from_typed_json)
                .collect::<Result<Vec<_>, _>>()?;
            if k == "$tuple" {
                Value::Tuple(Seq::new(items))
            } else {
                let mut entries = Entries::default();
                for it in items {
                    insert(&mut entries, it, Node::synthetic(Value::Null));
                }
                Value::Set(Map::new(entries))
            }
        }
        _ => return Ok(None),
    }))
}

fn decode_key(k: &str) -> Result<Value, TypedJsonError> {
    let Some(rest) = k.strip_prefix('$') else {
        return Ok(Value::Str(PyStr::from(k)));
    };
    let (kind, arg) = rest.split_once(':').unwrap_or((rest, ""));
    Ok(match kind {
        "str" => Value::Str(PyStr::from(arg)),
        "null" => Value::Null,
        "bool" => Value::Bool(arg == "true"),
        "int" => Value::Int(parse_int(arg).ok_or_else(|| bad(format!("key {k:?}")))?),
        "float" => Value::Float(match arg {
            "nan" => CANONICAL_NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            x => x.parse().map_err(|_| bad(format!("key {k:?}")))?,
        }),
        "bytes_b64" => Value::Bytes(
            B64.decode(arg)
                .map_err(|e| bad(e.to_string()))?
                .into_boxed_slice(),
        ),
        "date" => Value::Date(parse_date(arg).ok_or_else(|| bad(format!("key {k:?}")))?),
        "datetime" => {
            Value::DateTime(parse_datetime(arg).ok_or_else(|| bad(format!("key {k:?}")))?)
        }
        "json" => {
            let j: J = serde_json::from_str(arg).map_err(|e| bad(e.to_string()))?;
            decode_value(&j)?
        }
        _ => return Err(bad(format!("unknown key marker {k:?}"))),
    })
}

fn parse_int(s: &str) -> Option<Int> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let i = Int::parse_radix(digits, 10)?;
    Some(if neg { i.neg() } else { i })
}

fn num(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_date(s: &str) -> Option<Date> {
    let mut it = s.splitn(3, '-');
    Date::new(num(it.next()?)?, num(it.next()?)?, num(it.next()?)?)
}

/// Parse Python's `datetime.isoformat()` output (`T` or space separator).
fn parse_datetime(s: &str) -> Option<DateTime> {
    let date = parse_date(s.get(..10)?)?;
    let rest = s.get(11..)?;
    let (time, offset) = match rest.find(['+', '-']) {
        Some(i) => (&rest[..i], Some(&rest[i..])),
        None => (rest, None),
    };
    let (hms, micro) = match time.split_once('.') {
        Some((a, b)) => (a, num(b)?),
        None => (time, 0),
    };
    let mut it = hms.splitn(3, ':');
    let (h, m, sec) = (num(it.next()?)?, num(it.next()?)?, num(it.next()?)?);
    let offset_minutes = match offset {
        None => None,
        Some(o) => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let mut it = o[1..].splitn(3, ':');
            let oh = num(it.next()?)? as i32;
            let om = num(it.next()?)? as i32;
            Some(sign * (oh * 60 + om))
        }
    };
    if h > 23 || m > 59 || sec > 59 || micro > 999_999 {
        return None;
    }
    Some(DateTime {
        date,
        hour: h as u8,
        minute: m as u8,
        second: sec as u8,
        microsecond: micro,
        offset_minutes,
    })
}

// Keep OTHER_NAN referenced for docs: decoded NaNs from `$float: nan` are canonical.
const _: f64 = OTHER_NAN;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_markers() {
        let text = r#"{"$int:1":"int-key","big":{"$bigint":"123456789012345678901234567890"},
            "t":{"$date":"2001-12-14"},"dt":{"$datetime":"2001-12-14T21:59:43.100000-05:00"},
            "b":{"$bytes_b64":"aGVsbG8K"},"f":1.5,"inf":{"$float":"-inf"},"$str:$x":1,
            "s":{"$set":["a",1]},"tp":{"$tuple":[1,2]},"u":18446744073709551615,
            "e":{"$str_surrogateescape_b64":"YeliCg=="}}"#;
        let j: J = serde_json::from_str(text).unwrap();
        let node = from_typed_json(&j).unwrap();
        let back = to_typed_json(&node, WalkLimits::default()).unwrap();
        assert_eq!(canonical(&back), canonical(&j));
    }
}
