//! `cloudfold explain` (and `render --explain`): the merged config annotated with each value's origin, then each part's changes.

use super::args::{ExplainArgs, ExplainFormat, PayloadArgs};
use super::exit::Exit;
use super::input::{LocalIncludes, read_payload};
use super::render_cmd::{options, print_warnings, render_failure};
use cloudfold::explain::{ExplainError, ExplainLimits, JsonView, explain, to_text};

pub(super) fn run(a: &ExplainArgs) -> Result<Exit, String> {
    if a.layers.any() {
        return super::layers_cmd::explain(&a.payload, &a.layers, a.format, a.max_nodes, a.strict);
    }
    explain_payload(&a.payload, a.format, a.max_nodes, a.strict)
}

/// Read, fold, explain, print.
pub(super) fn explain_payload(
    p: &PayloadArgs,
    format: ExplainFormat,
    max_nodes: usize,
    strict: bool,
) -> Result<Exit, String> {
    let opts = options(&p.fold)?;
    let input = read_payload(p.input.as_deref(), p.fold.max_input_size)?;
    let includes = LocalIncludes {
        dir: p.fold.include_dir.clone(),
    };
    let (folded, ex) = match explain(&input, &opts, &includes, ExplainLimits { max_nodes }) {
        Ok(r) => r,
        Err(ExplainError::Render(e)) => {
            let (code, msg) = render_failure(e);
            eprintln!("error: {msg}");
            return Ok(code);
        }
        // TooManyNodes, and any failure a later cloudfold adds: a limit by its type, else
        // cloud-init's abort.
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(if e.is_limit() {
                Exit::Limit
            } else {
                Exit::Aborted
            });
        }
    };
    let warned = print_warnings(&folded);
    let out = match format {
        ExplainFormat::Text => to_text(&ex),
        ExplainFormat::Json => {
            let mut s = serde_json::to_string_pretty(&JsonView(&ex)).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    super::stdout::write_stdout(out.as_bytes())?;
    if strict && warned > 0 {
        return Ok(Exit::Strict);
    }
    Ok(Exit::Ok)
}
