//! The `compose` dialect: Docker Compose's multi-file merge as compose-go 2.4.8 (`docker compose config`) does it.
//!
//! Each file is read as compose-go reads it — `!reset`/`!override` tags
//! resolved (`resolve_tags`), short syntax made long and unique
//! sequences de-duplicated (`canonicalize`) — then merged into the model
//! so far on the engine with `ComposeRules`: mappings merged, sequences
//! appended (keyed union for ports, volumes, secrets, configs and the other
//! sequences compose-go keeps unique), scalars overridden, a type mismatch
//! is "cannot override `<path>`", a null keeps the earlier value, `x-` keys
//! and `command`/`entrypoint`/`healthcheck.test`/`ulimits.*` replaced,
//! `environment`/`labels`/… flattened into `key=value` lists. The result is
//! the merged model compose-go prints with `config --no-normalize` (long
//! syntax), nodes keeping the spans they were written at.

mod canonical;
mod compose_error;
mod compose_path;
mod compose_rules;
mod go_text;
mod layer_tags;
mod model_checks;
mod node_build;
mod port_spec;
mod port_spec_error;
mod reset;
mod unicity;
mod volume_spec;
mod volume_spec_error;

internal! { use canonical::canonicalize; }
internal! { use compose_error::ComposeError; }
internal! { use compose_path::ComposePath; }
internal! { use compose_rules::{ComposeRules, Conflict}; }
internal! { use layer_tags::{LayerTags, resolve_tags}; }
internal! { use model_checks::check_model; }
internal! { use port_spec::{PortSpec, parse_ports}; }
internal! { use port_spec_error::PortSpecError; }
internal! { use reset::apply_resets; }
internal! { use volume_spec::{VolumeSpec, parse_volume}; }
internal! { use volume_spec_error::VolumeSpecError; }

use super::dialect::{DialectOutcome, Layer};
use crate::diagnostic::Diagnostic;
use crate::merge::{Limits, MergeObserver, NoObserver, merge_owned_with};
use crate::yaml::TagMap;
use crate::yaml::value::{Node, Value};

/// One file to merge: its name, document and the local tags it carried.
#[derive(Clone, Copy, Debug)]
pub struct ComposeFile<'a> {
    /// What messages call it (compose-go's "validating `<file>`: …").
    pub name: &'a str,
    /// The document's root.
    pub root: &'a Node,
    /// Its `!reset`/`!override` tags (from `yaml::load_tagged`).
    pub tags: &'a TagMap,
}

/// Merge `files` (lowest priority first) as `docker compose -f … config`
/// does, reporting each engine decision to `observer`. `None` for no files.
pub fn merge_files<O: MergeObserver + ?Sized>(
    files: &[ComposeFile<'_>],
    limits: &Limits,
    observer: &mut O,
) -> Result<Option<Node>, ComposeError> {
    let mut acc: Option<Node> = None;
    for (i, file) in files.iter().enumerate() {
        if !matches!(file.root.value(), Value::Map(_)) {
            return Err(ComposeError::NotAMapping {
                layer: i,
                span: file.root.span(),
            });
        }
        let (root, tags) = resolve_tags(file.root, file.tags);
        let root = canonicalize(&root)?;
        acc = Some(match acc {
            None => {
                check_model(&root, file.name)?;
                root
            }
            Some(model) => {
                // compose-go removes `!override` paths from the model too
                // before merging (which moves an overridden environment key
                // to the end once the lists are flattened); the engine's
                // Replace then gives provenance where the path survives.
                let removed: Vec<ComposePath> =
                    tags.resets.iter().chain(&tags.overrides).cloned().collect();
                let model = apply_resets(model, &removed);
                let rules = ComposeRules::new(tags.overrides);
                // Owned: a long list the files keep appending to is
                // extended in place, not copied for every file.
                match merge_owned_with(&rules, model, &root, limits, observer) {
                    Ok(merged) => {
                        check_model(&merged, file.name)?;
                        merged
                    }
                    Err((e, _)) => {
                        return Err(match rules.take_conflict() {
                            Some(c) => ComposeError::CannotOverride {
                                path: c.path,
                                old: c.old,
                                new: c.new,
                            },
                            None => ComposeError::Merge(e),
                        });
                    }
                }
            }
        });
    }
    Ok(acc)
}

/// Merge layers (lowest priority first) as `docker compose -f … config`
/// does: the `cloudfold merge --dialect compose` entry point.
pub fn merge(layers: &[Layer]) -> DialectOutcome {
    let files: Vec<ComposeFile<'_>> = layers
        .iter()
        .map(|l| ComposeFile {
            name: &l.name,
            root: &l.root,
            tags: &l.tags,
        })
        .collect();
    match merge_files(&files, &Limits::default(), &mut NoObserver) {
        Ok(Some(node)) => DialectOutcome::merged(node),
        Ok(None) => DialectOutcome::failed(vec![Diagnostic::new(&ComposeError::NoFiles)]),
        Err(e) => DialectOutcome::failed(vec![e.diagnostic(layers)]),
    }
}
