//! `cloudfold validate`: every problem cloud-init would have with a payload, rendered for people or as JSON.

use super::args::{ColorChoice, Platform as PlatformArg, ValidateArgs, ValidateFormat};
use super::exit::Exit;
use super::input::{LocalIncludes, read_input};
use super::render_cmd::options;
use cloudfold::diagnostic::{HumanRenderer, JsonRenderer, Severity};
use cloudfold::userdata::PartOutcome;
use cloudfold::validate::{JsonSchema, Platform, Report, SizeLimit, ValidateOptions, validate};
use serde_json::json;
use std::path::PathBuf;

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
        let limit = report
            .diagnostics
            .iter()
            .any(|d| d.code == "userdata-limit");
        return if limit { Exit::Limit } else { Exit::Aborted };
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
        PartOutcome::JinjaNotRendered => "jinja-not-rendered",
        PartOutcome::Unhandled => "ignored",
        PartOutcome::Empty => "empty",
    }
}

pub fn run(a: &ValidateArgs) -> Result<Exit, String> {
    let userdata = options(&a.payload)?;
    let input = read_input(a.payload.input.as_deref(), a.payload.max_input_size)?;
    let input_name = match a.payload.input.as_deref() {
        None => "<stdin>".to_owned(),
        Some(p) if p.as_os_str() == "-" => "<stdin>".to_owned(),
        Some(p) => p.display().to_string(),
    };
    let size_limit = match (a.platform, a.max_size) {
        (Some(p), _) => Some(SizeLimit::platform(platform(p))),
        (None, Some(n)) => Some(SizeLimit::bytes(n)),
        (None, None) => None,
    };
    let schema = match &a.schema {
        None => None,
        Some(p) => {
            let path = if p.as_os_str() == "auto" {
                find_schema().ok_or(
                    "--schema: no installed schema-cloud-config-v1.json found; pass its path",
                )?
            } else {
                p.clone()
            };
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(JsonSchema::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
    };
    let opts = ValidateOptions {
        userdata,
        input_name,
        size_limit,
        schema,
    };
    let includes = LocalIncludes {
        dir: a.payload.include_dir.clone(),
    };
    let report = validate(&input, &opts, &includes);
    let code = decide(&report, a.strict);
    let (errors, warnings, notes) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Note),
    );
    let parts = report.folded.as_ref().map_or(0, |f| f.parts.len());
    match a.format {
        ValidateFormat::Human => {
            let r = HumanRenderer::new().with_color(a.color == ColorChoice::Always);
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
            let verdict = match code {
                Exit::Ok => format!("valid: {} ({counts})", plural(parts, "part")),
                Exit::Aborted | Exit::Limit => {
                    format!("invalid: cloud-init would abort all user-data processing ({counts})")
                }
                Exit::Strict => format!("invalid with --strict: {counts}"),
                _ => format!("invalid: {counts}"),
            };
            out.push_str(&verdict);
            out.push('\n');
            super::stdout::write_stdout(out.as_bytes())?;
        }
        ValidateFormat::Json => {
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
            let doc = json!({
                "valid": code == Exit::Ok,
                "exit_code": code as u8,
                "aborted": report.aborted(),
                "summary": {"errors": errors, "warnings": warnings, "notes": notes},
                "parts": part_list,
                "diagnostics": JsonRenderer::new().to_array(&report.diagnostics, &report.sources),
            });
            let mut s = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
            s.push('\n');
            super::stdout::write_stdout(s.as_bytes())?;
        }
    }
    Ok(code)
}

const SCHEMA: &str = "cloudinit/config/schemas/schema-cloud-config-v1.json";

/// cloud-init's schema where an installed cloud-init keeps it: the system's Python
/// packages, then the reference trees the oracle setup extracts
/// (`$CI_ORACLE_CACHE`, else `~/.cache/cloudfold-oracle`), newest release first.
pub fn find_schema() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = [
        "/usr/lib/python3/dist-packages",
        "/usr/lib/python3/site-packages",
    ]
    .iter()
    .map(|d| PathBuf::from(d).join(SCHEMA))
    .collect();
    let cache = std::env::var_os("CI_ORACLE_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("cloudfold-oracle"))
        })
        .or_else(|| {
            std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/cloudfold-oracle"))
        });
    if let Some(cache) = cache {
        for root in ["cloud-init-root-trixie", "cloud-init-root"] {
            candidates.push(
                cache
                    .join(root)
                    .join("usr/lib/python3/dist-packages")
                    .join(SCHEMA),
            );
        }
    }
    candidates.into_iter().find(|p| p.is_file())
}
