//! `cloudfold validate`: every problem cloud-init would have with one or more payloads, for people, as JSON, as GitHub annotations or as SARIF.

use super::args::{ColorChoice, Platform as PlatformArg, ValidateArgs, ValidateFormat};
use super::exit::{Exit, Failure};
use super::input::{LocalIncludes, PayloadFile, payload_file, read_payload};
use super::render_cmd::options;
use cloudfold::diagnostic::{
    GithubRenderer, HumanRenderer, JsonRenderer, Placement, SarifInput, SarifRenderer, Severity,
};
use cloudfold::userdata::PartOutcome;
use cloudfold::validate::{
    JsonSchema, Platform, RULES, Report, SizeLimit, ValidateOptions, validate,
};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::json;
use std::io::Write;
use std::path::Path;

fn platform(p: PlatformArg) -> Platform {
    match p {
        PlatformArg::Ec2 => Platform::Ec2,
        PlatformArg::Azure => Platform::Azure,
        PlatformArg::Openstack => Platform::Openstack,
        PlatformArg::Gce => Platform::Gce,
    }
}

/// The exit code a report earns.
fn decide(report: &Report, strict: bool) -> Exit {
    if report.aborted() {
        return if report.hit_limit() {
            Exit::Limit
        } else {
            Exit::Aborted
        };
    }
    if report.count(Severity::Error) > 0 {
        Exit::Invalid
    } else if strict && report.count(Severity::Warning) > 0 {
        Exit::Strict
    } else {
        Exit::Ok
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn outcome(o: &PartOutcome) -> &'static str {
    match o {
        PartOutcome::Merged => "merged",
        PartOutcome::Rejected(_) => "rejected",
        PartOutcome::WouldRun => "runs",
        PartOutcome::JinjaDropped => "jinja-dropped",
        PartOutcome::Unhandled => "ignored",
        PartOutcome::Empty => "empty",
        PartOutcome::Excluded => "excluded",
    }
}

/// How bad an exit code is, to report the worst over several payloads.
fn rank(e: Exit) -> u8 {
    match e {
        Exit::Ok => 0,
        Exit::Strict => 1,
        Exit::Invalid => 2,
        Exit::Aborted => 3,
        Exit::Limit => 4,
        Exit::Usage => 5,
        Exit::Internal => 6,
        // `diff` only.
        Exit::Differ => 0,
    }
}

/// A payload path as a repository names it (annotations and SARIF match files
/// by their path from the repository root): `./` prefixes dropped.
fn repo_path(p: &Path) -> String {
    let mut s = p.display().to_string();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.trim_start_matches('/').to_owned();
    }
    s
}

/// One payload checked: its name, its path for annotations (`None`: stdin), the report.
struct Checked {
    name: String,
    path: Option<String>,
    report: Report,
    code: Exit,
}

pub(super) fn run(a: &ValidateArgs) -> Result<Exit, Failure> {
    if a.layers.any() {
        // Every layer first, then the user-data payload as always (if one is given).
        let layers = super::layers_cmd::validate(&a.payload, &a.layers)?;
        if a.payload.input.is_none() {
            return Ok(layers);
        }
        let payload = run_payloads(a)?;
        return Ok(if rank(layers) >= rank(payload) {
            layers
        } else {
            payload
        });
    }
    run_payloads(a)
}

fn run_payloads(a: &ValidateArgs) -> Result<Exit, Failure> {
    let userdata = options(&a.payload.fold)?;
    let size_limit = match (a.platform, a.max_size) {
        (Some(p), _) => Some(SizeLimit::platform(platform(p))),
        (None, Some(n)) => Some(SizeLimit::bytes(n)),
        (None, None) => None,
    };
    let schema = match &a.schema {
        None => None,
        // cloud-init's schema of the emulated release, from cloudfold's own data.
        Some(p) if p.as_os_str() == "auto" => {
            Some(JsonSchema::builtin(userdata.release).map_err(|e| format!("--schema: {e}"))?)
        }
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(
                JsonSchema::parse(&text)
                    .map_err(|e| format!("{}: {e}", path.display()))?
                    .for_release(userdata.release),
            )
        }
    };
    let mut inputs: Vec<Option<&Path>> = vec![a.payload.input.as_deref()];
    inputs.extend(a.more_inputs.iter().map(|p| Some(p.as_path())));
    if inputs.len() > 1 && a.format == ValidateFormat::Json {
        return Err("--format json checks one payload; use --format sarif for several".into());
    }
    let mut opts = ValidateOptions {
        userdata,
        input_name: String::new(),
        size_limit,
        schema,
        cloud_init_only: a.strict,
        image: a.layers.image.as_deref().and_then(|s| s.parse().ok()),
    };
    let includes = LocalIncludes {
        dir: a.payload.fold.include_dir.clone(),
    };
    let mut checked = Vec::with_capacity(inputs.len());
    let mut worst = Exit::Ok;
    for input in inputs {
        let path = input.filter(|p| p.as_os_str() != "-");
        let bytes = match read_payload(input, a.payload.fold.max_input_size) {
            Ok(b) => b,
            // One unreadable file among several does not hide the others' problems.
            Err(e) if a.more_inputs.is_empty() => return Err(e.into()),
            Err(e) => {
                eprintln!("error: {e}");
                if rank(e.exit()) > rank(worst) {
                    worst = e.exit();
                }
                continue;
            }
        };
        opts.input_name = path.map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string());
        let mut report = validate(bytes, &opts, &includes);
        // Annotations name the file that holds the payload; a seed image holds it
        // inside, where no line of the image is the payload's.
        let annotated = match payload_file(input) {
            PayloadFile::Stdin => None,
            PayloadFile::File(p) => Some(repo_path(&p)),
            PayloadFile::InImage(p) => {
                let why = format!("the user-data is inside the seed image {}", p.display());
                for (_, f) in report.sources.iter_mut() {
                    f.placement = Placement::NotInFile(why.clone());
                }
                Some(repo_path(&p))
            }
        };
        if !a.more_inputs.is_empty() {
            // Several payloads: each part's place names its payload (`x.yaml: part 1 (…)`).
            for (_, f) in report.sources.iter_mut() {
                if f.part.is_some() {
                    f.name = format!("{}: {}", opts.input_name, f.name);
                }
            }
        }
        let code = decide(&report, a.strict);
        if rank(code) > rank(worst) {
            worst = code;
        }
        checked.push(Checked {
            name: opts.input_name.clone(),
            path: annotated,
            report,
            code,
        });
    }
    let out = match a.format {
        ValidateFormat::Human => {
            let r = HumanRenderer::new().with_color(a.color == ColorChoice::Always);
            let several = checked.len() > 1;
            let mut out = String::new();
            for c in &checked {
                out.push_str(&human(&r, c, several));
            }
            out
        }
        ValidateFormat::Json => {
            if let Some(c) = checked.first() {
                write_json(c)?;
            }
            return Ok(worst);
        }
        ValidateFormat::Github => checked
            .iter()
            .map(|c| {
                GithubRenderer::new(c.path.clone())
                    .render_all(&c.report.diagnostics, &c.report.sources)
            })
            .collect(),
        ValidateFormat::Sarif => {
            let inputs: Vec<SarifInput<'_>> = checked
                .iter()
                .map(|c| SarifInput {
                    path: c.path.as_deref(),
                    diagnostics: &c.report.diagnostics,
                    sources: &c.report.sources,
                })
                .collect();
            let log =
                SarifRenderer::new("cloudfold", env!("CARGO_PKG_VERSION"), RULES).to_value(&inputs);
            let mut s = serde_json::to_string_pretty(&log).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    super::stdout::write_stdout(out.as_bytes())?;
    Ok(worst)
}

/// The human report of one payload: diagnostics, then the verdict (naming the
/// payload when there are several).
fn human(r: &HumanRenderer, c: &Checked, several: bool) -> String {
    let report = &c.report;
    let (errors, warnings, notes) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Note),
    );
    let parts = report.folded.as_ref().map_or(0, |f| f.parts.len());
    let mut out = r.render_all(&report.diagnostics, &report.sources);
    if !out.is_empty() {
        out.push('\n');
    }
    let counts = format!(
        "{}, {}, {}",
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(notes, "note")
    );
    let verdict = match c.code {
        Exit::Ok => format!("valid: {} ({counts})", plural(parts, "part")),
        Exit::Aborted | Exit::Limit => {
            format!("invalid: cloud-init would abort all user-data processing ({counts})")
        }
        Exit::Strict => format!("invalid with --strict: {counts}"),
        _ => format!("invalid: {counts}"),
    };
    if several {
        out.push_str(&c.name);
        out.push_str(": ");
    }
    out.push_str(&verdict);
    out.push('\n');
    out
}

/// The JSON document of one payload, written as it is serialized: a payload
/// with tens of thousands of diagnostics is tens of MB of JSON, which built as
/// one `Value` and then one `String` peaked at ten times its size.
fn write_json(c: &Checked) -> Result<(), String> {
    let mut w = super::stdout::stdout_writer();
    let r = match serde_json::to_writer_pretty(&mut w, &JsonDoc(c)) {
        Ok(()) => w.write_all(b"\n").and_then(|()| w.flush()),
        Err(e) if e.is_io() => Err(e.into()),
        Err(e) => return Err(e.to_string()),
    };
    super::stdout::written(r)
}

/// One payload's JSON document: `valid`, `exit_code`, `aborted`, `summary`,
/// `parts`, `diagnostics`.
struct JsonDoc<'a>(&'a Checked);

impl Serialize for JsonDoc<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let report = &c.report;
        let part_list: Vec<_> = report
            .folded
            .iter()
            .flat_map(|f| f.parts.iter())
            .map(|p| {
                json!({
                    "part": p.number,
                    "part_name": p.filename(),
                    "content_type": p.content_type(),
                    "outcome": outcome(&p.outcome),
                    "size": p.size,
                })
            })
            .collect();
        let mut m = s.serialize_map(Some(6))?;
        m.serialize_entry("valid", &(c.code == Exit::Ok))?;
        m.serialize_entry("exit_code", &c.code.code())?;
        m.serialize_entry("aborted", &report.aborted())?;
        m.serialize_entry(
            "summary",
            &json!({
                "errors": report.count(Severity::Error),
                "warnings": report.count(Severity::Warning),
                "notes": report.count(Severity::Note),
            }),
        )?;
        m.serialize_entry("parts", &part_list)?;
        m.serialize_entry(
            "diagnostics",
            &JsonRenderer::new().array_view(&report.diagnostics, &report.sources),
        )?;
        m.end()
    }
}
