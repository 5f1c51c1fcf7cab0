//! `cloudfold explain` (and `render --explain`): the merged config annotated with each value's origin, then each part's changes.

use super::args::{ExplainArgs, ExplainFormat, PayloadArgs};
use super::exit::{Exit, Failure};
use super::input::{LocalIncludes, read_payload};
use super::render_cmd::{options, print_warnings, render_failure};
use cloudfold::explain::{ExplainError, ExplainLimits, JsonView, explain, write_text};
use std::io::Write;

pub(super) fn run(a: &ExplainArgs) -> Result<Exit, Failure> {
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
) -> Result<Exit, Failure> {
    let opts = options(&p.fold)?;
    let input = read_payload(p.input.as_deref(), p.fold.max_input_size)?;
    let includes = LocalIncludes {
        dir: p.fold.include_dir.clone(),
    };
    let (folded, ex) = match explain(input, &opts, &includes, ExplainLimits { max_nodes }) {
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
    match format {
        ExplainFormat::Text => {
            // Written as it is made, as the JSON is.
            let mut w = FmtToIo {
                inner: super::stdout::stdout_writer(),
                error: None,
            };
            let r = match write_text(&ex, &mut w) {
                Ok(()) => w.inner.flush(),
                Err(std::fmt::Error) => Err(w
                    .error
                    .unwrap_or_else(|| std::io::Error::other("formatting failed"))),
            };
            super::stdout::written(r)?;
        }
        ExplainFormat::Json => {
            // Written as it is walked: a large payload's explanation is
            // hundreds of MB of JSON, which held whole doubled the peak. The
            // view hands its text over in chunks: no buffer here.
            let mut w = std::io::stdout().lock();
            let r = JsonView(&ex)
                .write_pretty(&mut w)
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush());
            super::stdout::written(r)?;
        }
    }
    if strict && warned > 0 {
        return Ok(Exit::Strict);
    }
    Ok(Exit::Ok)
}

/// An `io::Write` as a `fmt::Write` (the text view writes `fmt`), keeping
/// the I/O error a write met.
struct FmtToIo<W> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> std::fmt::Write for FmtToIo<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            std::fmt::Error
        })
    }
}
