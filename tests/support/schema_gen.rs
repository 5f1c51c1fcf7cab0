//! Cloud-configs generated from cloud-init's schema (cloudfold's facts of it): mostly
//! valid values for many keys, then broken the ways people break them (wrong types,
//! values outside an enum or pattern, unknown and deprecated keys, missing required
//! keys, too few items, bad dates), for differentials against cloud-init's validator.

use super::rng::Rng;
use cloudfold::validate::MiniRegex;
use serde_json::{Map, Value as J, json};

/// Strings that match (or miss) the schema's patterns and formats.
const STRINGS: &[&str] = &[
    "512M",
    "1.5G",
    "2T",
    "x",
    "a:b",
    "ab,cd",
    "+5",
    "5",
    "now",
    "rsa_public",
    "ed25519_private",
    "ecdsa_certificate",
    "key_1",
    "main",
    "a b",
    "",
    "2024-02-29",
    "2023-02-29",
    "2024-13-01",
    "https://example.com/x",
    "not a uri",
    "host.example.com",
    "-bad-",
    "root",
    "ALL=(ALL) NOPASSWD:ALL",
    "/dev/sda",
    "auto",
    "off",
    "true",
    "yes",
    "0644",
    "ssh-ed25519 AAAA user",
    "éè",
    "12",
];

/// Keys cloud-init's merging consumes before validation: never generated.
const SKIP_KEYS: &[&str] = &["merge_how", "merge_type"];

pub(crate) struct SchemaGen<'a> {
    root: &'a J,
    /// The root flattened once (its `allOf` of every module's keys: no random choice).
    root_flat: Map<String, J>,
    pub r: Rng,
}

impl<'a> SchemaGen<'a> {
    pub(crate) fn new(root: &'a J, seed: u64) -> SchemaGen<'a> {
        let mut g = SchemaGen {
            root,
            root_flat: Map::new(),
            r: Rng::new(seed),
        };
        g.root_flat = g.flatten(root, 0);
        g
    }

    /// A config: a mapping of some of the schema's top-level keys.
    pub(crate) fn config(&mut self) -> J {
        let node = std::mem::take(&mut self.root_flat);
        let config = self.object(&node, 0);
        self.root_flat = node;
        config
    }

    fn resolve(&self, s: &J) -> J {
        let mut s = s;
        for _ in 0..16 {
            match s.get("$ref").and_then(J::as_str) {
                Some(r) => match r.strip_prefix('#').and_then(|p| self.root.pointer(p)) {
                    Some(t) => s = t,
                    None => break,
                },
                None => break,
            }
        }
        s.clone()
    }

    /// The node's keywords with one `oneOf`/`anyOf` branch and every `allOf` member
    /// folded in (properties merged), `$ref`s followed.
    fn flatten(&mut self, s: &J, depth: usize) -> Map<String, J> {
        let s = self.resolve(s);
        let mut out = Map::new();
        let Some(o) = s.as_object() else { return out };
        for (k, v) in o {
            if !matches!(k.as_str(), "oneOf" | "anyOf" | "allOf" | "$ref") {
                out.insert(k.clone(), v.clone());
            }
        }
        let mut parts: Vec<J> = Vec::new();
        if let Some(J::Array(all)) = o.get("allOf") {
            parts.extend(all.iter().cloned());
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(J::Array(alts)) = o.get(key)
                && !alts.is_empty()
            {
                parts.push(alts[self.r.below(alts.len())].clone());
            }
        }
        if depth < 8 {
            for p in parts {
                let sub = self.flatten(&p, depth + 1);
                merge_into(&mut out, sub);
            }
        }
        out
    }

    /// A value for schema `s`, valid when nothing goes wrong by chance.
    pub(crate) fn value(&mut self, s: &J, depth: usize) -> J {
        let node = self.flatten(s, 0);
        if let Some(J::Array(e)) = node.get("enum")
            && !e.is_empty()
        {
            return e[self.r.below(e.len())].clone();
        }
        let ty = match node.get("type") {
            Some(J::String(t)) => t.clone(),
            Some(J::Array(ts)) if !ts.is_empty() => ts[self.r.below(ts.len())]
                .as_str()
                .unwrap_or("string")
                .to_owned(),
            _ if node.contains_key("properties") || node.contains_key("patternProperties") => {
                "object".into()
            }
            _ if node.contains_key("items") => "array".into(),
            _ => ["string", "integer", "boolean", "object", "array"][self.r.below(5)].into(),
        };
        if depth > 6 {
            return self.scalar(&ty, &node);
        }
        match ty.as_str() {
            "object" => self.object(&node, depth),
            "array" => {
                let min = node.get("minItems").and_then(J::as_u64).unwrap_or(0) as usize;
                let max = node.get("maxItems").and_then(J::as_u64).map(|m| m as usize);
                let mut n = min + self.r.below(3);
                if let Some(m) = max {
                    n = n.min(m);
                }
                let items = node.get("items").cloned();
                let mut out = Vec::new();
                for i in 0..n {
                    let v = match &items {
                        Some(J::Array(tuple)) => match tuple.get(i) {
                            Some(t) => self.value(t, depth + 1),
                            None => json!("extra"),
                        },
                        Some(one @ J::Object(_)) => self.value(one, depth + 1),
                        _ => self.scalar("string", &Map::new()),
                    };
                    out.push(v);
                }
                if node.get("uniqueItems") == Some(&J::Bool(true)) {
                    let mut seen = Vec::new();
                    out.retain(|v| {
                        let k = v.to_string();
                        let fresh = !seen.contains(&k);
                        seen.push(k);
                        fresh
                    });
                }
                J::Array(out)
            }
            t => self.scalar(t, &node),
        }
    }

    fn object(&mut self, node: &Map<String, J>, depth: usize) -> J {
        let mut out = Map::new();
        let required: Vec<String> = node
            .get("required")
            .and_then(J::as_array)
            .map(|a| a.iter().filter_map(J::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let props: Vec<(&String, &J)> = node
            .get("properties")
            .and_then(J::as_object)
            .map(|p| p.iter().collect())
            .unwrap_or_default();
        let want = if depth == 0 {
            1 + self.r.below(6)
        } else {
            self.r.below(4)
        };
        let mut keys: Vec<usize> = Vec::new();
        for _ in 0..want {
            if !props.is_empty() {
                keys.push(self.r.below(props.len()));
            }
        }
        for (i, (k, _)) in props.iter().enumerate() {
            if required.contains(*k) && !keys.contains(&i) {
                keys.push(i);
            }
        }
        keys.sort_unstable();
        keys.dedup();
        for i in keys {
            let (k, s) = props[i];
            if SKIP_KEYS.contains(&k.as_str()) {
                continue;
            }
            let v = self.value(s, depth + 1);
            out.insert(k.clone(), v);
        }
        if let Some(J::Object(pp)) = node.get("patternProperties")
            && !pp.is_empty()
            && (out.is_empty() || self.r.chance(40))
        {
            let (pat, s) = pp.iter().nth(self.r.below(pp.len())).unwrap();
            let key = self.matching(pat);
            let v = self.value(s, depth + 1);
            out.insert(key, v);
        }
        let min = node.get("minProperties").and_then(J::as_u64).unwrap_or(0) as usize;
        if out.len() < min
            && let Some((k, s)) = props.first()
        {
            let v = self.value(s, depth + 1);
            out.insert((*k).clone(), v);
        }
        J::Object(out)
    }

    /// A string matching `pattern` when one of [`STRINGS`] does (else any).
    fn matching(&mut self, pattern: &str) -> String {
        let re = MiniRegex::new(pattern);
        let hits: Vec<&str> = STRINGS
            .iter()
            .copied()
            .filter(|s| re.as_ref().is_none_or(|re| re.is_match(s)))
            .collect();
        if hits.is_empty() || self.r.chance(10) {
            STRINGS[self.r.below(STRINGS.len())].to_owned()
        } else {
            hits[self.r.below(hits.len())].to_owned()
        }
    }

    fn scalar(&mut self, ty: &str, node: &Map<String, J>) -> J {
        match ty {
            "string" => {
                if let Some(p) = node.get("pattern").and_then(J::as_str) {
                    return J::String(self.matching(p));
                }
                if node.get("format").and_then(J::as_str) == Some("date") {
                    return json!(
                        ["2024-02-29", "2030-01-01", "2023-02-29", "tomorrow"][self.r.below(4)]
                    );
                }
                J::String(STRINGS[self.r.below(STRINGS.len())].to_owned())
            }
            "integer" => {
                let min = node.get("minimum").and_then(J::as_i64).unwrap_or(-3);
                json!(min + self.r.below(100) as i64)
            }
            "number" => json!([0.5, 2.0, 1e3, -1.5][self.r.below(4)]),
            "boolean" => J::Bool(self.r.chance(50)),
            "null" => J::Null,
            _ => json!("x"),
        }
    }

    /// Break `v` at a random place: another type, a value outside the enum or pattern,
    /// an unknown key, a deleted key, an emptied list.
    pub(crate) fn mutate(&mut self, v: &mut J) {
        // Walk down by JSON pointer (a random depth), then change what is there.
        let mut ptr = String::new();
        for _ in 0..self.r.below(4) {
            let Some(cur) = v.pointer(&ptr) else { break };
            let (seg, child) = match cur {
                J::Object(o) if !o.is_empty() => {
                    let k = o.keys().nth(self.r.below(o.len())).unwrap();
                    (k.replace('~', "~0").replace('/', "~1"), &o[k])
                }
                J::Array(a) if !a.is_empty() => {
                    let i = self.r.below(a.len());
                    (i.to_string(), &a[i])
                }
                _ => break,
            };
            if !(child.is_object() || child.is_array()) {
                break;
            }
            ptr = format!("{ptr}/{seg}");
        }
        let Some(at) = v.pointer_mut(&ptr) else {
            return;
        };
        let wrong = [
            json!("text"),
            json!(3),
            json!(-1),
            json!(true),
            J::Null,
            json!(1.5),
            json!([]),
            json!(["a"]),
            json!({}),
            json!({"x": 1}),
            json!("yes"),
        ];
        match at {
            J::Object(o) => match self.r.below(4) {
                0 if !o.is_empty() => {
                    let k = o.keys().nth(self.r.below(o.len())).unwrap().clone();
                    o.insert(k, wrong[self.r.below(wrong.len())].clone());
                }
                1 if !o.is_empty() => {
                    let k = o.keys().nth(self.r.below(o.len())).unwrap().clone();
                    o.remove(&k);
                }
                2 => {
                    let k = ["pacakges", "sudoers", "x", "Name", "runcmd", "apt_update"]
                        [self.r.below(6)];
                    o.insert(k.to_owned(), wrong[self.r.below(wrong.len())].clone());
                }
                _ if !o.is_empty() => {
                    let k = o.keys().nth(self.r.below(o.len())).unwrap().clone();
                    let s = STRINGS[self.r.below(STRINGS.len())];
                    o.insert(k, json!(s));
                }
                _ => {}
            },
            J::Array(a) => match self.r.below(3) {
                0 => a.clear(),
                1 if !a.is_empty() => {
                    let i = self.r.below(a.len());
                    a[i] = wrong[self.r.below(wrong.len())].clone();
                }
                _ => a.push(wrong[self.r.below(wrong.len())].clone()),
            },
            _ => {}
        }
    }
}

fn merge_into(out: &mut Map<String, J>, sub: Map<String, J>) {
    for (k, v) in sub {
        match (out.get_mut(&k), v) {
            (Some(J::Object(a)), J::Object(b))
                if matches!(k.as_str(), "properties" | "patternProperties") =>
            {
                for (bk, bv) in b {
                    // Two schemas for one key (the root lists every key as `{}`, a
                    // module says what it is): both hold.
                    match a.get_mut(&bk) {
                        Some(old) if old.as_object().is_some_and(|o| o.is_empty()) => *old = bv,
                        Some(old) if bv.as_object().is_some_and(|o| !o.is_empty()) => {
                            *old = json!({"allOf": [old.clone(), bv]});
                        }
                        Some(_) => {}
                        None => {
                            a.insert(bk, bv);
                        }
                    }
                }
            }
            (Some(J::Array(a)), J::Array(b)) if k == "required" => a.extend(b),
            (Some(_), _) => {}
            (None, v) => {
                out.insert(k, v);
            }
        }
    }
}
