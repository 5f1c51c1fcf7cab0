//! `SarifRenderer`: diagnostics as one SARIF 2.1.0 log (one run: the tool and its rules, then every result).

use super::file_locator::{FileLocator, FileRegion, Unplaced};
use super::{Diagnostic, Label, Rule, Severity, SourceMap};
use serde_json::{Map, Value, json};

/// The diagnostics of one input file, for [`SarifRenderer::to_value`].
#[derive(Clone, Copy, Debug)]
pub struct SarifInput<'a> {
    /// The file as the repository names it (a relative path, or absolute);
    /// `None` for stdin (results then have no physical location).
    pub path: Option<&'a str>,
    /// Its diagnostics.
    pub diagnostics: &'a [Diagnostic],
    /// The sources they point into (with their [`Placement`](super::Placement)s).
    pub sources: &'a SourceMap,
}

/// Renders diagnostics as a SARIF 2.1.0 log, for GitHub code scanning and other viewers.
///
/// One run: `tool.driver` names the tool and lists the `rules` its results use
/// (one per code: summary, help, default level), each result gives `ruleId`/`ruleIndex`,
/// `level` (error, warning, note), `message.text` (the message, then notes and
/// help on their own lines), a `physicalLocation` in the input file (the file
/// alone when the place is not a line of the file as written; the place in the
/// part is then in the result's `properties.partRegion`, with `properties.unplaced`
/// saying why) and a `logicalLocation` whose `fullyQualifiedName` is the config
/// path (`$.runcmd[2]`); other places are `relatedLocations`. Columns count
/// characters (`columnKind: unicodeCodePoints`), end columns are exclusive.
#[derive(Clone, Debug)]
pub struct SarifRenderer<'r> {
    name: String,
    version: String,
    rules: &'r [Rule],
}

impl<'r> SarifRenderer<'r> {
    /// A renderer for the tool `name` at `version`, whose codes are `rules`.
    pub fn new(name: impl Into<String>, version: impl Into<String>, rules: &'r [Rule]) -> Self {
        SarifRenderer {
            name: name.into(),
            version: version.into(),
            rules,
        }
    }

    /// The SARIF log for `inputs` (one run; artifacts in the order given).
    pub fn to_value(&self, inputs: &[SarifInput<'_>]) -> Value {
        // The rules the results use, in the order of `rules` (codes it lacks after
        // them, so every result has its rule): a log lists what it reports on.
        let mut used: Vec<&str> = Vec::new();
        for input in inputs {
            for d in input.diagnostics {
                if !used.contains(&d.code) {
                    used.push(d.code);
                }
            }
        }
        let known = self.rules.iter().filter(|r| used.contains(&r.code));
        let mut order: Vec<&str> = known.clone().map(|r| r.code).collect();
        let mut rules: Vec<Value> = known.map(rule).collect();
        for code in used {
            if !order.contains(&code) {
                order.push(code);
                rules.push(json!({"id": code}));
            }
        }
        let rule_index = |code: &str| order.iter().position(|c| *c == code);

        let mut artifacts = Vec::new();
        let mut results = Vec::new();
        for input in inputs {
            let artifact = input.path.map(|p| {
                artifacts.push(json!({"location": {"uri": file_uri(p)}}));
                (file_uri(p), artifacts.len() - 1)
            });
            let locator = FileLocator::new(input.sources);
            for d in input.diagnostics {
                results.push(self.result(d, artifact.as_ref(), &locator, rule_index(d.code)));
            }
        }
        let mut driver = Map::new();
        driver.insert("name".into(), json!(self.name));
        driver.insert("version".into(), json!(self.version));
        driver.insert("semanticVersion".into(), json!(self.version));
        driver.insert("rules".into(), Value::Array(rules));
        json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": Value::Object(driver)},
                "artifacts": artifacts,
                "columnKind": "unicodeCodePoints",
                "results": results,
            }],
        })
    }

    fn result(
        &self,
        d: &Diagnostic,
        artifact: Option<&(String, usize)>,
        locator: &FileLocator<'_>,
        rule_index: Option<usize>,
    ) -> Value {
        let mut o = Map::new();
        o.insert("ruleId".into(), json!(d.code));
        if let Some(i) = rule_index {
            o.insert("ruleIndex".into(), json!(i));
        }
        o.insert("level".into(), json!(level(d.severity)));
        o.insert("message".into(), json!({"text": d.message_with_notes()}));
        let mut props = Map::new();
        let primary = match &d.primary {
            Some(label) => location(label, artifact, locator, &mut props),
            None => artifact.map(|(uri, index)| {
                json!({"physicalLocation": {"artifactLocation": {"uri": uri, "index": index}}})
            }),
        };
        o.insert(
            "locations".into(),
            Value::Array(primary.into_iter().collect()),
        );
        let related: Vec<Value> = d
            .secondary
            .iter()
            .filter_map(|l| location(l, artifact, locator, &mut Map::new()))
            .enumerate()
            .map(|(i, mut loc)| {
                if let Value::Object(m) = &mut loc {
                    m.insert("id".into(), json!(i + 1));
                }
                loc
            })
            .collect();
        if !related.is_empty() {
            o.insert("relatedLocations".into(), Value::Array(related));
        }
        if !props.is_empty() {
            o.insert("properties".into(), Value::Object(props));
        }
        Value::Object(o)
    }
}

/// A label as a SARIF location; facts with no SARIF field (the part, the place in
/// it when that is not in the file) go into `props`.
fn location(
    label: &Label,
    artifact: Option<&(String, usize)>,
    locator: &FileLocator<'_>,
    props: &mut Map<String, Value>,
) -> Option<Value> {
    let mut loc = Map::new();
    let source = locator.source(label.span.source);
    if let Some(f) = source {
        if let Some(n) = f.part {
            props.insert("part".into(), json!(n));
        }
        if let Some(name) = &f.filename {
            props.insert("partName".into(), json!(name));
        }
    }
    let region = locator.region(&label.span);
    if let (Err(Unplaced::NotInFile(why)), Some(_)) = (&region, source) {
        let s = label.span;
        props.insert("unplaced".into(), json!(why));
        props.insert(
            "partRegion".into(),
            region_value(FileRegion {
                start_line: s.start.line.saturating_add(1),
                start_column: s.start.column.saturating_add(1),
                end_line: s.end.line.saturating_add(1),
                end_column: s.end.column.saturating_add(1),
            }),
        );
    }
    if let Some((uri, index)) = artifact {
        let mut physical = Map::new();
        physical.insert(
            "artifactLocation".into(),
            json!({"uri": uri, "index": index}),
        );
        if let Ok(r) = region {
            physical.insert("region".into(), region_value(r));
        }
        loc.insert("physicalLocation".into(), Value::Object(physical));
    }
    if let Some(path) = &label.path {
        let kind = if path.ends_with(']') {
            "element"
        } else {
            "property"
        };
        loc.insert(
            "logicalLocations".into(),
            json!([{"fullyQualifiedName": path, "kind": kind}]),
        );
    }
    if let Some(m) = &label.message {
        loc.insert("message".into(), json!({"text": m}));
    }
    (!loc.is_empty()).then_some(Value::Object(loc))
}

fn region_value(r: FileRegion) -> Value {
    json!({
        "startLine": r.start_line,
        "startColumn": r.start_column,
        "endLine": r.end_line,
        "endColumn": r.end_column,
    })
}

fn rule(r: &Rule) -> Value {
    json!({
        "id": r.code,
        "shortDescription": {"text": r.summary},
        "help": {"text": r.help},
        "defaultConfiguration": {"level": level(r.severity)},
    })
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note | Severity::Help => "note",
    }
}

/// A path as a URI reference: relative paths stay relative (code scanning reads
/// them from the repository root), absolute ones become `file://` URIs; bytes
/// outside RFC 3986's unreserved set and `/` are percent-encoded.
fn file_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::file_uri;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(file_uri("a b/c%.yaml"), "a%20b/c%25.yaml");
        assert_eq!(file_uri("/tmp/é"), "file:///tmp/%C3%A9");
        assert_eq!(file_uri("x:y,z"), "x%3Ay%2Cz");
    }
}
