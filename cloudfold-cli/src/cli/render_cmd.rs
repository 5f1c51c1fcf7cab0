//! `cloudfold render`: print the merged cloud-config; warnings name the part and the reason.

use super::args::{ExplainFormat, FoldArgs, PayloadArgs, RenderArgs, RenderFormat};
use super::exit::{Exit, Failure};
use super::input::{InputError, LocalIncludes, read_payload, size_hint};
use cloudfold::merge::PathQuery;
use cloudfold::userdata::{
    FoldText, Folded, Limits, PartOutcome, Preload, RenderError, Renderer, UserDataOptions,
};
use cloudfold::yaml::{DumpOptions, Node, dump};
use cloudfold::yaml::{TypedJsonWriteError, to_typed_json_pretty, write_typed_json_pretty};
use std::io::Write;

/// `--select`: the value at `q` in the merged config, written as `format`
/// writes a whole config (YAML without the `#cloud-config` line: a subtree is
/// no cloud-config). A path the config lacks is exit 2, naming the deepest
/// prefix that exists, so a script can tell "absent" from "empty".
pub(super) fn selected(
    config: Option<&Node>,
    q: &PathQuery,
    format: RenderFormat,
    limits: &Limits,
) -> Result<Result<String, (Exit, String)>, String> {
    let Some(config) = config else {
        return Ok(Err((
            Exit::Usage,
            "--select: there is no merged config (no cloud-config part was merged)".to_owned(),
        )));
    };
    let node = match q.find(config) {
        Ok(n) => n,
        Err(e) => return Ok(Err((Exit::Usage, format!("--select: {e}")))),
    };
    let dumped = match format {
        RenderFormat::Yaml => dump(&node, &DumpOptions::readable()),
        RenderFormat::CloudInit => dump(&node, &DumpOptions::cloud_init()),
        RenderFormat::Json | RenderFormat::CombinedJson => {
            return match to_typed_json_pretty(&node, limits.walk_limits()) {
                Ok(mut s) => {
                    s.push('\n');
                    Ok(Ok(s))
                }
                Err(e) if e.is_limit() => {
                    Ok(Err((Exit::Limit, format!("the selected value: {e}"))))
                }
                Err(e) => Err(e.to_string()),
            };
        }
    };
    dumped
        .map(Ok)
        .map_err(|e| format!("cannot write the selected value: {e}"))
}

/// Build library options from the shared flags.
pub(super) fn options(p: &FoldArgs) -> Result<UserDataOptions, String> {
    Ok(UserDataOptions {
        release: p.cloud_init.as_deref().unwrap_or("25.1").parse()?,
        launch_index: p.launch_index,
        limits: Limits {
            max_input_size: p.max_input_size,
            max_decompressed_size: p.max_decompressed_size,
            max_parts: p.max_parts,
            max_include_depth: p.max_include_depth,
            max_scalar_size: p.max_scalar_size,
            max_alias_expansion: p.max_alias_expansion,
            ..Limits::default()
        },
        preload: Preload::Auto,
        instance_data: match &p.instance_data {
            None => None,
            Some(path) => Some(std::sync::Arc::new(load_instance_data(path)?)),
        },
        jinja_limits: cloudfold::jinja::JinjaLimits {
            max_steps: p.max_template_steps,
            max_depth: p.max_template_depth,
            max_output: p.max_template_output,
        },
        ..UserDataOptions::default()
    })
}

/// Read and convert an instance-data file (a file cloud-init could not load
/// is an error here: every jinja part would be dropped).
pub(super) fn load_instance_data(
    path: &std::path::Path,
) -> Result<cloudfold::jinja::InstanceData, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("--instance-data {}: {e}", path.display()))?;
    cloudfold::jinja::InstanceData::from_json(&bytes).map_err(|e| {
        format!(
            "--instance-data {}: {e} (cloud-init: JinjaLoadError \"Loading Jinja instance data failed\"; every jinja part would be dropped)",
            path.display()
        )
    })
}

/// A template limit hit in any part: the fold is incomplete (exit 4, the
/// warning above names the flag).
pub(super) fn jinja_limit(f: &Folded) -> Option<Exit> {
    f.parts
        .iter()
        .any(|p| {
            matches!(
                p.jinja.as_deref(),
                Some(cloudfold::jinja::JinjaRender::Limit(_))
            )
        })
        .then(|| {
            eprintln!(
                "error: a template exceeded a cloudfold limit; raise it with the flag named above"
            );
            Exit::Limit
        })
}

/// What to say about a jinja part that reached no handler.
pub(super) fn jinja_reason(p: &cloudfold::userdata::PartReport) -> String {
    use cloudfold::jinja::JinjaRender;
    match p.jinja.as_deref() {
        Some(JinjaRender::Dropped { why, .. }) => why.describe(),
        Some(JinjaRender::Unsupported(m)) => format!(
            "cloudfold cannot reproduce this template's result exactly: {m}; the part is left out"
        ),
        Some(JinjaRender::Limit(m)) => format!("{m}; the part is left out"),
        _ => "a jinja template".to_owned(),
    }
}

/// Read, fold, report: the common front of `render` and `parts`; the fold
/// writes `text` (and no other: a dump not printed is time lost).
pub(super) fn fold(
    p: &PayloadArgs,
    text: FoldText,
) -> Result<Result<Folded, (Exit, String)>, Failure> {
    let opts = options(&p.fold)?;
    let includes = LocalIncludes {
        dir: p.fold.include_dir.clone(),
    };
    let max_input_size = p.fold.max_input_size;
    std::thread::scope(|scope| {
        // A large file's helper thread gets going while the file is read.
        let expected = size_hint(p.input.as_deref()).min(max_input_size);
        // The text in pieces, each written out in turn: a large one is
        // neither regrown nor joined first.
        let renderer = Renderer::start(scope, &opts, usize::try_from(expected).unwrap_or(0))
            .writing(text)
            .in_pieces();
        let input = match read_payload(p.input.as_deref(), max_input_size) {
            Ok(i) => i,
            // Over --max-input-size is a limit (exit 4), like the others.
            Err(e @ InputError::TooLarge(_)) => return Ok(Err((e.exit(), e.to_string()))),
            Err(e) => return Err(e.into()),
        };
        Ok(renderer
            .render_owned(input, &includes)
            .map_err(render_failure))
    })
}

/// The exit code and message for a fold that failed.
pub(super) fn render_failure(e: RenderError) -> (Exit, String) {
    if e.is_limit() {
        (Exit::Limit, e.to_string())
    } else {
        (
            Exit::Aborted,
            format!(
                "{e}\ncloud-init would abort user-data processing here: nothing is merged and no cloud-config is written"
            ),
        )
    }
}

/// One warning per part that cloud-init would not use as intended (without
/// the `warning: ` prefix).
pub(super) fn warning_lines(f: &Folded) -> Vec<String> {
    let mut out = Vec::new();
    for w in &f.warnings {
        out.push(format!("{}: {}", w.location(), w.message));
    }
    for p in &f.parts {
        if let Some(cloudfold::jinja::JinjaRender::Rendered { missing, .. }) = p.jinja.as_deref()
            && !missing.is_empty()
        {
            out.push(format!(
                "part {} ({}): cloud-init: Could not render jinja template variables in file '{}': {}",
                p.number,
                p.filename(),
                p.filename(),
                missing
                    .iter()
                    .map(|m| format!("'{m}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    for p in &f.parts {
        let what = match &p.outcome {
            PartOutcome::Rejected(r) => format!("cloud-init skips this cloud-config part: {r}"),
            PartOutcome::Unhandled => format!(
                "cloud-init ignores this part: unhandled content type {}",
                p.content_type()
            ),
            PartOutcome::JinjaDropped => jinja_reason(p),
            _ => continue,
        };
        out.push(format!("part {} ({}): {what}", p.number, p.filename()));
    }
    out
}

/// Print one warning line per part that cloud-init would not use as intended.
pub(super) fn print_warnings(f: &Folded) -> usize {
    let lines = warning_lines(f);
    for l in &lines {
        eprintln!("warning: {l}");
    }
    lines.len()
}

pub(super) fn run(a: &RenderArgs) -> Result<Exit, Failure> {
    if a.explain {
        let format = match a.format {
            RenderFormat::Yaml => ExplainFormat::Text,
            RenderFormat::Json => ExplainFormat::Json,
            RenderFormat::CloudInit | RenderFormat::CombinedJson => {
                return Err("--explain writes text or json (--format yaml or json)"
                    .to_owned()
                    .into());
            }
        };
        if a.layers.any() {
            return super::layers_cmd::explain(
                &a.payload,
                &a.layers,
                format,
                a.max_nodes,
                a.strict,
            );
        }
        return super::explain_cmd::explain_payload(&a.payload, format, a.max_nodes, a.strict);
    }
    let select = match &a.select {
        Some(_) if a.format == RenderFormat::CombinedJson => {
            return Err("--select prints yaml, json or cloud-init (--format combined-json is cloud-init's whole file)".to_owned().into());
        }
        Some(s) => Some(
            s.parse::<PathQuery>()
                .map_err(|e| format!("--select: {e}"))?,
        ),
        None => None,
    };
    if a.layers.any() {
        return super::layers_cmd::render(
            &a.payload,
            &a.layers,
            a.format,
            a.strict,
            select.as_ref(),
        );
    }
    if a.format == RenderFormat::CombinedJson {
        return Err("--format combined-json needs layers (--image, --etc-cloud, …): it is the config the modules see".to_owned().into());
    }
    let limits = options(&a.payload.fold)?.limits;
    let text = match a.format {
        _ if select.is_some() => FoldText::Nothing,
        RenderFormat::CloudInit => FoldText::CloudConfigTxt,
        RenderFormat::Yaml => FoldText::Readable,
        RenderFormat::Json | RenderFormat::CombinedJson => FoldText::Nothing,
    };
    let mut folded = match fold(&a.payload, text)? {
        Ok(f) => f,
        Err((code, msg)) => {
            eprintln!("error: {msg}");
            return Ok(code);
        }
    };
    let warned = print_warnings(&folded);
    if let Some(code) = jinja_limit(&folded) {
        return Ok(code);
    }
    let out = match (&select, a.format) {
        (Some(q), format) => match selected(folded.config.as_ref(), q, format, &limits)? {
            Ok(s) => Some(vec![s]),
            Err((code, msg)) => {
                eprintln!("error: {msg}");
                return Ok(code);
            }
        },
        (None, RenderFormat::CloudInit | RenderFormat::Yaml) => {
            Some(std::mem::take(&mut folded.pieces))
        }
        (None, RenderFormat::Json | RenderFormat::CombinedJson) => {
            // Written as the config is walked: the text of a large config
            // is never held whole.
            let mut w = super::stdout::stdout_writer();
            let r = match &folded.config {
                Some(c) => write_typed_json_pretty(c, limits.walk_limits(), &mut w),
                None => w.write_all(b"null").map_err(Into::into),
            };
            let r = match r {
                Ok(()) => w.write_all(b"\n").and_then(|()| w.flush()),
                Err(TypedJsonWriteError::Io(e)) => Err(e),
                Err(TypedJsonWriteError::Json(e)) if e.is_limit() => {
                    eprintln!("error: the merged config: {e}");
                    return Ok(Exit::Limit);
                }
                // Not a limit, and not the writer: a usage error (exit 2), as before.
                Err(e) => return Err(e.to_string().into()),
            };
            super::stdout::written(r)?;
            None
        }
    };
    // The process exits right after this: freeing every node of the merged
    // tree one by one would only cost time (~10 % of a large render).
    std::mem::forget(folded);
    if let Some(out) = out {
        super::stdout::write_stdout_pieces(&out)?;
        // As the tree above: the process exits next.
        std::mem::forget(out);
    }
    if a.strict && warned > 0 {
        return Ok(Exit::Strict);
    }
    Ok(Exit::Ok)
}
