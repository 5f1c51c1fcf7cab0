//! `JsonSchema` and `SchemaIssue`: cloud-init's JSON schema (the draft-4 subset it uses) checked against a merged config, value by value, spans kept.

use super::MiniRegex;
use crate::merge::PathSeg;
use crate::yaml::Node;
use crate::yaml::typed_json::{WalkLimits, canonical, to_typed_json};
use crate::yaml::value::Value;
use serde_json::Value as J;
use std::collections::HashMap;

/// A parsed schema (`schema-cloud-config-v1.json`).
///
/// Supported: `type`, `enum`, `properties`, `patternProperties`,
/// `additionalProperties`, `items` (schema or list) and `additionalItems`,
/// `oneOf`/`anyOf`/`allOf`, `$ref` (local JSON pointers), `pattern`, `minItems`,
/// `maxItems`, `uniqueItems`, `required`, `minProperties`, `minimum`, and
/// cloud-init's `deprecated` and `changed` (with their `_version` / `_description`).
/// `format` is not checked (cloud-init does not either). Types follow Python's
/// draft-4 checker: `integer` excludes booleans and floats, `array` is a list only.
#[derive(Debug, Clone)]
pub struct JsonSchema {
    root: J,
    regexes: HashMap<String, Option<MiniRegex>>,
}

/// One problem found: at which value, what.
#[derive(Debug, Clone)]
pub struct SchemaIssue {
    /// The logical path (`$.users[0].name`).
    pub path: String,
    /// The offending value (its span says which part and line supplied it).
    pub node: Node,
    /// What is wrong.
    pub message: String,
    /// A deprecation (cloud-init warns), not a violation.
    pub deprecated: bool,
    /// More detail (why each alternative of a `oneOf` failed).
    pub notes: Vec<String>,
}

#[derive(Default)]
struct Found {
    errors: Vec<SchemaIssue>,
    deprecations: Vec<SchemaIssue>,
}

const MAX_DEPTH: usize = 256;

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
                }
                collect_patterns(x, out);
            }
        }
        J::Array(a) => a.iter().for_each(|x| collect_patterns(x, out)),
        _ => {}
    }
}

fn short(node: &Node) -> String {
    let r = crate::yaml::value::py_repr(node);
    if r.chars().count() > 60 {
        let cut: String = r.chars().take(57).collect();
        format!("{cut}...")
    } else {
        r
    }
}

fn type_ok(node: &Node, t: &str) -> bool {
    matches!(
        (t, node.value()),
        ("object", Value::Map(_))
            | ("array", Value::Seq(_))
            | ("string", Value::Str(_))
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

fn same(a: &J, b: &J) -> bool {
    match (a, b) {
        (J::Number(x), J::Number(y)) => x.as_f64() == y.as_f64(),
        _ => canonical(a) == canonical(b),
    }
}

impl JsonSchema {
    /// Parse the schema's JSON text.
    pub fn parse(text: &str) -> Result<JsonSchema, String> {
        let root: J = serde_json::from_str(text).map_err(|e| format!("not a JSON schema: {e}"))?;
        if !root.is_object() {
            return Err("not a JSON schema: the document is not an object".into());
        }
        let mut regexes = HashMap::new();
        collect_patterns(&root, &mut regexes);
        Ok(JsonSchema { root, regexes })
    }

    /// Every violation and deprecation in `config`, in document order of the schema walk.
    pub fn check(&self, config: &Node) -> Vec<SchemaIssue> {
        let mut found = Found::default();
        self.eval(config, &self.root, "$", 0, &mut found);
        let mut all = found.errors;
        all.extend(found.deprecations);
        all
    }

    fn resolve<'a>(&'a self, reference: &str) -> Option<&'a J> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    fn matches(&self, pattern: &str, s: &str) -> bool {
        match self.regexes.get(pattern) {
            Some(Some(re)) => re.is_match(s),
            // Outside the subset: not checked.
            _ => true,
        }
    }

    fn eval(&self, node: &Node, schema: &J, path: &str, depth: usize, out: &mut Found) {
        let Some(s) = schema.as_object() else {
            return;
        };
        if depth > MAX_DEPTH {
            return;
        }
        let err = |out: &mut Found, node: &Node, path: &str, message: String| {
            out.errors.push(SchemaIssue {
                path: path.to_owned(),
                node: node.clone(),
                message,
                deprecated: false,
                notes: Vec::new(),
            });
        };
        if let Some(r) = s.get("$ref").and_then(J::as_str) {
            // Draft 4: `$ref` replaces the schema it sits in.
            if let Some(target) = self.resolve(r) {
                self.eval(node, target, path, depth + 1, out);
            }
            return;
        }
        // cloud-init reports `deprecated` and `changed` schemas a value matches alike.
        for (flag, word) in [("deprecated", "Deprecated"), ("changed", "Changed")] {
            if s.get(flag) != Some(&J::Bool(true)) {
                continue;
            }
            let field = |f: &str| s.get(&format!("{flag}_{f}")).and_then(J::as_str);
            let version = field("version").unwrap_or("?");
            let why = field("description").unwrap_or("");
            out.deprecations.push(SchemaIssue {
                path: path.to_owned(),
                node: node.clone(),
                message: format!("{word} in version {version}. {why}")
                    .trim_end()
                    .to_owned(),
                deprecated: true,
                notes: Vec::new(),
            });
        }
        if let Some(t) = s.get("type") {
            let ok = match t {
                J::String(t) => type_ok(node, t),
                J::Array(ts) => ts.iter().filter_map(J::as_str).any(|t| type_ok(node, t)),
                _ => true,
            };
            if !ok {
                let want = match t {
                    J::String(t) => format!("'{t}'"),
                    J::Array(ts) => ts
                        .iter()
                        .filter_map(J::as_str)
                        .map(|t| format!("'{t}'"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    _ => String::new(),
                };
                err(
                    out,
                    node,
                    path,
                    format!("{} is not of type {want}", short(node)),
                );
                return;
            }
        }
        if let Some(J::Array(options)) = s.get("enum")
            && let Some(v) = as_json(node)
            && !options.iter().any(|o| same(o, &v))
        {
            let list: Vec<String> = options.iter().map(J::to_string).collect();
            err(
                out,
                node,
                path,
                format!("{} is not one of [{}]", short(node), list.join(", ")),
            );
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            let Some(J::Array(branches)) = s.get(key) else {
                continue;
            };
            let results: Vec<Found> = branches
                .iter()
                .map(|b| {
                    let mut f = Found::default();
                    self.eval(node, b, path, depth + 1, &mut f);
                    f
                })
                .collect();
            let valid: Vec<&Found> = results.iter().filter(|f| f.errors.is_empty()).collect();
            match key {
                "allOf" => {
                    for f in results {
                        out.errors.extend(f.errors);
                        out.deprecations.extend(f.deprecations);
                    }
                }
                _ if valid.is_empty() => {
                    // Like jsonschema's best_match: when only one alternative got past
                    // its type check, its own errors say what is wrong.
                    let typed: Vec<&Found> = results
                        .iter()
                        .filter(|f| {
                            !f.errors.iter().all(|e| {
                                e.path == path
                                    && (e.message.contains(" is not of type ")
                                        || e.message.contains(" is not one of "))
                            })
                        })
                        .collect();
                    if let [only] = typed.as_slice() {
                        out.errors.extend(only.errors.iter().cloned());
                        continue;
                    }
                    let notes = results
                        .iter()
                        .filter_map(|f| f.errors.first())
                        .take(4)
                        .map(|e| format!("{}: {}", e.path, e.message))
                        .collect();
                    out.errors.push(SchemaIssue {
                        path: path.to_owned(),
                        node: node.clone(),
                        message: format!(
                            "{} is not valid under any of the given schemas",
                            short(node)
                        ),
                        deprecated: false,
                        notes,
                    });
                }
                "oneOf" if valid.len() > 1 => {
                    err(
                        out,
                        node,
                        path,
                        format!(
                            "{} is valid under each of several schemas (oneOf)",
                            short(node)
                        ),
                    );
                }
                _ => {
                    if let Some(first) = valid.first() {
                        out.deprecations.extend(first.deprecations.iter().cloned());
                    }
                }
            }
        }
        match node.value() {
            Value::Str(text) => {
                if let Some(p) = s.get("pattern").and_then(J::as_str)
                    && !self.matches(p, &text.to_string_lossy())
                {
                    err(
                        out,
                        node,
                        path,
                        format!("{} does not match '{p}'", short(node)),
                    );
                }
            }
            Value::Int(_) | Value::Float(_) => {
                if let Some(min) = s.get("minimum").and_then(J::as_f64)
                    && let Some(v) = as_json(node).and_then(|j| j.as_f64())
                    && v < min
                {
                    err(
                        out,
                        node,
                        path,
                        format!("{} is less than the minimum of {min}", short(node)),
                    );
                }
            }
            Value::Seq(items) => self.eval_array(node, items.items(), s, path, depth, out),
            Value::Map(map) => {
                if let Some(J::Array(req)) = s.get("required") {
                    for r in req.iter().filter_map(J::as_str) {
                        if map.get_str(r).is_none() {
                            err(out, node, path, format!("'{r}' is a required property"));
                        }
                    }
                }
                if let Some(min) = s.get("minProperties").and_then(J::as_u64)
                    && (map.len() as u64) < min
                {
                    err(
                        out,
                        node,
                        path,
                        format!("{} does not have enough properties", short(node)),
                    );
                }
                let props = s.get("properties").and_then(J::as_object);
                let patterns = s.get("patternProperties").and_then(J::as_object);
                let additional = s.get("additionalProperties");
                for (k, v) in map.iter() {
                    let child = format!("{path}{}", PathSeg::Key(k.clone()));
                    let name = k.as_str();
                    let mut covered = false;
                    if let (Some(props), Some(name)) = (props, name)
                        && let Some(sub) = props.get(name)
                    {
                        covered = true;
                        self.eval(v, sub, &child, depth + 1, out);
                    }
                    if let (Some(patterns), Some(name)) = (patterns, name) {
                        for (p, sub) in patterns {
                            if self.matches(p, name) {
                                covered = true;
                                self.eval(v, sub, &child, depth + 1, out);
                            }
                        }
                    }
                    if covered {
                        continue;
                    }
                    match additional {
                        Some(J::Bool(false)) => {
                            let known: Vec<&str> = props
                                .map(|p| p.keys().map(String::as_str).collect())
                                .unwrap_or_default();
                            out.errors.push(SchemaIssue {
                                path: child.clone(),
                                node: k.clone(),
                                message: format!(
                                    "Additional properties are not allowed ({} was unexpected)",
                                    short(k)
                                ),
                                deprecated: false,
                                notes: name
                                    .and_then(|n| crate::validate::did_you_mean(n, &known))
                                    .map(|s| vec![format!("did you mean `{s}`?")])
                                    .unwrap_or_default(),
                            });
                        }
                        Some(sub @ J::Object(_)) => self.eval(v, sub, &child, depth + 1, out),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    fn eval_array(
        &self,
        node: &Node,
        items: &[Node],
        s: &serde_json::Map<String, J>,
        path: &str,
        depth: usize,
        out: &mut Found,
    ) {
        let push = |out: &mut Found, message: String| {
            out.errors.push(SchemaIssue {
                path: path.to_owned(),
                node: node.clone(),
                message,
                deprecated: false,
                notes: Vec::new(),
            });
        };
        if let Some(min) = s.get("minItems").and_then(J::as_u64)
            && (items.len() as u64) < min
        {
            push(
                out,
                format!(
                    "{} is too short (at least {min} item{})",
                    short(node),
                    if min == 1 { "" } else { "s" }
                ),
            );
        }
        if let Some(max) = s.get("maxItems").and_then(J::as_u64)
            && (items.len() as u64) > max
        {
            push(out, format!("{} is too long (at most {max})", short(node)));
        }
        if s.get("uniqueItems") == Some(&J::Bool(true)) {
            let mut seen: Vec<String> = Vec::new();
            for i in items.iter().take(10_000) {
                let c = as_json(i).map(|j| canonical(&j)).unwrap_or_default();
                if seen.contains(&c) {
                    push(out, format!("{} has non-unique elements", short(node)));
                    break;
                }
                seen.push(c);
            }
        }
        let child = |i: usize| format!("{path}{}", PathSeg::Index(i));
        match s.get("items") {
            Some(sub @ J::Object(_)) => {
                for (i, it) in items.iter().enumerate() {
                    self.eval(it, sub, &child(i), depth + 1, out);
                }
            }
            Some(J::Array(positional)) => {
                for (i, it) in items.iter().enumerate() {
                    match positional.get(i) {
                        Some(sub) => self.eval(it, sub, &child(i), depth + 1, out),
                        None => match s.get("additionalItems") {
                            Some(J::Bool(false)) => {
                                push(
                                    out,
                                    format!("Additional items are not allowed in {}", short(node)),
                                );
                                break;
                            }
                            Some(sub @ J::Object(_)) => {
                                self.eval(it, sub, &child(i), depth + 1, out)
                            }
                            _ => {}
                        },
                    }
                }
            }
            _ => {}
        }
    }
}
