//! `EtcCloud`: a directory standing for `/etc/cloud`, and cloud-init's `read_conf_with_confd` / `read_conf_d` over it.

use super::config_templater::{TemplateKind, template_kind};
use super::layer_note::{LayersError, NoteKind};
use super::merge_many::merge_many_dict;
use super::read_conf::{ConfReader, ConfigFile};
use super::source_registry::LayerKind;
use crate::python::py_strip;
use crate::yaml::value::{Node, Value};
use std::collections::BTreeMap;

/// One entry under `/etc/cloud`, as `os.path.isfile` / `isdir` see it
/// (symbolic links followed).
#[derive(Clone, Debug)]
pub enum EtcEntry {
    /// A regular file and its bytes.
    File(Vec<u8>),
    /// A directory.
    Dir,
    /// Anything else (a fifo, a dangling link): never read.
    Other,
    /// A regular file that could not be read (the reason): skipped with a warning.
    Unreadable(String),
}

/// The files cloud-init reads under `/etc/cloud`: paths relative to it
/// (`cloud.cfg`, `cloud.cfg.d/90_dpkg.cfg`), `/`-separated.
#[derive(Clone, Debug, Default)]
pub struct EtcCloud {
    entries: BTreeMap<String, EtcEntry>,
    /// The built-in image profile whose files some entries are.
    pub profile: Option<&'static str>,
    /// The entries that are the profile's data (not replaced since).
    profile_files: std::collections::BTreeSet<String>,
}

/// `/etc/cloud`, as cloud-init names it.
pub const ETC_CLOUD: &str = "/etc/cloud";

impl EtcCloud {
    /// An empty `/etc/cloud`.
    pub fn new() -> EtcCloud {
        EtcCloud::default()
    }

    /// Add (or replace) the entry at `rel` (relative to `/etc/cloud`); its
    /// parent directories are added too.
    pub fn insert(&mut self, rel: &str, entry: EtcEntry) {
        let mut parent = rel;
        while let Some((p, _)) = parent.rsplit_once('/') {
            self.entries.entry(p.to_owned()).or_insert(EtcEntry::Dir);
            parent = p;
        }
        self.profile_files.remove(rel);
        self.entries.insert(rel.to_owned(), entry);
    }

    /// Add a file of the built-in image `profile`.
    pub fn insert_profile_file(&mut self, profile: &'static str, rel: &str, bytes: &[u8]) {
        self.insert(rel, EtcEntry::File(bytes.to_vec()));
        self.profile = Some(profile);
        self.profile_files.insert(rel.to_owned());
    }

    /// The entry at `rel`.
    pub fn get(&self, rel: &str) -> Option<&EtcEntry> {
        self.entries.get(rel)
    }

    /// Every entry, by relative path.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &EtcEntry)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    fn is_dir(&self, rel: &str) -> bool {
        rel.is_empty() || matches!(self.entries.get(rel), Some(EtcEntry::Dir))
    }

    /// `os.listdir` of a directory: the names directly in it.
    fn list(&self, dir: &str) -> Vec<(&str, &EtcEntry)> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.entries
            .iter()
            .filter_map(|(k, v)| {
                let name = k.strip_prefix(&prefix)?;
                (!name.is_empty() && !name.contains('/')).then_some((name, v))
            })
            .collect()
    }

    /// The full path cloud-init reads `rel` at.
    pub fn path_of(rel: &str) -> String {
        if rel.is_empty() {
            ETC_CLOUD.to_owned()
        } else {
            format!("{ETC_CLOUD}/{rel}")
        }
    }

    /// How a file is named in reports: its path, and the profile whose data it is.
    pub fn label_of(&self, rel: &str) -> String {
        match self.profile {
            Some(p) if self.profile_files.contains(rel) => {
                format!("{} ({p} profile)", Self::path_of(rel))
            }
            _ => Self::path_of(rel),
        }
    }

    /// Whether any file here is a jinja template.
    pub fn has_templates(&self) -> bool {
        self.entries.values().any(|e| match e {
            EtcEntry::File(b) => {
                std::str::from_utf8(b).is_ok_and(|t| template_kind(t) == TemplateKind::Jinja)
            }
            _ => false,
        })
    }
}

/// Where a `conf_d:` value points inside `/etc/cloud` (relative path), if it does.
/// A relative value is relative to cloud-init's working directory, `/`.
pub(crate) fn confd_rel(value: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in value.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    match parts.as_slice() {
        ["etc", "cloud", rest @ ..] => Some(rest.join("/")),
        _ => None,
    }
}

/// Python's `str` ordering (code points; UTF-8 bytes order the same way).
fn py_sorted_reverse(names: &mut [(&str, &EtcEntry)]) {
    names.sort_by(|a, b| b.0.cmp(a.0));
}

impl ConfReader<'_> {
    /// `util.read_conf_d(confd)`: the `.cfg` regular files, read in reverse
    /// sorted order and merged first-wins (the last name wins).
    pub(super) fn read_conf_d(&mut self, etc: &EtcCloud, dir: &str) -> Result<Node, LayersError> {
        let mut names = etc.list(dir);
        py_sorted_reverse(&mut names);
        let mut cfgs = Vec::new();
        for (name, entry) in names {
            if !name.ends_with(".cfg") {
                continue;
            }
            let rel = if dir.is_empty() {
                name.to_owned()
            } else {
                format!("{dir}/{name}")
            };
            let label = etc.label_of(&rel);
            match entry {
                EtcEntry::File(bytes) => {
                    let file = ConfigFile::new(EtcCloud::path_of(&rel), bytes.clone());
                    cfgs.push(self.read_conf(&file, LayerKind::EtcCloud, label, true)?);
                }
                EtcEntry::Unreadable(why) => self.note(
                    NoteKind::ConfdEntrySkipped,
                    None,
                    &label,
                    format!("cannot be read ({why}): cloud-init skips it"),
                ),
                EtcEntry::Dir | EtcEntry::Other => self.note(
                    NoteKind::ConfdEntrySkipped,
                    None,
                    &label,
                    "not a regular file: cloud-init skips it".to_owned(),
                ),
            }
        }
        merge_many_dict(self, &cfgs, "merging /etc/cloud/cloud.cfg.d")
    }

    /// `util.read_conf_with_confd("/etc/cloud/cloud.cfg")`.
    pub(super) fn read_conf_with_confd(&mut self, etc: &EtcCloud) -> Result<Node, LayersError> {
        let cfg = match etc.get("cloud.cfg") {
            Some(EtcEntry::File(bytes)) => {
                let file = ConfigFile::new(EtcCloud::path_of("cloud.cfg"), bytes.clone());
                self.read_conf(&file, LayerKind::EtcCloud, etc.label_of("cloud.cfg"), true)?
            }
            Some(EtcEntry::Unreadable(why)) => {
                let label = etc.label_of("cloud.cfg");
                self.note(
                    NoteKind::ConfdEntrySkipped,
                    None,
                    &label,
                    format!("cannot be read ({why}): cloud-init skips it"),
                );
                super::read_conf::empty_dict()
            }
            _ => super::read_conf::empty_dict(),
        };
        let mut confd: Option<String> = None;
        match cfg.as_map().and_then(|m| m.get_str("conf_d")) {
            Some(v) => {
                if v.is_truthy() {
                    let Some(s) = v.as_py_str() else {
                        return Err(self.crash(
                            "reading /etc/cloud/cloud.cfg",
                            format!(
                                "TypeError: Config file /etc/cloud/cloud.cfg contains 'conf_d' with non-string type {}",
                                v.type_name()
                            ),
                        ));
                    };
                    let s = s.to_string_lossy();
                    let value = py_strip(&s);
                    match confd_rel(value) {
                        // `str(confd).strip()` empty: falsy, nothing read.
                        _ if value.is_empty() => {}
                        Some(rel) => confd = Some(rel),
                        None => {
                            let label = etc.label_of("cloud.cfg");
                            self.note(
                                NoteKind::ConfdOutside,
                                None,
                                &label,
                                format!("conf_d: {value} is outside /etc/cloud: cloudfold cannot see it and reads no conf.d directory"),
                            );
                        }
                    }
                }
            }
            None => {
                if etc.is_dir("cloud.cfg.d") {
                    confd = Some("cloud.cfg.d".to_owned());
                }
            }
        }
        let mut cfgs = Vec::new();
        if let Some(dir) = confd.filter(|d| etc.is_dir(d)) {
            cfgs.push(self.read_conf_d(etc, &dir)?);
        }
        cfgs.push(cfg);
        merge_many_dict(self, &cfgs, "merging /etc/cloud/cloud.cfg with its conf.d")
    }
}

/// Whether a merged value is a mapping (every `read_conf` result is).
pub(crate) fn is_map(n: &Node) -> bool {
    matches!(n.value(), Value::Map(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confd_paths() {
        assert_eq!(
            confd_rel("/etc/cloud/cloud.cfg.d"),
            Some("cloud.cfg.d".to_owned())
        );
        assert_eq!(confd_rel("etc/cloud/x.d/"), Some("x.d".to_owned()));
        assert_eq!(confd_rel("/etc//cloud/./a/../b.d"), Some("b.d".to_owned()));
        assert_eq!(confd_rel("/etc/cloud"), Some(String::new()));
        assert_eq!(confd_rel("/opt/cfg.d"), None);
    }
}
