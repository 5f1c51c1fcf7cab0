//! `cloudfold merge`: load the files as layers, merge them in the chosen dialect, print the result and the diagnostics.

use super::args::{Dialect, HieraStrategyArg, MergeArgs, MergeFormat, MessageFormat};
use super::exit::{Exit, Failure};
use super::input::read_input;
use super::stdout::write_stdout;
use cloudfold::diagnostic::{Diagnostic, HumanRenderer, JsonRenderer, SourceFile, SourceMap};
use cloudfold::merge::dialect::{DialectOutcome, Layer, origins};
use cloudfold::merge::hiera::{HieraOptions, HieraStrategy};
use cloudfold::merge::{compose, hiera, keyed, nickel};
use cloudfold::source::SourceId;
use cloudfold::yaml::{DumpOptions, dump_after};
use cloudfold::yaml::{WalkLimits, to_typed_json};

/// Merged outputs guessed larger than this have their size reserved (the
/// emitter writes a document of up to this size on two threads when given a
/// size).
const RESERVED_FROM: usize = 16 << 20;

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
    let mut read = 0usize;
    for (_, f) in sources.iter_mut() {
        read = read.saturating_add(f.text.len());
        f.text = String::new();
    }
    let out = match a.format {
        MergeFormat::Yaml => {
            // Reserved for every layer's text (a dump is about the size it
            // was read, and appended lists hold them all): a large merged
            // output is then not regrown by doubling from its first layer's
            // size or from nothing. Smaller ones are left to the emitter's
            // own guess: a reserved size there would have it write the
            // document on two threads, which a merge does not need.
            let capacity = match read.saturating_add(read / 8) {
                c if c > RESERVED_FROM => c,
                _ => 0,
            };
            let text = dump_after("", merged, &DumpOptions::readable(), capacity)
                .map_err(|e| e.to_string())?;
            // A cloud-config needs its header for cloud-init to read it as
            // one; written apart, not copied in front of a dump of the
            // payload's size.
            if a.dialect == Dialect::CloudConfig {
                write_stdout(b"#cloud-config\n")?;
            }
            text
        }
        MergeFormat::Json => {
            let j = to_typed_json(merged, WalkLimits::default()).map_err(|e| e.to_string())?;
            let mut s = serde_json::to_string_pretty(&j).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    write_stdout(out.as_bytes())?;
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
