//! `FoldText`: which text a fold writes out of the merged config.

/// Which text a fold writes out of the merged config, while the helper
/// thread is there to write half of a large one. A command that prints
/// something else asks for it (or for nothing) rather than pay for a
/// `cloud-config.txt` it does not print.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FoldText {
    /// Exactly what cloud-init writes to `cloud-config.txt`
    /// ([`super::Folded::cloud_config_txt`]).
    #[default]
    CloudConfigTxt,
    /// `#cloud-config` and the merged config in the readable style
    /// ([`crate::yaml::DumpOptions::readable`]; [`super::Folded::readable`]).
    Readable,
    /// No text: the merged tree and the report only.
    Nothing,
    /// `cloud-config.txt` written only to learn whether it can be (a config
    /// that cannot be written fails the fold, as with
    /// [`FoldText::CloudConfigTxt`]), none of it kept: for a command that
    /// reports on what cloud-init does without printing the text.
    Checked,
}
