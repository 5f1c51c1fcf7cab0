//! `JsonSchema` and `SchemaIssue`: cloud-init's JSON schema checked against a merged config the way its own validator does, value by value, spans kept.

use super::{MiniRegex, SchemaError, SchemaFacts};
use crate::merge::PathSeg;
use crate::userdata::Release;
use crate::yaml::Node;
use crate::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use crate::yaml::value::{Value, py_repr, py_repr_json, py_str};
use serde_json::Value as J;
use std::cmp::Ordering;
use std::collections::HashMap;

/// A parsed schema (`schema-cloud-config-v1.json`), checked as cloud-init's
/// `validate_cloudconfig_schema` checks a config: jsonschema's Draft 4 validator
/// (the keywords and messages of the jsonschema each release's Debian package runs
/// with: bookworm's 4.10.3 for 22.4, trixie's 4.19.2 for 25.1) with cloud-init's changes — `deprecated` and
/// `changed` annotations, `oneOf`/`anyOf` that keep the deprecations of the branch
/// that matched and, from 25.1 on, report the failing branches' deepest errors, a
/// `string` that is also `bytes` — and the `date` format checked (the formats that
/// need optional Python packages, `uri` and `hostname`, are not).
///
/// Keywords: `$ref` (local; its siblings checked too, as cloud-init's validator does), `type`, `enum`,
/// `properties`, `patternProperties`, `additionalProperties`, `items` (schema or
/// list), `additionalItems`, `required`, `minItems`, `maxItems`, `uniqueItems`,
/// `minProperties`, `maxProperties`, `minimum`, `maximum`, `pattern`, `format`,
/// `allOf`, `anyOf`, `oneOf`, `not`. Types follow Draft 4: `integer` excludes
/// booleans and floats, `array` is a list only.
#[derive(Debug, Clone)]
pub struct JsonSchema {
    root: J,
    regexes: HashMap<String, Option<MiniRegex>>,
    release: Release,
}

/// One problem found: at which value, what.
#[derive(Debug, Clone)]
pub struct SchemaIssue {
    /// The logical path (`$.users[0].name`).
    pub path: String,
    /// The path as cloud-init prints it (`users.0.name`; an unexpected top-level key
    /// is named, as cloud-init does).
    pub cloud_init_path: String,
    /// The offending value (its span says which part and line supplied it); for
    /// unexpected keys, the first of them.
    pub node: Node,
    /// What is wrong, in cloud-init's (jsonschema's) words.
    pub message: String,
    /// A deprecation (cloud-init warns), not a violation.
    pub deprecated: bool,
    /// More detail (a key's likely intended spelling).
    pub notes: Vec<String>,
}

/// A segment of an instance path, ordered as Python orders jsonschema's path deques.
#[derive(Clone, Debug)]
enum Seg {
    Key(Node),
    Index(usize),
}

/// A jsonschema `ValidationError` (or cloud-init's `SchemaDeprecationError`).
#[derive(Clone, Debug)]
struct Fault<'s> {
    path: Vec<Seg>,
    instance: Node,
    /// The schema object holding the keyword that failed.
    schema: &'s J,
    keyword: &'s str,
    message: String,
    deprecated: bool,
    /// The alternatives' errors of a failed `oneOf`/`anyOf`.
    context: Vec<Fault<'s>>,
    /// Where to point: the value, or an unexpected key.
    at: Node,
    notes: Vec<String>,
}

const MAX_DEPTH: usize = 256;
/// Longest message kept whole: jsonschema quotes the whole value (`repr`), which for a
/// hostile payload is megabytes; cut, it stays exact for any value a person writes.
const MAX_MESSAGE: usize = 16 * 1024;

fn collect_patterns(v: &J, out: &mut HashMap<String, Option<MiniRegex>>) {
    match v {
        J::Object(o) => {
            for (k, x) in o {
                if k == "pattern"
                    && let J::String(p) = x
                {
                    out.entry(p.clone()).or_insert_with(|| MiniRegex::new(p));
                }
                if k == "patternProperties"
                    && let J::Object(pp) = x
                {
                    for p in pp.keys() {
                        out.entry(p.clone()).or_insert_with(|| MiniRegex::new(p));
                    }
                    let joined = pp.keys().cloned().collect::<Vec<_>>().join("|");
                    out.entry(joined.clone())
                        .or_insert_with(|| MiniRegex::new(&joined));
                }
                collect_patterns(x, out);
            }
        }
        J::Array(a) => a.iter().for_each(|x| collect_patterns(x, out)),
        _ => {}
    }
}

/// jsonschema's Draft 4 type check, with cloud-init's `string` that takes `bytes`.
fn type_ok(node: &Node, t: &str) -> bool {
    matches!(
        (t, node.value()),
        ("object", Value::Map(_))
            | ("array", Value::Seq(_))
            | ("string", Value::Str(_) | Value::Bytes(_))
            | ("integer", Value::Int(_))
            | ("number", Value::Int(_) | Value::Float(_))
            | ("boolean", Value::Bool(_))
            | ("null", Value::Null)
    )
}

fn as_json(node: &Node) -> Option<J> {
    to_typed_json(
        node,
        WalkLimits {
            max_nodes: 100_000,
            ..WalkLimits::default()
        },
    )
    .ok()
}

/// jsonschema's `equal`: Python equality, except that a bool never equals a number.
fn same(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => x.as_f64() == y.as_f64(),
        _ => canonical(a) == canonical(b),
    }
}

fn number(node: &Node) -> Option<f64> {
    match node.value() {
        Value::Int(_) | Value::Float(_) => as_json(node).and_then(|j| j.as_f64()),
        _ => None,
    }
}

/// Python's order of two path segments (a key's `str` by code point, an index by value).
fn cmp_seg(a: &Seg, b: &Seg) -> Ordering {
    match (a, b) {
        (Seg::Index(x), Seg::Index(y)) => x.cmp(y),
        (Seg::Key(x), Seg::Key(y)) => py_str(x).chars().cmp(py_str(y).chars()),
        (Seg::Index(_), Seg::Key(_)) => Ordering::Less,
        (Seg::Key(_), Seg::Index(_)) => Ordering::Greater,
    }
}

fn cmp_path(a: &[Seg], b: &[Seg]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match cmp_seg(x, y) {
            Ordering::Equal => {}
            o => return o,
        }
    }
    a.len().cmp(&b.len())
}

/// `datetime.date.fromisoformat` of `YYYY-MM-DD` (jsonschema's `date` format).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10
        || b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !b
            .iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
    {
        return false;
    }
    let n = |r: std::ops::Range<usize>| s.get(r).and_then(|x| x.parse::<u32>().ok()).unwrap_or(0);
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    };
    y >= 1 && d >= 1 && d <= days
}

impl<'s> Fault<'s> {
    fn path_string(&self) -> String {
        let mut s = String::from("$");
        for seg in &self.path {
            match seg {
                Seg::Key(k) => s.push_str(&PathSeg::Key(k.clone()).to_string()),
                Seg::Index(i) => s.push_str(&PathSeg::Index(*i).to_string()),
            }
        }
        s
    }

    /// `".".join(str(p) for p in error.path)`.
    fn flat_path(&self) -> String {
        self.path
            .iter()
            .map(|seg| match seg {
                Seg::Key(k) => py_str(k).to_string_lossy().into_owned(),
                Seg::Index(i) => i.to_string(),
            })
            .collect::<Vec<_>>()
            .join(".")
    }

    /// jsonschema's `_matches_type`: the instance has the type its schema names.
    fn matches_type(&self) -> bool {
        match self.schema.get("type") {
            Some(J::String(t)) => type_ok(&self.instance, t),
            Some(J::Array(ts)) => ts
                .iter()
                .filter_map(J::as_str)
                .any(|t| type_ok(&self.instance, t)),
            _ => false,
        }
    }
}

/// jsonschema's `relevance` key, compared: `Greater` is more relevant. Debian's
/// jsonschema (4.10, 4.19) has no tie-break on the path itself (4.23 added one).
fn relevance(a: &Fault, b: &Fault) -> Ordering {
    let weak = |f: &Fault| matches!(f.keyword, "anyOf" | "oneOf");
    b.path
        .len()
        .cmp(&a.path.len())
        .then_with(|| (!weak(a)).cmp(&!weak(b)))
        .then_with(|| (!a.matches_type()).cmp(&!b.matches_type()))
}

/// jsonschema's `best_match`: the most relevant error (the first of equals), then down
/// its context while one alternative stands out.
fn best_match<'s>(errors: &[Fault<'s>]) -> Option<Fault<'s>> {
    let mut best: &Fault<'s> = errors.iter().reduce(|m, e| {
        if relevance(e, m) == Ordering::Greater {
            e
        } else {
            m
        }
    })?;
    while !best.context.is_empty() {
        let mut sorted: Vec<&Fault<'s>> = best.context.iter().collect();
        // `heapq.nsmallest(2, ...)`: stable, least relevant first.
        sorted.sort_by(|a, b| relevance(a, b));
        match sorted.as_slice() {
            [a, b, ..] if relevance(a, b) == Ordering::Equal => return Some(best.clone()),
            [a, ..] => best = a,
            [] => break,
        }
    }
    Some(best.clone())
}

/// cloud-init 25.1's `cloud_init_deepest_matches`: the failing alternatives' errors at
/// the deepest path; for a mapping with a `type` key, those about `type`.
fn deepest_matches<'s>(errors: Vec<Fault<'s>>, instance: &Node, base: usize) -> Vec<Fault<'s>> {
    let type_key = match instance.value() {
        Value::Map(m) => m.get_str("type").cloned(),
        _ => None,
    };
    let mut best = Vec::new();
    let mut depth = 0;
    for e in errors {
        let rel = e.path.len().saturating_sub(base);
        if let Some(t) = &type_key {
            let named = e
                .schema
                .get("properties")
                .and_then(|p| p.get("type"))
                .and_then(|t| t.get("enum"))
                .and_then(J::as_array)
                .is_some_and(|opts| as_json(t).is_some_and(|v| opts.iter().any(|o| same(o, &v))));
            if named {
                return vec![e];
            }
            // `error.json_path[-4:] == "type"`: the path ends in "type".
            let json_path_ends_in_type = match e.path.last() {
                Some(Seg::Key(k)) if e.path.len() > base => {
                    py_str(k).to_string_lossy().ends_with("type")
                }
                _ => false,
            };
            if json_path_ends_in_type {
                best.push(e);
            }
        } else if rel == depth {
            best.push(e);
        } else if rel > depth {
            depth = rel;
            best = vec![e];
        }
    }
    best
}

impl JsonSchema {
    /// Parse the schema's JSON text.
    pub fn parse(text: &str) -> Result<JsonSchema, SchemaError> {
        let root: J =
            serde_json::from_str(text).map_err(|e| SchemaError::NotJson(e.to_string()))?;
        JsonSchema::from_value(root)
    }

    /// cloud-init's schema of `release`, from cloudfold's own copy of its facts
    /// (`SchemaFacts`): no installed cloud-init needed.
    pub fn builtin(release: Release) -> Result<JsonSchema, SchemaError> {
        Ok(JsonSchema::from_value(SchemaFacts::of(release).to_json()?)?.for_release(release))
    }

    /// A schema already read as JSON (checked as 25.1 checks; see [`Self::for_release`]).
    pub fn from_value(root: J) -> Result<JsonSchema, SchemaError> {
        if !root.is_object() {
            return Err(SchemaError::NotAnObject);
        }
        let mut regexes = HashMap::new();
        collect_patterns(&root, &mut regexes);
        Ok(JsonSchema {
            root,
            regexes,
            release: Release::default(),
        })
    }

    /// Check as `release`'s cloud-init does (its `oneOf`/`anyOf` reports and
    /// deprecation messages differ).
    pub fn for_release(mut self, release: Release) -> JsonSchema {
        self.release = release;
        self
    }

    /// Every violation and deprecation in `config`, in cloud-init's order (by path).
    pub fn check(&self, config: &Node) -> Vec<SchemaIssue> {
        let mut faults = self.iter_errors(config, &self.root, &mut Vec::new(), 0);
        // cloud-init: `sorted(validator.iter_errors(config), key=lambda e: e.path)`.
        faults.sort_by(|a, b| cmp_path(&a.path, &b.path));
        let mut seen = std::collections::HashSet::new();
        let issues = faults.into_iter().map(|f| {
            let mut cloud_init_path = f.flat_path();
            // cloud-init names an unexpected top-level key (when it is the only one).
            if f.path.is_empty()
                && f.keyword == "additionalProperties"
                && std::ptr::eq(f.schema, &self.root)
                && let Some(name) = f
                    .message
                    .strip_suffix("' was unexpected)")
                    .and_then(|m| m.rsplit_once("('"))
                    .map(|(_, n)| n.to_owned())
            {
                cloud_init_path = name;
            }
            SchemaIssue {
                path: f.path_string(),
                cloud_init_path,
                node: f.at,
                message: f.message,
                deprecated: f.deprecated,
                notes: f.notes,
            }
        });
        // 25.1's SchemaValidationError keeps each (path, message) once (the same key
        // checked by two modules fails twice); 22.4's keeps them all.
        if self.release == Release::V22_4 {
            return issues.collect();
        }
        issues
            .filter(|i| seen.insert((i.deprecated, i.cloud_init_path.clone(), i.message.clone())))
            .collect()
    }

    fn resolve<'s>(&'s self, reference: &str) -> Option<&'s J> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    /// Python's `re.search(pattern, s)`; a pattern outside the subset is not checked.
    fn search(&self, pattern: &str, s: &str) -> bool {
        match self.regexes.get(pattern) {
            Some(Some(re)) => re.is_match(s),
            Some(None) => true,
            None => MiniRegex::new(pattern).is_none_or(|re| re.is_match(s)),
        }
    }

    fn is_valid(&self, node: &Node, schema: &J, path: &[Seg], depth: usize) -> bool {
        self.iter_errors(node, schema, &mut path.to_vec(), depth)
            .iter()
            .all(|f| f.deprecated)
    }

    /// A fault; a message over [`MAX_MESSAGE`] bytes (the repr of a huge value) is cut.
    fn fault<'s>(
        &'s self,
        node: &Node,
        path: &[Seg],
        schema: &'s J,
        keyword: &'s str,
        message: String,
    ) -> Fault<'s> {
        let message = if message.len() > MAX_MESSAGE {
            let mut cut = MAX_MESSAGE;
            while !message.is_char_boundary(cut) {
                cut -= 1;
            }
            format!(
                "{}... ({} characters in all)",
                message.get(..cut).unwrap_or_default(),
                message.chars().count()
            )
        } else {
            message
        };
        Fault {
            path: path.to_vec(),
            instance: node.clone(),
            schema,
            keyword,
            message,
            deprecated: false,
            context: Vec::new(),
            at: node.clone(),
            notes: Vec::new(),
        }
    }

    /// jsonschema's `iter_errors`: each keyword of `schema` in order.
    fn iter_errors<'s>(
        &'s self,
        node: &Node,
        schema: &'s J,
        path: &mut Vec<Seg>,
        depth: usize,
    ) -> Vec<Fault<'s>> {
        let mut out = Vec::new();
        let Some(s) = schema.as_object() else {
            return out;
        };
        if depth > MAX_DEPTH {
            return out;
        }
        // cloud-init's validator is jsonschema's `create()` with its default
        // `applicable_validators`: a `$ref`'s siblings count (Draft 4 would ignore them).
        for (keyword, value) in s {
            self.keyword(node, schema, keyword, value, path, depth, &mut out);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn keyword<'s>(
        &'s self,
        node: &Node,
        schema: &'s J,
        keyword: &'s str,
        value: &'s J,
        path: &mut Vec<Seg>,
        depth: usize,
        out: &mut Vec<Fault<'s>>,
    ) {
        let repr = || py_repr(node);
        let mut err = |message: String| out.push(self.fault(node, path, schema, keyword, message));
        match keyword {
            "deprecated" | "changed" => {
                let legacy = self.release == Release::V22_4;
                if value != &J::Bool(true) || (legacy && keyword == "changed") {
                    return;
                }
                let field = |f: &str| schema.get(format!("{keyword}_{f}")).and_then(J::as_str);
                let description = schema.get("description").and_then(J::as_str);
                let message = if legacy {
                    match description {
                        Some(d) if !d.is_empty() => format!("DEPRECATED: {d}"),
                        _ => "DEPRECATED.".to_owned(),
                    }
                } else {
                    let word = if keyword == "changed" {
                        "Changed"
                    } else {
                        "Deprecated"
                    };
                    let version = field("version").map(str::to_owned).unwrap_or_else(|| {
                        format!("<missing {keyword}_version key, please file a bug report>")
                    });
                    format!(
                        "{}{}",
                        description.unwrap_or(""),
                        format_args!(
                            " {word} in version {version}. {}",
                            field("description").unwrap_or("")
                        )
                    )
                    .trim_end()
                    .to_owned()
                };
                let mut f = self.fault(node, path, schema, keyword, message);
                f.deprecated = true;
                out.push(f);
            }
            "type" => {
                let types: Vec<&str> = match value {
                    J::String(t) => vec![t.as_str()],
                    J::Array(ts) => ts.iter().filter_map(J::as_str).collect(),
                    _ => return,
                };
                if !types.iter().any(|t| type_ok(node, t)) {
                    let want: Vec<String> = types.iter().map(|t| format!("'{t}'")).collect();
                    err(format!("{} is not of type {}", repr(), want.join(", ")));
                }
            }
            "enum" => {
                if let J::Array(options) = value
                    && let Some(v) = as_json(node)
                    && !options.iter().any(|o| same(o, &v))
                {
                    err(format!("{} is not one of {}", repr(), py_repr_json(value)));
                }
            }
            "pattern" => {
                if let (Value::Str(text), Some(p)) = (node.value(), value.as_str())
                    && !self.search(p, &text.to_string_lossy())
                {
                    err(format!("{} does not match {}", repr(), py_repr_json(value)));
                }
            }
            "format" => {
                if value.as_str() == Some("date")
                    && let Value::Str(text) = node.value()
                    && !is_date(&text.to_string_lossy())
                {
                    err(format!("{} is not a 'date'", repr()));
                }
            }
            "minimum" | "maximum" => {
                if let (Some(v), Some(limit)) = (number(node), value.as_f64()) {
                    let exclusive = schema.get(if keyword == "minimum" {
                        "exclusiveMinimum"
                    } else {
                        "exclusiveMaximum"
                    }) == Some(&J::Bool(true));
                    let (failed, cmp) = match (keyword, exclusive) {
                        ("minimum", false) => (v < limit, "less than"),
                        ("minimum", true) => (v <= limit, "less than or equal to"),
                        (_, false) => (v > limit, "greater than"),
                        (_, true) => (v >= limit, "greater than or equal to"),
                    };
                    if failed {
                        err(format!(
                            "{} is {cmp} the {keyword} of {}",
                            repr(),
                            py_repr_json(value)
                        ));
                    }
                }
            }
            "minItems" | "maxItems" => {
                if let (Value::Seq(items), Some(n)) = (node.value(), value.as_u64()) {
                    let len = items.items().len() as u64;
                    // Debian's jsonschema (4.10, 4.19): 4.21's "should be non-empty"
                    // and "is expected to be empty" are not theirs.
                    let message = match keyword {
                        "minItems" if len < n => Some("is too short"),
                        "maxItems" if len > n => Some("is too long"),
                        _ => None,
                    };
                    if let Some(m) = message {
                        err(format!("{} {m}", repr()));
                    }
                }
            }
            "minProperties" | "maxProperties" => {
                if let (Value::Map(m), Some(n)) = (node.value(), value.as_u64()) {
                    let len = m.len() as u64;
                    let message = match keyword {
                        "minProperties" if len < n => Some("does not have enough properties"),
                        "maxProperties" if len > n => Some("has too many properties"),
                        _ => None,
                    };
                    if let Some(msg) = message {
                        err(format!("{} {msg}", repr()));
                    }
                }
            }
            "uniqueItems" => {
                if value == &J::Bool(true)
                    && let Value::Seq(items) = node.value()
                {
                    let mut seen: Vec<J> = Vec::new();
                    for i in items.items().iter().take(10_000) {
                        let Some(v) = as_json(i) else { continue };
                        if seen.iter().any(|s| same(s, &v)) {
                            err(format!("{} has non-unique elements", repr()));
                            break;
                        }
                        seen.push(v);
                    }
                }
            }
            "required" => {
                if let (Value::Map(m), J::Array(req)) = (node.value(), value) {
                    for r in req.iter().filter_map(J::as_str) {
                        if m.get_str(r).is_none() {
                            err(format!(
                                "{} is a required property",
                                py_repr_json(&J::String(r.to_owned()))
                            ));
                        }
                    }
                }
            }
            "properties" => {
                if let (Value::Map(m), J::Object(props)) = (node.value(), value) {
                    for (name, sub) in props {
                        if let Some((k, v)) =
                            m.iter().find(|(k, _)| k.as_str() == Some(name.as_str()))
                        {
                            path.push(Seg::Key(k.clone()));
                            out.extend(self.iter_errors(v, sub, path, depth + 1));
                            path.pop();
                        }
                    }
                }
            }
            "patternProperties" => {
                if let (Value::Map(m), J::Object(pp)) = (node.value(), value) {
                    for (pattern, sub) in pp {
                        for (k, v) in m.iter() {
                            if k.as_str().is_some_and(|name| self.search(pattern, name)) {
                                path.push(Seg::Key(k.clone()));
                                out.extend(self.iter_errors(v, sub, path, depth + 1));
                                path.pop();
                            }
                        }
                    }
                }
            }
            "additionalProperties" => {
                let Value::Map(m) = node.value() else { return };
                let props = schema.get("properties").and_then(J::as_object);
                let patterns = schema.get("patternProperties").and_then(J::as_object);
                let joined = patterns.map(|p| p.keys().cloned().collect::<Vec<_>>().join("|"));
                let extras: Vec<(&Node, &Node)> = m
                    .iter()
                    .filter(|(k, _)| {
                        let known = k
                            .as_str()
                            .is_some_and(|n| props.is_some_and(|p| p.contains_key(n)));
                        let patterned = match (&joined, k.as_str()) {
                            (Some(j), Some(n)) if !j.is_empty() => self.search(j, n),
                            _ => false,
                        };
                        !known && !patterned
                    })
                    .collect();
                match value {
                    J::Object(_) => {
                        for (k, v) in extras {
                            path.push(Seg::Key(k.clone()));
                            out.extend(self.iter_errors(v, value, path, depth + 1));
                            path.pop();
                        }
                    }
                    J::Bool(false) if !extras.is_empty() => {
                        let mut keys: Vec<&Node> = extras.iter().map(|(k, _)| *k).collect();
                        let message = if let Some(pp) = patterns {
                            keys.sort_by(|a, b| py_str(a).chars().cmp(py_str(b).chars()));
                            let mut pats: Vec<&String> = pp.keys().collect();
                            pats.sort_by(|a, b| a.chars().cmp(b.chars()));
                            format!(
                                "{} {} not match any of the regexes: {}",
                                keys.iter()
                                    .map(|k| py_repr(k))
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                if keys.len() == 1 { "does" } else { "do" },
                                pats.iter()
                                    .map(|p| py_repr_json(&J::String((*p).clone())))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        } else {
                            // `sorted(extras, key=str)`
                            keys.sort_by(|a, b| py_str(a).chars().cmp(py_str(b).chars()));
                            format!(
                                "Additional properties are not allowed ({} {} unexpected)",
                                keys.iter()
                                    .map(|k| py_repr(k))
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                if keys.len() == 1 { "was" } else { "were" }
                            )
                        };
                        let mut f = self.fault(node, path, schema, keyword, message);
                        if let Some(first) = extras.first() {
                            f.at = first.0.clone();
                        }
                        if let ([(k, _)], Some(props)) = (extras.as_slice(), props)
                            && let Some(name) = k.as_str()
                        {
                            let known: Vec<&str> = props.keys().map(String::as_str).collect();
                            if let Some(s) = crate::validate::did_you_mean(name, &known) {
                                f.notes.push(format!("did you mean `{s}`?"));
                            }
                        }
                        out.push(f);
                    }
                    _ => {}
                }
            }
            "items" => {
                let Value::Seq(items) = node.value() else {
                    return;
                };
                match value {
                    J::Object(_) => {
                        for (i, it) in items.items().iter().enumerate() {
                            path.push(Seg::Index(i));
                            out.extend(self.iter_errors(it, value, path, depth + 1));
                            path.pop();
                        }
                    }
                    J::Array(positional) => {
                        for (i, (it, sub)) in items.items().iter().zip(positional).enumerate() {
                            path.push(Seg::Index(i));
                            out.extend(self.iter_errors(it, sub, path, depth + 1));
                            path.pop();
                        }
                    }
                    _ => {}
                }
            }
            "additionalItems" => {
                let Value::Seq(items) = node.value() else {
                    return;
                };
                let Some(J::Array(positional)) = schema.get("items") else {
                    return;
                };
                let items = items.items();
                let rest = items.get(positional.len()..).unwrap_or(&[]);
                match value {
                    J::Object(_) => {
                        for (i, it) in rest.iter().enumerate() {
                            path.push(Seg::Index(positional.len() + i));
                            out.extend(self.iter_errors(it, value, path, depth + 1));
                            path.pop();
                        }
                    }
                    J::Bool(false) if !rest.is_empty() => {
                        err(format!(
                            "Additional items are not allowed ({} {} unexpected)",
                            rest.iter().map(py_repr).collect::<Vec<_>>().join(", "),
                            if rest.len() == 1 { "was" } else { "were" }
                        ));
                    }
                    _ => {}
                }
            }
            "$ref" => {
                if let Some(target) = value.as_str().and_then(|r| self.resolve(r)) {
                    out.extend(self.iter_errors(node, target, path, depth + 1));
                }
            }
            "allOf" => {
                if let J::Array(all) = value {
                    for sub in all {
                        out.extend(self.iter_errors(node, sub, path, depth + 1));
                    }
                }
            }
            "not" if self.is_valid(node, value, path, depth + 1) => {
                let message = format!(
                    "{} should not be valid under {}",
                    repr(),
                    py_repr_json(value)
                );
                out.push(self.fault(node, path, schema, keyword, message));
            }
            "oneOf" | "anyOf" => {
                if let J::Array(alts) = value {
                    self.alternatives(node, schema, keyword, alts, path, depth, out);
                }
            }
            _ => {}
        }
    }

    /// cloud-init's `_oneOf` / `_anyOf` of this release.
    #[allow(clippy::too_many_arguments)]
    fn alternatives<'s>(
        &'s self,
        node: &Node,
        schema: &'s J,
        keyword: &'s str,
        alts: &'s [J],
        path: &mut Vec<Seg>,
        depth: usize,
        out: &mut Vec<Fault<'s>>,
    ) {
        let mut all_errors = Vec::new();
        let mut first_valid = None;
        for (i, sub) in alts.iter().enumerate() {
            let (deps, errs): (Vec<Fault<'s>>, Vec<Fault<'s>>) = self
                .iter_errors(node, sub, path, depth + 1)
                .into_iter()
                .partition(|f| f.deprecated);
            if errs.is_empty() {
                first_valid = Some((i, deps));
                break;
            }
            all_errors.extend(errs);
        }
        let generic = |ctx: Vec<Fault<'s>>| {
            let mut f = self.fault(
                node,
                path,
                schema,
                keyword,
                format!(
                    "{} is not valid under any of the given schemas",
                    py_repr(node)
                ),
            );
            f.context = ctx;
            f
        };
        let Some((index, deps)) = first_valid else {
            match (self.release, keyword) {
                (Release::V22_4, _) => out.push(generic(all_errors)),
                (_, "oneOf") => out.extend(deepest_matches(all_errors, node, path.len())),
                _ => {
                    if let Some(best) = best_match(&all_errors) {
                        out.push(best);
                    }
                    out.push(generic(all_errors));
                }
            }
            return;
        };
        if keyword == "oneOf" {
            let more: Vec<&J> = alts
                .iter()
                .skip(index + 1)
                .filter(|s| self.is_valid(node, s, path, depth + 1))
                .collect();
            if !more.is_empty() {
                let mut reprs: Vec<String> = more.iter().map(|s| py_repr_json(s)).collect();
                if let Some(first) = alts.get(index) {
                    reprs.push(py_repr_json(first));
                }
                out.push(self.fault(
                    node,
                    path,
                    schema,
                    keyword,
                    format!(
                        "{} is valid under each of {}",
                        py_repr(node),
                        reprs.join(", ")
                    ),
                ));
                return;
            }
        }
        out.extend(deps);
    }
}
