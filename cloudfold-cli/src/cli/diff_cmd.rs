//! `cloudfold diff OLD NEW`: what changing one payload into another does at boot.

use super::args::{ColorWhen, DiffArgs, DiffFormat};
use super::exit::Exit;
use super::input::{LocalIncludes, read_payload};
use super::render_cmd::{options, render_failure, warning_lines};
use cloudfold::diff::{
    Budget, DiffError, DiffOptions, JsonView, Palette, diff, to_json, to_text, yaml_diff,
};
use cloudfold::userdata::FoldText;
use std::io::IsTerminal;
use std::path::Path;

fn is_stdin(p: &Path) -> bool {
    p.as_os_str() == "-"
}

fn name(p: &Path) -> String {
    if is_stdin(p) {
        "(stdin)".to_owned()
    } else {
        p.display().to_string()
    }
}

/// Colours for the text output: `--color`, else a terminal without `NO_COLOR`.
fn palette(when: ColorWhen) -> Palette {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let on = match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => !no_color && std::io::stdout().is_terminal(),
    };
    if on { Palette::ANSI } else { Palette::PLAIN }
}

/// A unified diff with its `-`, `+` and `@@` lines coloured.
fn colour_unified(text: &str, p: Palette) -> String {
    if p == Palette::PLAIN {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let colour = if line.starts_with("---") || line.starts_with("+++") {
            p.bold
        } else if line.starts_with('-') {
            p.red
        } else if line.starts_with('+') {
            p.green
        } else if line.starts_with("@@") {
            p.yellow
        } else {
            ""
        };
        if colour.is_empty() {
            out.push_str(line);
        } else {
            out.push_str(colour);
            out.push_str(line.trim_end_matches('\n'));
            out.push_str(p.reset);
            out.push('\n');
        }
    }
    out
}

pub fn run(a: &DiffArgs) -> Result<Exit, String> {
    if a.plan {
        eprintln!(
            "error: diff --plan is not yet available: it compares two boot plans, and cloudfold has no `plan` command yet"
        );
        return Ok(Exit::Usage);
    }
    if is_stdin(&a.old) && is_stdin(&a.new) {
        return Err("only one of OLD and NEW can be `-` (standard input)".to_owned());
    }
    let opts = options(&a.fold)?;
    let old = read_payload(Some(&a.old), a.fold.max_input_size)?;
    let new = read_payload(Some(&a.new), a.fold.max_input_size)?;
    let includes = LocalIncludes {
        dir: a.fold.include_dir.clone(),
    };
    let text = match a.format {
        DiffFormat::YamlDiff => FoldText::Readable,
        DiffFormat::Text | DiffFormat::Json => FoldText::Nothing,
    };
    let dopts = DiffOptions {
        config_only: a.config_only,
        max_align_work: a.max_align_work,
        max_nodes: a.fold.max_alias_expansion.saturating_mul(2),
    };
    let names = (name(&a.old), name(&a.new));
    let d = match diff(old, new, &opts, &includes, &dopts, text) {
        Ok(d) => d,
        Err(DiffError::Render { side, error }) => {
            let which = match side {
                cloudfold::diff::Side::Old => &names.0,
                cloudfold::diff::Side::New => &names.1,
            };
            let (_, msg) = render_failure(error);
            eprintln!("error: {} payload {which}: {msg}", side.name());
            return Ok(Exit::Usage);
        }
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Usage);
        }
    };
    // Each side's warnings (once when the payloads are the same).
    let sides = if d.identical_payloads {
        vec![(&names.0, &d.old)]
    } else {
        vec![(&names.0, &d.old), (&names.1, &d.new)]
    };
    for (label, side) in sides {
        // A cloud-config.txt is read as the config it holds, not folded as user-data.
        if side.is_cloud_config_txt {
            continue;
        }
        for l in warning_lines(&side.folded) {
            eprintln!("warning: {label}: {l}");
        }
    }
    let pal = palette(a.color);
    let out = match a.format {
        DiffFormat::Text => to_text(&d, (&names.0, &names.1), pal),
        DiffFormat::Json => {
            let j = to_json(JsonView {
                diff: &d,
                limits: opts.limits.walk_limits(),
            })
            .map_err(|e| format!("the merged config: {e}"))?;
            let mut s = serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        DiffFormat::YamlDiff => {
            let mut budget = Budget::new(a.max_align_work);
            let u = yaml_diff(
                &d.old.folded.readable,
                &d.new.folded.readable,
                (&names.0, &names.1),
                &mut budget,
            );
            colour_unified(&u, pal)
        }
    };
    super::stdout::write_stdout(out.as_bytes())?;
    Ok(if d.same_at_boot() {
        Exit::Ok
    } else {
        Exit::Differ
    })
}
