//! `cloudfold diff OLD NEW`: what changing one payload into another does at boot.

use super::args::BootArg;
use super::args::{ColorWhen, DiffArgs, DiffFormat};
use super::exit::{Exit, Failure};
use super::input::{LocalIncludes, read_payload};
use super::layers_cmd::{layer_inputs, note_line, release_of};
use super::plan_cmd::instance_id_of;
use super::render_cmd::load_instance_data;
use super::render_cmd::{options, render_failure, warning_lines};
use cloudfold::diff::{
    Budget, DiffError, DiffOptions, JsonView, Palette, diff, diff_layered, diff_plans,
    plan_diff_json, plan_diff_text, to_json, to_text, yaml_diff,
};
use cloudfold::layers::{LayerInputs, Layered, explain_layers, fold_layers};
use cloudfold::plan::{Boot, PlanOptions, plan};
use cloudfold::userdata::{FoldText, Release, UserDataOptions};
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

/// A layered config as `render` with layers prints it.
fn readable(config: &cloudfold::yaml::Node) -> Result<String, String> {
    cloudfold::yaml::dump_after(
        "#cloud-config\n",
        config,
        &cloudfold::yaml::DumpOptions::readable(),
        0,
    )
    .map_err(|e| format!("cannot write the layered config: {e}"))
}

/// What cloud-init logs while layering (and the traps): once when both sides
/// have it, else with the side's name.
fn layer_warnings(
    old: &Layered,
    new: &Layered,
    names: &(String, String),
    identical: bool,
    max_nodes: usize,
) {
    let lines = |l: &Layered| -> Vec<String> {
        // The notes and the traps, as `render` with layers prints them.
        let notes = match explain_layers(l, max_nodes) {
            Ok(ex) => ex.notes,
            Err(_) => l.notes.clone(),
        };
        let mut v: Vec<String> = notes.iter().map(note_line).collect();
        if let Some(e) = &l.init_stage_error {
            v.push(format!(
                "warning: cloud-init's init stage fails ({e}); later stages run with what was written"
            ));
        }
        v
    };
    let (lo, ln) = (lines(old), lines(new));
    if identical {
        lo.iter().for_each(|l| eprintln!("{l}"));
        return;
    }
    for l in &lo {
        if ln.contains(l) {
            eprintln!("{l}");
        } else {
            eprintln!("{}", l.replacen(": ", &format!(": {}: ", names.0), 1));
        }
    }
    for l in ln.iter().filter(|l| !lo.contains(l)) {
        eprintln!("{}", l.replacen(": ", &format!(": {}: ", names.1), 1));
    }
}

pub(super) fn run(a: &DiffArgs) -> Result<Exit, Failure> {
    if is_stdin(&a.old) && is_stdin(&a.new) {
        return Err("only one of OLD and NEW can be `-` (standard input)"
            .to_owned()
            .into());
    }
    if a.plan {
        return plan_diff(a);
    }
    let layered = a.layers.any();
    let opts = if layered {
        UserDataOptions {
            release: release_of(&a.fold, &a.layers)?,
            ..options(&a.fold)?
        }
    } else {
        options(&a.fold)?
    };
    let layers = if layered {
        Some(layer_inputs(&a.fold, &a.layers, opts.release)?)
    } else {
        None
    };
    let old = read_payload(Some(&a.old), a.fold.max_input_size)?;
    let new = read_payload(Some(&a.new), a.fold.max_input_size)?;
    let includes = LocalIncludes {
        dir: a.fold.include_dir.clone(),
    };
    let text = match a.format {
        // With layers, the YAML compared is the layered configs' (dumped below).
        DiffFormat::YamlDiff if !layered => FoldText::Readable,
        DiffFormat::YamlDiff => FoldText::Nothing,
        DiffFormat::Text | DiffFormat::Json => FoldText::Nothing,
    };
    let dopts = DiffOptions {
        config_only: a.config_only,
        max_align_work: a.max_align_work,
        max_nodes: a.fold.max_alias_expansion.saturating_mul(2),
    };
    let names = (name(&a.old), name(&a.new));
    let found = match &layers {
        Some(l) => diff_layered(old, new, l, &opts, &includes, &dopts, text),
        None => diff(old, new, &opts, &includes, &dopts, text),
    };
    let d = match found {
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
    if let Some(l) = &d.layers {
        layer_warnings(
            &l.0,
            &l.1,
            &names,
            d.identical_payloads,
            opts.limits.max_alias_expansion,
        );
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
            let (old_yaml, new_yaml) = match &d.layers {
                Some(l) => (readable(&l.0.config)?, readable(&l.1.config)?),
                None => (d.old.folded.readable.clone(), d.new.folded.readable.clone()),
            };
            let u = yaml_diff(&old_yaml, &new_yaml, (&names.0, &names.1), &mut budget);
            colour_unified(&u, pal)
        }
    };
    let same = d.same_at_boot();
    // The process ends here: freeing both folds and every change item by
    // item would cost what comparing them did (as `render` does).
    std::mem::forget(d);
    super::stdout::write_stdout(out.as_bytes())?;
    std::mem::forget(out);
    Ok(if same { Exit::Ok } else { Exit::Differ })
}

/// `diff --plan`: each payload as the user-data under the same layers (an
/// image's `/etc/cloud` when none is given, as `plan` does), each boot
/// planned, the two plans compared.
fn plan_diff(a: &DiffArgs) -> Result<Exit, Failure> {
    if a.format == DiffFormat::YamlDiff {
        eprintln!("error: diff --plan writes text or json, not yaml-diff");
        return Ok(Exit::Usage);
    }
    let mut layer_args = a.layers.clone();
    if layer_args.etc_cloud.is_none() && layer_args.image.is_none() {
        // Modules run only from the lists in /etc/cloud: without one, an image's.
        let image = match release_of(&a.fold, &layer_args)? {
            Release::V22_4 => "debian-12",
            Release::V25_1 => "debian-13",
        };
        layer_args.image = Some(image.to_owned());
    }
    let opts = UserDataOptions {
        release: release_of(&a.fold, &layer_args)?,
        ..options(&a.fold)?
    };
    let layers = layer_inputs(&a.fold, &layer_args, opts.release)?;
    let instance_id = match (&a.instance_id, &a.fold.instance_data) {
        (Some(id), _) => Some(id.clone()),
        (None, Some(path)) => instance_id_of(load_instance_data(path)?.raw()),
        (None, None) => None,
    };
    let popts = PlanOptions {
        boot: match a.boot {
            BootArg::First => Boot::First,
            BootArg::Next => Boot::Next,
        },
        instance_id,
    };
    let includes = LocalIncludes {
        dir: a.fold.include_dir.clone(),
    };
    let names = (name(&a.old), name(&a.new));
    let old = read_payload(Some(&a.old), a.fold.max_input_size)?;
    let new = read_payload(Some(&a.new), a.fold.max_input_size)?;
    let identical = old == new;
    let fold = |payload: Vec<u8>, which: &str| -> Result<Layered, String> {
        let inputs = LayerInputs {
            user_data: Some(payload),
            ..layers.clone()
        };
        fold_layers(&inputs, &opts, &includes).map_err(|e| format!("payload {which}: {e}"))
    };
    let folded = fold(old, &names.0).and_then(|lo| {
        let ln = if identical {
            lo.clone()
        } else {
            fold(new, &names.1)?
        };
        Ok((lo, ln))
    });
    let (lo, ln) = match folded {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Usage);
        }
    };
    layer_warnings(&lo, &ln, &names, identical, opts.limits.max_alias_expansion);
    let (po, pn) = (plan(&lo, &popts), plan(&ln, &popts));
    let d = diff_plans(&po, &pn, &mut Budget::new(a.max_align_work));
    let out = match a.format {
        DiffFormat::Json => {
            let mut s = serde_json::to_string_pretty(&plan_diff_json(&d, &po))
                .map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
        DiffFormat::Text | DiffFormat::YamlDiff => {
            plan_diff_text(&d, &po, (&names.0, &names.1), palette(a.color))
        }
    };
    super::stdout::write_stdout(out.as_bytes())?;
    Ok(if d.is_empty() { Exit::Ok } else { Exit::Differ })
}
