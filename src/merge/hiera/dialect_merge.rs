//! [`merge`]: the `hiera` dialect of `cloudfold merge` — every top-level key looked up over the layers, with diagnostics.

use super::{HieraError, HieraLayer, HieraOptions, Hierarchy};
use crate::diagnostic::{Diagnostic, Label};
use crate::merge::dialect::{DialectOutcome, Layer};

/// Merge `layers` (lowest priority first) as Hiera would look up each top-level key.
///
/// The output holds every string key of every layer except
/// `lookup_options`, in order of first appearance from the lowest layer;
/// the first key whose lookup fails fails the merge, with a diagnostic
/// labelling both values where there are two (the higher first).
pub fn merge(layers: &[Layer], opts: &HieraOptions) -> DialectOutcome {
    let cli = match opts.behavior() {
        Ok(b) => b,
        Err(e) => return DialectOutcome::failed(vec![diagnostic(&e)]),
    };
    let hierarchy = Hierarchy::new(
        layers
            .iter()
            .map(|l| HieraLayer {
                name: l.name.clone(),
                root: (!l.root.is_null()).then(|| l.root.clone()),
            })
            .collect(),
    );
    match hierarchy.merge_all(cli.as_ref()) {
        Ok(merged) => {
            let mut out = DialectOutcome::merged(merged.to_node());
            for w in &merged.warnings {
                let mut d = Diagnostic::new(w);
                if let Some(at) = w.at {
                    d = d.with_primary(Label::new(at));
                }
                out.diagnostics.push(d);
            }
            out
        }
        Err(e) => {
            let mut diags: Vec<Diagnostic> = Vec::new();
            for w in hierarchy.warnings() {
                let mut d = Diagnostic::new(w);
                if let Some(at) = w.at {
                    d = d.with_primary(Label::new(at));
                }
                diags.push(d);
            }
            diags.push(diagnostic(&e));
            DialectOutcome::failed(diags)
        }
    }
}

/// The error as a diagnostic: the first operand is the primary label
/// (the higher-priority value), the second a secondary one.
pub(super) fn diagnostic(e: &HieraError) -> Diagnostic {
    let mut d = Diagnostic::new(e);
    let two = e.operands.len() > 1;
    for (i, span) in e.operands.iter().enumerate() {
        if i == 0 {
            let label = Label::new(*span);
            d = d.with_primary(if two {
                label.with_message("higher priority")
            } else {
                label
            });
        } else {
            d = d.with_secondary(Label::new(*span).with_message("lower priority"));
        }
    }
    d
}
