//! `cloudfold build --terraform-external`: Terraform's `external` data source protocol — a JSON object of strings in, the built payload and its sizes out, invalid user-data as an error.

use super::exit::{Exit, Failure};
use super::manifest::Manifest;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use cloudfold::build::{BuildOptions, Style, build};
use cloudfold::diagnostic::{HumanRenderer, Severity};
use cloudfold::userdata::{NoIncludes, UserDataOptions};
use cloudfold::validate::{Platform, SizeLimit, ValidateOptions, validate};
use serde_json::{Map, Value};
use std::io::Read;
use std::path::PathBuf;

/// Largest query (the manifest with inline contents), and largest file a `path:` entry reads.
const MAX_QUERY: u64 = 64 << 20;

/// The query's keys: Terraform sends the `query` argument, a map of strings.
const KEYS: &[&str] = &[
    "manifest",
    "base_dir",
    "style",
    "merge_type",
    "boundary",
    "gzip",
    "base64",
    "force",
    "strict",
    "cloud_init",
    "platform",
];

/// The query, every value a string as Terraform sends it.
struct Query(Map<String, Value>);

impl Query {
    /// Parse stdin: one JSON object whose values are all strings.
    fn parse(stdin: &[u8]) -> Result<Query, String> {
        let value: Value = serde_json::from_slice(stdin)
            .map_err(|e| format!("the query on stdin is not JSON: {e}"))?;
        let Value::Object(map) = value else {
            return Err("the query on stdin must be a JSON object".into());
        };
        for (k, v) in &map {
            if !KEYS.contains(&k.as_str()) {
                return Err(format!(
                    "unknown query key `{k}` (known: {})",
                    KEYS.join(", ")
                ));
            }
            if !v.is_string() {
                let kind = match v {
                    Value::Null => "null",
                    Value::Bool(_) => "a boolean",
                    Value::Number(_) => "a number",
                    Value::Array(_) => "an array",
                    _ => "an object",
                };
                return Err(format!(
                    "query key `{k}` is {kind}: Terraform's external data source sends only strings \
                     (encode lists and maps with jsonencode())"
                ));
            }
        }
        Ok(Query(map))
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// A `"true"`/`"false"` flag.
    fn flag(&self, key: &str, default: bool) -> Result<bool, String> {
        match self.get(key) {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(other) => Err(format!(
                "query key `{key}` must be \"true\" or \"false\", not {other:?}"
            )),
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Read the query from stdin, build, validate, print the result object.
pub(super) fn run() -> Result<Exit, Failure> {
    let mut stdin = Vec::new();
    std::io::stdin()
        .take(MAX_QUERY + 1)
        .read_to_end(&mut stdin)
        .map_err(|e| format!("reading the query from stdin: {e}"))?;
    if stdin.len() as u64 > MAX_QUERY {
        return Err(format!("the query is larger than {MAX_QUERY} bytes").into());
    }
    let q = Query::parse(&stdin)?;
    let manifest_text = q
        .get("manifest")
        .ok_or("the query needs `manifest`: the manifest's YAML or JSON text (file(\"...\") or jsonencode({parts = [...]}))")?;
    let base = q
        .get("base_dir")
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let manifest = Manifest::parse(manifest_text.as_bytes(), "manifest", &base, MAX_QUERY)?;
    let style = match q.get("style").unwrap_or("terraform") {
        "terraform" => Style::Terraform,
        "cloud-init" => Style::CloudInit,
        other => {
            return Err(format!(
                "query key `style` must be \"terraform\" or \"cloud-init\", not {other:?}"
            )
            .into());
        }
    };
    let gzip = q.flag("gzip", true)?;
    let base64 = q.flag("base64", true)?;
    if gzip && !base64 {
        return Err(
            "gzip without base64 cannot be returned: Terraform's result values are strings (UTF-8 text)"
                .into(),
        );
    }
    let opts = BuildOptions {
        style,
        boundary: q.get("boundary").map(str::to_owned),
        merge_type: q
            .get("merge_type")
            .map(str::to_owned)
            .or(manifest.merge_type),
        gzip,
        base64: Some(base64),
        force: q.flag("force", false)?,
    };
    let strict = q.flag("strict", false)?;
    let platform = match q.get("platform") {
        None => None,
        Some("ec2") => Some(Platform::Ec2),
        Some("azure") => Some(Platform::Azure),
        Some("openstack") => Some(Platform::Openstack),
        Some("gce") => Some(Platform::Gce),
        Some(other) => {
            return Err(format!(
                "query key `platform` must be ec2, azure, openstack or gce, not {other:?}"
            )
            .into());
        }
    };
    let built = build(&manifest.parts, &opts).map_err(|e| e.to_string())?;
    // What the instance receives: the gzip bytes (the cloud API undoes the base64), else the MIME.
    let sent = if gzip {
        B64.decode(&built.bytes)
            .map_err(|e| format!("internal: {e}"))?
    } else {
        built.mime.clone()
    };
    let vopts = ValidateOptions {
        userdata: UserDataOptions {
            release: q.get("cloud_init").unwrap_or("25.1").parse()?,
            ..UserDataOptions::default()
        },
        input_name: "user-data".into(),
        size_limit: platform.map(SizeLimit::platform),
        schema: None,
        cloud_init_only: strict,
        image: None,
    };
    let report = validate(&sent, &vopts, &NoIncludes);
    let (errors, warnings, notes) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Note),
    );
    let text = HumanRenderer::new().render_all(&report.diagnostics, &report.sources);
    if errors > 0 || report.aborted() || (strict && warnings > 0) {
        // Terraform shows stderr as the plan's error.
        eprint!("{text}");
        eprintln!(
            "cloudfold: the user-data is invalid ({}, {}{})",
            plural(errors, "error"),
            plural(warnings, "warning"),
            if strict { "; strict" } else { "" }
        );
        return Ok(if errors > 0 || report.aborted() {
            Exit::Invalid
        } else {
            Exit::Strict
        });
    }
    let rendered = String::from_utf8(built.bytes)
        .map_err(|_| "the payload is not UTF-8 text: set base64 = \"true\"".to_owned())?;
    let mut out = Map::new();
    let mut put = |k: &str, v: String| {
        out.insert(k.to_owned(), Value::String(v));
    };
    put("size", rendered.len().to_string());
    put("rendered", rendered);
    put("mime_size", built.mime.len().to_string());
    if gzip {
        put("gzip_size", sent.len().to_string());
    }
    put("boundary", built.boundary);
    put("parts", built.parts.len().to_string());
    put("warnings", warnings.to_string());
    put("notes", notes.to_string());
    put("diagnostics", text);
    let mut s = serde_json::to_string(&Value::Object(out)).map_err(|e| e.to_string())?;
    s.push('\n');
    super::stdout::write_stdout(s.as_bytes())?;
    Ok(Exit::Ok)
}
