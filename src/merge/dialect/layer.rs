//! `Layer`: one input document of a dialect merge, with its name, source id and kept tags.

use super::LayerError;
use crate::diagnostic::{Diagnostic, Label};
use crate::source::{Mark, SourceId, Span};
use crate::yaml::value::{Node, Value};
use crate::yaml::{LoadOptions, TagMap, decode_input, load_tagged};

/// One document to merge. Layers are given lowest priority first: a later
/// layer wins, in every dialect (a Hiera hierarchy lists them the other way).
#[derive(Debug, Clone)]
pub struct Layer {
    /// What diagnostics call it (the file's path as given).
    pub name: String,
    /// The source its nodes' spans point into.
    pub source: SourceId,
    /// The document (null for an empty one).
    pub root: Node,
    /// Local tags on its nodes (`!reset`, `!override`, `!default`, `!priority:N`, `!force`).
    pub tags: TagMap,
}

impl Layer {
    /// Load `text` as a layer: YAML 1.1 (PyYAML's resolution), local tags kept.
    pub fn load(
        name: impl Into<String>,
        source: SourceId,
        text: &str,
    ) -> Result<Layer, Box<Diagnostic>> {
        let name = name.into();
        let opts = LoadOptions {
            source,
            keep_local_tags: true,
            ..LoadOptions::default()
        };
        match load_tagged(text, &opts) {
            Ok(Some((root, tags))) => Ok(Layer {
                name,
                source,
                root,
                tags,
            }),
            Ok(None) => Ok(Layer {
                name,
                source,
                root: Node::new(
                    Value::Null,
                    Span::new(source, Mark::default(), Mark::default()),
                ),
                tags: TagMap::default(),
            }),
            Err(e) => {
                let at = e.mark.unwrap_or_default();
                Err(Box::new(
                    Diagnostic::new(&LayerError::Yaml {
                        name: name.clone(),
                        problem: e.problem.clone(),
                    })
                    .with_primary(Label::new(Span::new(source, at, at))),
                ))
            }
        }
    }

    /// [`Layer::load`] from bytes, decoded as PyYAML does (BOMs, UTF-8/16).
    pub fn load_bytes(
        name: impl Into<String>,
        source: SourceId,
        bytes: &[u8],
    ) -> Result<(Layer, String), Box<Diagnostic>> {
        let name = name.into();
        let text = decode_input(bytes).map_err(|e| {
            Box::new(Diagnostic::new(&LayerError::Encoding {
                name: name.clone(),
                problem: e.problem.clone(),
            }))
        })?;
        let text = text.into_owned();
        Layer::load(name, source, &text).map(|l| (l, text))
    }
}
