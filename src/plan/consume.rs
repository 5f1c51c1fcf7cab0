//! `consume`: `Init._do_handlers` on one payload — each part to its handler, scripts written, boothooks written and run at their position.

use super::boot_plan::{PartEffect, PartStep};
use super::cloud_fs::{CloudFs, basename, dirname};
use super::cloud_util::{clean_filename, dos2unix, encode_text, lstrip};
use super::frequency::Frequency;
use crate::jinja::JinjaRender;
use crate::layers::LayerKind;
use crate::userdata::{Folded, PartOutcome, PartReport, PartType, Payload};
use crate::yaml::value::{PyStr, PyStrBuilder};

/// Walk one payload's parts as `handlers.walk` hands them to the default
/// handlers (`ShellScriptPartHandler`, …), writing into `fs`.
///
/// `vendor`: vendor-data's handlers write scripts under `scripts/vendor`.
/// `frequency`: the consume frequency (custom part-handlers, which default
/// to once-per-instance, are called only on the first boot).
pub(super) fn consume_payload(
    payload: LayerKind,
    folded: &Folded,
    frequency: Frequency,
    v25: bool,
    fs: &mut CloudFs,
    notes: &mut Vec<String>,
) -> Vec<PartStep> {
    let vendor = payload != LayerKind::UserData;
    let mut handler_count = 0usize;
    let mut steps = Vec::with_capacity(folded.parts.len());
    for p in &folded.parts {
        let filename = p.filename().into_owned();
        let (handler, effect) = match (&p.outcome, p.part_type) {
            (PartOutcome::Excluded, _) => (
                None,
                PartEffect::Ignored(
                    "its type is in vendor_data's disabled_handlers: no handler sees it".into(),
                ),
            ),
            (_, PartType::CloudConfig | PartType::JsonPatch) => (
                p.part_type.handler_name(),
                match &p.outcome {
                    PartOutcome::Rejected(r) => PartEffect::Skipped(r.to_string()),
                    _ => PartEffect::Merged,
                },
            ),
            (_, PartType::Script) => (
                p.part_type.handler_name(),
                write_script(fs, &script_dir(fs, vendor), &filename, &text_of(p), vendor),
            ),
            (_, PartType::ScriptPerFrequency) => {
                let per = p
                    .content_type()
                    .strip_prefix("text/x-shellscript-")
                    .unwrap_or("per-boot");
                let base = if vendor {
                    fs.cpath("scripts/vendor")
                } else {
                    fs.cpath("scripts")
                };
                let dir = format!("{base}/{per}");
                let name = clean_filename(basename(&filename));
                let run_by = (!vendor).then_some(match per {
                    "per-boot" => "scripts_per_boot",
                    "per-instance" => "scripts_per_instance",
                    _ => "scripts_per_once",
                });
                (
                    p.part_type.handler_name(),
                    write_named(fs, &dir, &name, &text_of(p), run_by),
                )
            }
            (_, PartType::Boothook) => (
                p.part_type.handler_name(),
                boothook(fs, &filename, &text_of(p)),
            ),
            (_, PartType::Jinja) => (
                p.part_type.handler_name(),
                jinja(fs, p, &filename, vendor, v25, notes),
            ),
            (_, PartType::PartHandler) => {
                let path = format!(
                    "{}/part-handler-{handler_count:03}.py",
                    fs.ipath("handlers")
                );
                handler_count += 1;
                notes.push(format!(
                    "{} part {} ({filename}) is a part-handler: Python code cloud-init imports and runs{}; cloudfold does not run it, and assumes it takes over no content type of the later parts",
                    payload.code(),
                    p.number,
                    if frequency == Frequency::Always {
                        " (on later boots its handle_part runs only if it sets frequency = always)"
                    } else {
                        ""
                    }
                ));
                (None, PartEffect::RegistersHandler { path })
            }
            (PartOutcome::Empty, _) => (
                None,
                PartEffect::Ignored("empty, of a type no handler takes".into()),
            ),
            (_, PartType::Unhandled) => (
                None,
                PartEffect::Ignored(format!(
                    "no handler for {}: cloud-init logs \"Unhandled unknown content-type\"",
                    p.content_type()
                )),
            ),
        };
        steps.push(PartStep {
            payload,
            number: p.number,
            filename,
            content_type: p.content_type().to_owned(),
            handler,
            effect,
        });
    }
    steps
}

/// `ShellScriptPartHandler.script_dir`.
fn script_dir(fs: &CloudFs, vendor: bool) -> String {
    if vendor {
        fs.ipath_cur("scripts/vendor")
    } else {
        fs.ipath_cur("scripts")
    }
}

/// The payload a handler gets (`None` when the part has none).
fn text_of(p: &PartReport) -> Option<PyStr> {
    match p.leaf.payload() {
        Payload::Text(t) => Some(t),
        Payload::Bytes(b) => Some(PyStr::from_utf8_surrogateescape(&b)),
        Payload::None => None,
    }
}

/// `ShellScriptPartHandler.handle_part`.
fn write_script(
    fs: &mut CloudFs,
    dir: &str,
    filename: &str,
    payload: &Option<PyStr>,
    vendor: bool,
) -> PartEffect {
    let run_by = Some(if vendor {
        "scripts_vendor"
    } else {
        "scripts_user"
    });
    write_named(fs, dir, &clean_filename(filename), payload, run_by)
}

/// `dos2unix` the payload and `write_file(dir/name, payload, 0o700)`.
fn write_named(
    fs: &mut CloudFs,
    dir: &str,
    name: &str,
    payload: &Option<PyStr>,
    run_by: Option<&'static str>,
) -> PartEffect {
    let Some(payload) = payload else {
        return PartEffect::Fails(
            "AttributeError: 'NoneType' object has no attribute 'find'".into(),
        );
    };
    let path = format!("{dir}/{name}");
    match write(fs, &path, &dos2unix(payload)) {
        Ok(()) => PartEffect::WritesScript { path, run_by },
        Err(e) => PartEffect::Fails(e),
    }
}

/// `util.write_file(path, text, 0o700)`.
fn write(fs: &mut CloudFs, path: &str, text: &PyStr) -> Result<(), String> {
    fs.ensure_dir(&dirname(path)).map_err(|e| e.to_string())?;
    let bytes = encode_text(text)?;
    fs.open_write(path, &bytes, 0o700, false)
        .map_err(|e| e.to_string())
}

/// `BootHookPartHandler.handle_part`: written without its `#cloud-boothook`
/// line, then run.
fn boothook(fs: &mut CloudFs, filename: &str, payload: &Option<PyStr>) -> PartEffect {
    let Some(payload) = payload else {
        return PartEffect::Fails(
            "AttributeError: 'NoneType' object has no attribute 'find'".into(),
        );
    };
    let path = format!("{}/{}", fs.ipath("boothooks"), clean_filename(filename));
    let text = dos2unix(payload);
    let stripped = match text.as_wtf8().strip_prefix(b"#cloud-boothook") {
        Some(rest) => {
            let mut b = PyStrBuilder::new();
            b.push_wtf8(rest);
            b.finish()
        }
        None => text,
    };
    let contents = lstrip(&stripped);
    match write(fs, &path, &contents) {
        Ok(()) => PartEffect::RunsBoothook {
            path,
            text: contents.to_string_lossy().into_owned(),
        },
        Err(e) => PartEffect::Fails(e),
    }
}

/// `JinjaTemplatePartHandler.handle_part`: the render goes to the
/// sub-handler its first line selects.
fn jinja(
    fs: &mut CloudFs,
    p: &PartReport,
    filename: &str,
    vendor: bool,
    v25: bool,
    notes: &mut Vec<String>,
) -> PartEffect {
    match p.jinja.as_deref() {
        Some(JinjaRender::Rendered { text, subtype, .. }) => match *subtype {
            "text/cloud-config" => match &p.outcome {
                PartOutcome::Rejected(r) => PartEffect::Skipped(r.to_string()),
                _ => PartEffect::Merged,
            },
            "text/x-shellscript" => write_script(
                fs,
                &script_dir(fs, vendor),
                filename,
                &Some(PyStr::from(text.as_str())),
                vendor,
            ),
            "text/cloud-boothook" if v25 => {
                boothook(fs, filename, &Some(PyStr::from(text.as_str())))
            }
            t => PartEffect::Ignored(format!("rendered to {t}, which no jinja sub-handler takes")),
        },
        Some(JinjaRender::Dropped { why, .. }) => PartEffect::Ignored(why.describe()),
        Some(JinjaRender::Unsupported(m) | JinjaRender::Limit(m)) => {
            notes.push(format!(
                "part {} ({filename}): cloudfold cannot render this template exactly ({m}); what it does is not planned",
                p.number
            ));
            PartEffect::Ignored(format!("not planned: {m}"))
        }
        None => PartEffect::Ignored("not rendered".into()),
    }
}
