//! Merge-type presets and the strict check of every merge spec `build` writes.

use super::MergeTypeError;
use crate::merge::cloud_init::{MergeSpec, MergerStack, SpecName, Version};

/// Named presets and their exact expansion.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "append",
        "list(append)+dict(no_replace,recurse_list)+str()",
        "append lists; keep existing keys, recursing into dicts and lists",
    ),
    (
        "prepend",
        "list(prepend)+dict(no_replace,recurse_list)+str()",
        "prepend lists; keep existing keys, recursing into dicts and lists",
    ),
    (
        "replace",
        "list()+dict(replace,recurse_list)+str()",
        "later parts override earlier ones, recursing into dicts",
    ),
    (
        "default",
        "list()+dict()+str()",
        "cloud-init's default (what a part without a merge type gets)",
    ),
];

/// Options each merger tests; anything else is silently ignored by cloud-init.
fn known_options(merger: &str) -> &'static [&'static str] {
    match merger {
        "dict" | "m_dict" => &[
            "allow_delete",
            "no_replace",
            "recurse_array",
            "recurse_list",
            "recurse_str",
            "replace",
        ],
        "list" | "m_list" => &[
            "append",
            "no_replace",
            "prepend",
            "recurse_array",
            "recurse_dict",
            "recurse_list",
            "recurse_str",
            "replace",
        ],
        "str" | "m_str" => &["append"],
        _ => &[],
    }
}

/// A preset's expansion, or the text itself when it is not a preset name.
pub fn expand_merge_type(text: &str) -> &str {
    PRESETS
        .iter()
        .find(|(name, _, _)| *name == text)
        .map_or(text, |(_, exp, _)| exp)
}

/// Check a merge spec (already expanded) the way cloud-init would read it,
/// and more strictly: a syntax error, an unknown merger or an option no
/// merger tests is an error (cloud-init would drop the part or silently
/// ignore the option). Also refuses an empty spec and characters a header
/// cannot carry.
pub fn check_merge_type(spec: &str) -> Result<(), MergeTypeError> {
    if spec.bytes().any(|b| !(0x20..0x7f).contains(&b)) {
        return Err(MergeTypeError::NotPrintable);
    }
    let parsed = MergeSpec::parse_str(spec, Version::V25_1)
        .map_err(|e| MergeTypeError::Invalid(e.to_string()))?;
    if parsed.is_empty() {
        return Err(MergeTypeError::Empty);
    }
    MergerStack::resolve(&parsed).map_err(|e| MergeTypeError::Invalid(e.to_string()))?;
    for entry in &parsed.entries {
        let SpecName::Str(name) = &entry.name else {
            return Err(MergeTypeError::NameNotString);
        };
        let known = known_options(name);
        let opts = entry.options.to_string();
        for opt in opts.split(',').filter(|o| !o.is_empty()) {
            if !known.contains(&opt) {
                return Err(MergeTypeError::UnknownOption {
                    merger: name.clone(),
                    option: opt.to_owned(),
                    known: known.to_vec(),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        for (name, exp, _) in PRESETS {
            assert_eq!(expand_merge_type(name), *exp);
            assert_eq!(check_merge_type(exp), Ok(()), "{name}");
        }
    }

    #[test]
    fn refusals() {
        assert!(check_merge_type("dict(replace)+lists(append)").is_err());
        assert!(check_merge_type("dict(replac)").is_err());
        assert!(check_merge_type("dict").is_err());
        assert!(check_merge_type("").is_err());
        assert!(check_merge_type("DICT(No-Replace)+list(append)").is_ok());
    }
}
