//! `cloudfold merge`: load the files as layers, merge them in the chosen dialect, print the result and the diagnostics.

use super::args::{Dialect, HieraStrategyArg, MergeArgs, MergeFormat, MessageFormat};
use super::exit::{Exit, Failure};
use super::input::read_input;
use super::stdout::{write_stdout, write_stdout_pieces};
use cloudfold::diagnostic::{Diagnostic, HumanRenderer, JsonRenderer, SourceFile, SourceMap};
use cloudfold::merge::dialect::{DialectOutcome, Layer, origins};
use cloudfold::merge::hiera::{HieraOptions, HieraStrategy};
use cloudfold::merge::{compose, hiera, keyed, nickel};
use cloudfold::source::SourceId;
use cloudfold::yaml::DumpOptions;
use cloudfold::yaml::{WalkLimits, to_typed_json};

pub(super) fn run(a: &MergeArgs) -> Result<Exit, Failure> {
    let mut sources = SourceMap::new();
    let mut layers = Vec::with_capacity(a.files.len());
    let mut failed = Vec::new();
    for (i, path) in a.files.iter().enumerate() {
        let name = path.display().to_string();
        let bytes = read_input(Some(path), a.max_input_size)?;
        let id = SourceId(u32::try_from(i).map_err(|_| "too many files".to_owned())?);
        match Layer::load_bytes(name.clone(), id, bytes) {
            Ok((layer, text)) => {
                sources.insert(id, SourceFile::new(name, text));
                layers.push(layer);
            }
            Err((d, text)) => {
                sources.insert(id, SourceFile::new(name, text));
                failed.push(*d);
            }
        }
    }
    if !failed.is_empty() {
        report(a.message_format, &failed, &sources)?;
        return Ok(Exit::Usage);
    }
    let outcome = merge(a, &layers);
    report(a.message_format, &outcome.diagnostics, &sources)?;
    let Some(merged) = &outcome.merged else {
        return Ok(Exit::Aborted);
    };
    // Every diagnostic is out: the layers' texts are read no more (`--explain`
    // names files only), and freed before the output is made.
    for (_, f) in sources.iter_mut() {
        f.text = String::new();
    }
    match a.format {
        MergeFormat::Yaml => {
            // In pieces, not one block: they fit into the layers' texts
            // freed above, where a block of the output's size was fresh
            // memory beside them.
            let pieces = DumpOptions::readable()
                .dump_pieces(merged)
                .map_err(|e| e.to_string())?;
            // A cloud-config needs its header for cloud-init to read it as
            // one; written apart, not copied in front of a dump of the
            // payload's size.
            if a.dialect == Dialect::CloudConfig {
                write_stdout(b"#cloud-config\n")?;
            }
            write_stdout_pieces(&pieces)?;
        }
        MergeFormat::Json => {
            let j = to_typed_json(merged, WalkLimits::default()).map_err(|e| e.to_string())?;
            let mut s = serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?;
            s.push('\n');
            write_stdout(s.as_bytes())?;
        }
    }
    if a.explain {
        write_stdout(explain(merged, &sources, a.max_explain_values)?.as_bytes())?;
    }
    // The process ends here: the layers' and the result's nodes are not
    // freed one by one first (a walk over every node for nothing).
    std::mem::forget(outcome);
    std::mem::forget(layers);
    Ok(Exit::Ok)
}

/// `--explain`: one line per value, its logical path and the file:line:col that supplied it.
fn explain(
    merged: &cloudfold::yaml::Node,
    sources: &SourceMap,
    budget: usize,
) -> Result<String, String> {
    let list = origins(merged, budget).map_err(|e| format!("{e} with --max-explain-values"))?;
    let width = list.iter().map(|o| o.path.len()).max().unwrap_or(0);
    let mut out = String::from("\n# where each value came from\n");
    for o in &list {
        let place = match sources.get(o.source) {
            Some(f) => format!("{}:{}:{}", f.name, o.start.line + 1, o.start.column + 1),
            None => "(built by the merge)".to_owned(),
        };
        out.push_str(&format!("# {:width$}  {place}\n", o.path));
    }
    Ok(out)
}

fn merge(a: &MergeArgs, layers: &[Layer]) -> DialectOutcome {
    match a.dialect {
        Dialect::Hiera => {
            let opts = HieraOptions {
                strategy: a.strategy.map(|s| match s {
                    HieraStrategyArg::First => HieraStrategy::First,
                    HieraStrategyArg::Unique => HieraStrategy::Unique,
                    HieraStrategyArg::Hash => HieraStrategy::Hash,
                    HieraStrategyArg::Deep => HieraStrategy::Deep,
                }),
                knockout_prefix: a.knockout_prefix.clone(),
                sort_merged_arrays: a.sort_merged_arrays,
                merge_hash_arrays: a.merge_hash_arrays,
            };
            hiera::merge(layers, &opts)
        }
        Dialect::Compose => compose::merge(layers),
        Dialect::Nickel => nickel::merge(layers),
        Dialect::CloudConfig => keyed::merge(layers),
    }
}

fn report(format: MessageFormat, diags: &[Diagnostic], sources: &SourceMap) -> Result<(), String> {
    if diags.is_empty() {
        return Ok(());
    }
    match format {
        MessageFormat::Human => eprint!("{}", HumanRenderer::new().render_all(diags, sources)),
        MessageFormat::Json => {
            let v = JsonRenderer::new().to_array(diags, sources);
            eprintln!(
                "{}",
                serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
            );
        }
    }
    Ok(())
}
