//! `Layer`: one input document of a dialect merge, with its name, source id and kept tags.

use super::LayerError;
use crate::diagnostic::{Diagnostic, Label};
use crate::source::{Mark, SourceId, Span};
use crate::yaml::value::{Node, Value};
use crate::yaml::{LoadOptions, TagMap, decode_input, load_tagged};
use std::borrow::Cow;

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
    /// Returns the text with the layer; on failure, the diagnostic and the
    /// bytes as (lossy) text for showing it. UTF-8 bytes become the text
    /// without a copy (a copy of each file was a fresh payload-sized block).
    pub fn load_bytes(
        name: impl Into<String>,
        source: SourceId,
        bytes: Vec<u8>,
    ) -> Result<(Layer, String), (Box<Diagnostic>, String)> {
        let name = name.into();
        let decoded = match decode_input(&bytes) {
            Ok(Cow::Borrowed(_)) => None,
            Ok(Cow::Owned(t)) => Some(t),
            Err(e) => {
                let d = Box::new(Diagnostic::new(&LayerError::Encoding {
                    name,
                    problem: e.problem.clone(),
                }));
                return Err((d, String::from_utf8_lossy(&bytes).into_owned()));
            }
        };
        match decoded {
            // UTF-16: the decoded text; a failure shows the bytes as they are.
            Some(text) => match Layer::load(name, source, &text) {
                Ok(l) => Ok((l, text)),
                Err(d) => Err((d, String::from_utf8_lossy(&bytes).into_owned())),
            },
            // UTF-8: the bytes are the text.
            None => {
                let text = match String::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                match Layer::load(name, source, &text) {
                    Ok(l) => Ok((l, text)),
                    Err(d) => Err((d, text)),
                }
            }
        }
    }
}
