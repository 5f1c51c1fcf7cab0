//! `load_py_text`: cloud-init's `util.load_yaml` core on a Python string (surrogates included).

use super::user_data_options::{Release, UserDataOptions};
use crate::source::SourceId;
use crate::yaml::value::PyStr;
use crate::yaml::{LoadOptions, Node, YamlError, check_printable, load};

/// Load YAML text as cloud-init does (its release's loader). A string with
/// lone surrogates (undecodable bytes) fails like PyYAML: "special
/// characters are not allowed" at the first non-printable character.
pub fn load_py_text(text: &PyStr, opts: &UserDataOptions) -> Result<Option<Node>, YamlError> {
    load_py_text_in(text, opts, SourceId::UNKNOWN)
}

/// As [`load_py_text`], with spans pointing into `source`.
pub fn load_py_text_in(
    text: &PyStr,
    opts: &UserDataOptions,
    source: SourceId,
) -> Result<Option<Node>, YamlError> {
    let load_opts = LoadOptions {
        source,
        python_unicode_tag: opts.release == Release::V22_4,
        ..LoadOptions::default()
    };
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
