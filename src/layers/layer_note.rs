//! `LayerNote` and `NoteKind`: what cloud-init logs (or silently does) while it layers its configuration, and the traps cloudfold points out.

use crate::source::SourceId;
use crate::userdata::RenderError;

/// What a note is about. Each kind names the cloud-init behaviour behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// `load_yaml` failed (`Failed loading yaml blob…`): the file counts as `{}`.
    /// Triggered by `/etc/cloud/cloud.cfg.d/10_bad.cfg` holding `a: [1`.
    InvalidYaml,
    /// The file's YAML is not a mapping (`Yaml load allows (<class 'dict'>,)
    /// root types…`): it counts as `{}`. Triggered by a file holding `- a`.
    NotAMapping,
    /// A `## template: jinja` file loaded as it is: there is no instance-data
    /// file (`--instance-data`), so cloud-init does not render it.
    TemplateNotRendered,
    /// A template whose rendering failed or gave nothing: 22.4 uses `{}`.
    TemplateFailed,
    /// A template with a jinja syntax error: 25.1 logs it and loads the
    /// unrendered text.
    TemplateSyntax,
    /// The instance data could not be loaded (`JinjaLoadError`): the file is loaded as it is.
    InstanceDataUnreadable,
    /// A `.cfg` entry of a conf.d directory that is not a regular file, or
    /// cannot be read: skipped.
    ConfdEntrySkipped,
    /// `conf_d:` names a directory outside `/etc/cloud`, which cloudfold
    /// cannot see: treated as absent.
    ConfdOutside,
    /// `allow_userdata` is false: user-data is discarded.
    UserDataDisallowed,
    /// Vendor-data (or vendor-data2) consumption is disabled.
    VendorDisabled,
    /// `vendor_data` (or `vendor_data2`) is not a mapping: reset to `{enabled: False}`.
    VendorSettingInvalid,
    /// `enabled` given as a string (deprecated).
    VendorEnabledString,
    /// The datasource config is not a mapping: cloud-init ignores it.
    DatasourceNotAMapping,
    /// `system_info.paths.cloud_dir` moves the instance directory between the
    /// stage that writes `cloud-config.txt` (and the vendor files) and a stage
    /// that reads them: that reader does not see those layers. Triggered by
    /// `/run/cloud-init/cloud.cfg` holding `merge_how: 'dict(recurse_array)'`
    /// then `merge_type: 'dict(no_replace,recurse_str)+str(append)'` (the
    /// second is not popped: it joins strings of the built-in config onto
    /// higher layers') and vendor-data2 setting `system_info: {paths:
    /// {cloud_dir: /var/lib/cloud/}}`: the modules read `/var/lib/cloud/var/lib/cloud`.
    PathsRelocated,
    /// A trap: see `Trap`.
    Trap(Trap),
}

/// A layering result users do not expect (cloud-init's most reported confusions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trap {
    /// A higher layer's list replaced a lower layer's (`runcmd` in user-data
    /// drops the image's or vendor's `runcmd`): layers merge first-wins.
    ListReplaced,
    /// User-data merge rules (`merge_how`, `Merge-Type`) apply between
    /// user-data parts only: cloud-init pops them before layering.
    UserMergeHowIgnored,
    /// User-data (or another higher layer) disabled vendor-data.
    VendorDisabledByUser,
    /// A value of a `cloud.cfg.d` file shadowed by a file sorting later.
    ConfdShadowed,
    /// A templated file that cloud-init could not render.
    TemplateFailed,
}

impl NoteKind {
    /// A stable machine name.
    pub fn code(&self) -> &'static str {
        match self {
            NoteKind::InvalidYaml => "invalid-yaml",
            NoteKind::NotAMapping => "not-a-mapping",
            NoteKind::TemplateNotRendered => "template-not-rendered",
            NoteKind::TemplateFailed => "template-failed",
            NoteKind::TemplateSyntax => "template-syntax",
            NoteKind::InstanceDataUnreadable => "instance-data-unreadable",
            NoteKind::ConfdEntrySkipped => "confd-entry-skipped",
            NoteKind::ConfdOutside => "confd-outside",
            NoteKind::UserDataDisallowed => "user-data-disallowed",
            NoteKind::VendorDisabled => "vendor-disabled",
            NoteKind::VendorSettingInvalid => "vendor-setting-invalid",
            NoteKind::VendorEnabledString => "vendor-enabled-string",
            NoteKind::DatasourceNotAMapping => "datasource-not-a-mapping",
            NoteKind::PathsRelocated => "paths-relocated",
            NoteKind::Trap(t) => t.code(),
        }
    }
}

impl Trap {
    /// A stable machine name.
    pub fn code(&self) -> &'static str {
        match self {
            Trap::ListReplaced => "trap-list-replaced",
            Trap::UserMergeHowIgnored => "trap-user-merge-how-ignored",
            Trap::VendorDisabledByUser => "trap-vendor-disabled",
            Trap::ConfdShadowed => "trap-confd-shadowed",
            Trap::TemplateFailed => "trap-template-failed",
        }
    }
}

/// One note: what, where, and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerNote {
    /// What.
    pub kind: NoteKind,
    /// The source it is about (a file or part), if one.
    pub source: Option<SourceId>,
    /// The file or part as cloud-init names it (`/etc/cloud/cloud.cfg.d/10_x.cfg`).
    pub about: String,
    /// The logical path (`$.runcmd`), for traps at a value.
    pub path: Option<String>,
    /// The message.
    pub message: String,
}

/// Why cloud-init produces no configuration at all: it crashes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayersError {
    /// An exception escapes while cloud-init reads or merges its
    /// configuration: the stage that reads it fails.
    #[error("cloud-init {release} fails {during}: {exception}")]
    Crash {
        /// `22.4` / `25.1`.
        release: &'static str,
        /// What it was doing (`reading /etc/cloud/cloud.cfg.d/10_x.cfg`).
        during: String,
        /// The exception (`TypeError: …`).
        exception: String,
    },
    /// cloudfold cannot compute the result (a template it cannot render, an input limit).
    #[error("{0}")]
    Unsupported(String),
    /// A user-data or vendor-data payload could not be folded (a limit, or its merged config
    /// cannot be written).
    #[error("{which}: {error}")]
    Payload {
        /// `user-data`, `vendor-data`, `vendor-data2`.
        which: &'static str,
        /// Why (boxed: a `Result` carrying this error stays small in recursive walks).
        error: Box<RenderError>,
    },
}

impl LayersError {
    /// Whether a payload stopped at one of cloudfold's own safety limits (see
    /// [`RenderError::is_limit`]).
    pub fn is_limit(&self) -> bool {
        match self {
            LayersError::Payload { error, .. } => error.is_limit(),
            LayersError::Crash { .. } | LayersError::Unsupported(_) => false,
        }
    }
}
