//! `load_py_text`: cloud-init's `util.load_yaml` core on a Python string (surrogates included).

use super::user_data_options::{Release, UserDataOptions};
use crate::source::SourceId;
use crate::yaml::value::PyStr;
use crate::yaml::{LoadOptions, Node, YamlError, check_printable, load};

/// Where in cloud-init a document is loaded: its own call frames there come on
/// top of PyYAML's, so Python's `RecursionError` comes earlier than under a
/// plain `yaml.safe_load` ([`crate::yaml::PYYAML_MAX_DEPTH`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadSite {
    /// The cloud-config part handler (also the launch-index pre-parse, whose
    /// failures only matter through the handler's).
    Handler,
    /// `#cloud-config-archive` in the user-data processor.
    Archive,
}

impl LoadSite {
    /// Python frames cloud-init itself has on the stack when it calls
    /// `safe_load` here, measured against the oracle (the same for 22.4 and
    /// 25.1, `tests/oracle/yaml_depth_oracle.rs`): in a cloud-config part a flow list
    /// nested 485 deep loads and 486 does not, a block one 484 and 485; in an
    /// archive, 488 and 489 for a flow list in an entry.
    pub fn frames(self) -> usize {
        match self {
            LoadSite::Handler => 13,
            LoadSite::Archive => 6,
        }
    }
}

/// Loaded as by the cloud-config handler ([`LoadSite::Handler`]).
pub fn load_py_text(text: &PyStr, opts: &UserDataOptions) -> Result<Option<Node>, YamlError> {
    load_py_text_in(text, opts, SourceId::UNKNOWN)
}

/// As [`load_py_text`], with spans pointing into `source`.
pub fn load_py_text_in(
    text: &PyStr,
    opts: &UserDataOptions,
    source: SourceId,
) -> Result<Option<Node>, YamlError> {
    load_with(text, opts, source, LoadSite::Handler)
}

/// As [`load_py_text`], loaded where `site` loads it.
pub fn load_py_text_at(
    text: &PyStr,
    opts: &UserDataOptions,
    site: LoadSite,
) -> Result<Option<Node>, YamlError> {
    load_with(text, opts, SourceId::UNKNOWN, site)
}

/// As [`load_py_text_in`], for a text with no surrogates (borrowed: a part's
/// payload need not be copied into a Python string first).
pub fn load_str_in(
    text: &str,
    opts: &UserDataOptions,
    source: SourceId,
) -> Result<Option<Node>, YamlError> {
    load(text, &load_options(opts, source, LoadSite::Handler))
}

fn load_options(opts: &UserDataOptions, source: SourceId, site: LoadSite) -> LoadOptions {
    LoadOptions {
        source,
        python_unicode_tag: opts.release == Release::V22_4,
        caller_frames: site.frames(),
        max_scalar_size: opts.limits.max_scalar_size,
        ..LoadOptions::default()
    }
}

fn load_with(
    text: &PyStr,
    opts: &UserDataOptions,
    source: SourceId,
    site: LoadSite,
) -> Result<Option<Node>, YamlError> {
    let load_opts = load_options(opts, source, site);
    match text.as_str() {
        Some(t) => load(t, &load_opts),
        None => {
            // U+FFFE is non-printable too, so the first offending character
            // (a surrogate or an earlier one) is reported where PyYAML would.
            let lossy: String = text
                .chars()
                .map(|c| char::from_u32(c).unwrap_or('\u{FFFE}'))
                .collect();
            check_printable(&lossy)?;
            load(&lossy, &load_opts)
        }
    }
}
