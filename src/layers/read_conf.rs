//! `ConfReader`: cloud-init's `util.read_conf` (optional jinja rendering, then `load_yaml` to a dict) with every release's failure behaviour.

use super::config_templater::{ConfigTemplater, TemplateKind, TemplateOutcome, template_kind};
use super::layer_note::{LayerNote, LayersError, NoteKind, Trap};
use super::source_registry::{LayerKind, SourceInfo, SourceText, Sources};
use crate::source::SourceId;
use crate::userdata::Release;
use crate::yaml::value::{Map, Node, Value};
use crate::yaml::{LoadOptions, YamlError, load};
use std::sync::Arc;

/// A config file as cloud-init finds it: its path and bytes.
#[derive(Clone, Debug)]
pub struct ConfigFile {
    /// The path cloud-init reads it at (`/etc/cloud/cloud.cfg.d/90_x.cfg`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl ConfigFile {
    /// A file at `path` holding `bytes`.
    pub fn new(path: impl Into<String>, bytes: impl Into<Vec<u8>>) -> ConfigFile {
        ConfigFile {
            path: path.into(),
            bytes: bytes.into(),
        }
    }
}

/// What the layered fold shares while it reads files: the release, the
/// sources registered so far, the notes, and the templater (present only
/// when the instance-data file exists).
pub(crate) struct ConfReader<'a> {
    pub release: Release,
    pub sources: Sources,
    pub notes: Vec<LayerNote>,
    pub templater: Option<&'a dyn ConfigTemplater>,
    /// Every file `read_conf` loaded to a mapping, by source.
    pub read: Vec<(SourceId, Node)>,
    /// The data of every user-data and vendor-data part.
    pub originals: Vec<Node>,
}

/// An empty dict, as `read_conf` returns for a missing or unusable file.
pub(crate) fn empty_dict() -> Node {
    Node::synthetic(Value::Map(Map::default()))
}

impl ConfReader<'_> {
    pub(super) fn crash(
        &self,
        during: impl Into<String>,
        exception: impl Into<String>,
    ) -> LayersError {
        LayersError::Crash {
            release: self.release.as_str(),
            during: during.into(),
            exception: exception.into(),
        }
    }

    pub(super) fn note(
        &mut self,
        kind: NoteKind,
        source: Option<SourceId>,
        about: &str,
        message: String,
    ) {
        self.notes.push(LayerNote {
            kind,
            source,
            about: about.to_owned(),
            path: None,
            message,
        });
    }

    /// `util.read_conf(path, instance_data_file=…)`: `templated` says
    /// whether the caller passes the instance-data file (only the /etc files).
    pub(super) fn read_conf(
        &mut self,
        file: &ConfigFile,
        layer: LayerKind,
        label: String,
        templated: bool,
    ) -> Result<Node, LayersError> {
        // load_file decodes strictly: a file that is not UTF-8 is a
        // UnicodeDecodeError nobody catches.
        let text = std::str::from_utf8(&file.bytes).map_err(|e| {
            self.crash(
                format!("reading {}", file.path),
                format!(
                    "UnicodeDecodeError: 'utf-8' codec can't decode byte at position {}",
                    e.valid_up_to()
                ),
            )
        })?;
        let mut text: std::borrow::Cow<'_, str> = text.into();
        let templater = if templated { self.templater } else { None };
        match templater {
            Some(t) => match t.render(&text, &file.path) {
                TemplateOutcome::NotJinja => {}
                TemplateOutcome::Rendered(r) => text = r.into(),
                TemplateOutcome::Nothing(why) => {
                    self.note(
                        NoteKind::Trap(Trap::TemplateFailed),
                        None,
                        &label,
                        format!("the template renders to nothing ({why})"),
                    );
                    return match self.release {
                        // read_conf: `if config_file is None: return {}`.
                        Release::V22_4 => Ok(empty_dict()),
                        // load_yaml(None): None.decode fails outside its try.
                        Release::V25_1 => Err(self.crash(
                            format!("reading {}", file.path),
                            "AttributeError: 'NoneType' object has no attribute 'decode'",
                        )),
                    };
                }
                TemplateOutcome::Syntax(msg) => match self.release {
                    Release::V22_4 => {
                        return Err(self.crash(
                            format!("rendering {}", file.path),
                            format!("TemplateSyntaxError: {msg}"),
                        ));
                    }
                    Release::V25_1 => self.note(
                        NoteKind::Trap(Trap::TemplateFailed),
                        None,
                        &label,
                        format!("Failed to render templated yaml config file '{}'. {msg}: loaded unrendered", file.path),
                    ),
                },
                TemplateOutcome::LoadFailed(msg) => self.note(
                    NoteKind::InstanceDataUnreadable,
                    None,
                    &label,
                    format!("Could not apply Jinja template: {msg}; loaded unrendered"),
                ),
                TemplateOutcome::UnknownType(t) => {
                    return Err(self.crash(
                        format!("reading {}", file.path),
                        format!("ValueError: Unknown template rendering type '{t}' requested"),
                    ));
                }
                TemplateOutcome::Raised(msg) => {
                    return Err(self.crash(format!("rendering {}", file.path), msg));
                }
                TemplateOutcome::Unsupported(msg) => {
                    return Err(LayersError::Unsupported(format!("{}: {msg}", file.path)));
                }
            },
            None if templated && template_kind(&text) == TemplateKind::Jinja => self.note(
                NoteKind::TemplateNotRendered,
                None,
                &label,
                "a jinja template, loaded unrendered: without an instance-data file (--instance-data) cloud-init does not render it".to_owned(),
            ),
            None => {}
        }
        let id = self.sources.push(SourceInfo {
            layer,
            label: label.clone(),
            text: SourceText::Text(Arc::from(&*text)),
            part: None,
            shift: (0, 0),
        });
        let data = self.load_yaml_dict(&text, id, &label)?;
        self.read.push((id, data.clone()));
        Ok(data)
    }

    /// `util.load_yaml(text, default={})`: a mapping, or `{}` with a
    /// warning; errors Python's loader does not catch are crashes.
    pub(super) fn load_yaml_dict(
        &mut self,
        text: &str,
        id: SourceId,
        label: &str,
    ) -> Result<Node, LayersError> {
        match self.load_yaml(text, id, label)? {
            Some(n) => Ok(n),
            None => Ok(empty_dict()),
        }
    }

    /// `util.load_yaml(text, default=None)`: `None` for nothing, a
    /// non-mapping or an invalid document (the latter two with a warning).
    pub(super) fn load_yaml(
        &mut self,
        text: &str,
        id: SourceId,
        label: &str,
    ) -> Result<Option<Node>, LayersError> {
        let opts = LoadOptions {
            source: id,
            python_unicode_tag: self.release == Release::V22_4,
            ..LoadOptions::default()
        };
        match load(text, &opts) {
            Ok(None) => Ok(None),
            Ok(Some(n)) if matches!(n.value(), Value::Map(_)) => Ok(Some(n)),
            Ok(Some(n)) => {
                self.note(
                    NoteKind::NotAMapping,
                    Some(id),
                    label,
                    format!(
                        "Failed loading yaml blob. Yaml load allows (<class 'dict'>,) root types, but got {} instead: cloud-init uses {{}}",
                        n.type_name()
                    ),
                );
                Ok(None)
            }
            Err(e) if e.class.caught_by_load_yaml() => {
                self.note(
                    NoteKind::InvalidYaml,
                    Some(id),
                    label,
                    format!(
                        "Failed loading yaml blob: {}; cloud-init uses {{}}",
                        yaml_message(&e)
                    ),
                );
                Ok(None)
            }
            Err(e) => Err(self.crash(
                format!("loading {label}"),
                format!("{}: {}", e.class.python_name(), yaml_message(&e)),
            )),
        }
    }
}

fn yaml_message(e: &YamlError) -> String {
    e.to_string()
}
