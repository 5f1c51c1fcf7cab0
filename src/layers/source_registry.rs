//! `Sources`: every text a layered config's values were read from — files, parts, built-in data — by source id.

use crate::source::SourceId;
use crate::userdata::Leaf;
use crate::yaml::value::PyStr;
use std::sync::Arc;

/// Which layer of cloud-init's configuration a source belongs to, from the
/// lowest priority to the highest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LayerKind {
    /// `settings.CFG_BUILTIN`.
    Builtin,
    /// `/etc/cloud/cloud.cfg` and `cloud.cfg.d/*.cfg` (or an image profile's).
    EtcCloud,
    /// `/run/cloud-init/cloud.cfg` (written by ds-identify).
    RunCloudCfg,
    /// `cc: … end_cc` on the kernel command line.
    KernelCmdline,
    /// The datasource's `get_config_obj()`.
    Datasource,
    /// `vendor-cloud-config.txt`.
    VendorData,
    /// `vendor2-cloud-config.txt`.
    VendorData2,
    /// `cloud-config.txt` (user-data).
    UserData,
    /// The file named by `$CLOUD_CFG`.
    CloudCfgEnv,
}

impl LayerKind {
    /// A stable machine name.
    pub fn code(self) -> &'static str {
        match self {
            LayerKind::Builtin => "builtin",
            LayerKind::EtcCloud => "etc-cloud",
            LayerKind::RunCloudCfg => "run-cloud-cfg",
            LayerKind::KernelCmdline => "kernel-cmdline",
            LayerKind::Datasource => "datasource",
            LayerKind::VendorData => "vendor-data",
            LayerKind::VendorData2 => "vendor-data2",
            LayerKind::UserData => "user-data",
            LayerKind::CloudCfgEnv => "cloud-cfg-env",
        }
    }
}

/// The text a source's spans point into.
#[derive(Clone, Debug)]
pub enum SourceText {
    /// A config file's (or built-in data's) text as cloud-init loads it
    /// (after rendering, for a template).
    Text(Arc<str>),
    /// A user-data or vendor-data part: its decoded payload.
    Part(Arc<Leaf>),
}

impl SourceText {
    /// The text, as the loader read it.
    pub fn text(&self) -> PyStr {
        match self {
            SourceText::Text(t) => PyStr::from(&**t),
            SourceText::Part(leaf) => crate::explain::part_text(&leaf.payload()),
        }
    }
}

/// One source.
#[derive(Clone, Debug)]
pub struct SourceInfo {
    /// Its layer.
    pub layer: LayerKind,
    /// How to name it: a path (`/etc/cloud/cloud.cfg.d/90_dpkg.cfg`), a part
    /// (`user-data part 1 (base.yaml)`), `built-in config (22.4)`.
    pub label: String,
    /// What its spans point into.
    pub text: SourceText,
    /// For a part: its 1-based number in its payload.
    pub part: Option<usize>,
    /// Lines and columns to add to a span's start on its first line
    /// (a JSON patch part is read after its marker).
    pub shift: (u32, u32),
}

/// Every source of a layered fold, by [`SourceId`] (the id is the index).
#[derive(Clone, Debug, Default)]
pub struct Sources {
    infos: Vec<SourceInfo>,
}

impl Sources {
    /// The id the next source gets.
    pub fn next_id(&self) -> SourceId {
        SourceId(u32::try_from(self.infos.len()).unwrap_or(u32::MAX - 2))
    }

    /// Register a source; its id.
    pub fn push(&mut self, info: SourceInfo) -> SourceId {
        let id = self.next_id();
        self.infos.push(info);
        id
    }

    /// The source behind an id.
    pub fn get(&self, id: SourceId) -> Option<&SourceInfo> {
        self.infos.get(usize::try_from(id.0).ok()?)
    }

    /// All sources, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (SourceId, &SourceInfo)> {
        self.infos
            .iter()
            .enumerate()
            .map(|(i, s)| (SourceId(u32::try_from(i).unwrap_or(u32::MAX - 2)), s))
    }
}
