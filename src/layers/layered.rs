//! `Layered`: the configuration cloud-init's modules see, with every layer that went into it.

use super::layer_note::LayerNote;
use super::source_registry::{LayerKind, Sources};
use crate::source::SourceId;
use crate::userdata::{Folded, Release};
use crate::yaml::value::{Node, Value};

/// One source as it entered the merges: its data with its own merge keys
/// popped, in precedence order (highest first) in [`Layered::flat`].
#[derive(Clone, Debug)]
pub struct FlatSource {
    /// Its layer.
    pub layer: LayerKind,
    /// Its label (`/etc/cloud/cloud.cfg.d/90_x.cfg`, `user-data`).
    pub label: String,
    /// Its source id, for a single file (payload layers span several parts).
    pub source: Option<SourceId>,
    /// The data (a mapping).
    pub data: Node,
    /// The merge spec popped from it, if any (`merge_how` / `merge_type`).
    pub spec: Option<String>,
}

/// What happened to a vendor-data payload.
#[derive(Clone, Debug)]
pub enum VendorOutcome {
    /// No payload (or an empty one): nothing to consume.
    Absent,
    /// Consumption disabled (`vendor_data: {enabled: false}`), and by which source.
    Disabled {
        /// The source whose `vendor_data` setting won (None: built-in
        /// default absent, i.e. the setting is missing).
        decided_by: Option<SourceId>,
    },
    /// Consumed: the fold (its config is the layer).
    Consumed(Box<Folded>),
}

/// Where a module list came from.
#[derive(Clone, Debug)]
pub struct ModuleListOrigin {
    /// `cloud_init_modules`, `cloud_config_modules`, `cloud_final_modules`.
    pub key: &'static str,
    /// The list (whatever type it has).
    pub value: Node,
    /// The source of the list node (for a merged list, the higher layer's).
    pub source: Option<SourceId>,
    /// Its layer.
    pub layer: Option<LayerKind>,
}

/// The layered fold.
#[derive(Clone, Debug)]
pub struct Layered {
    /// The release emulated.
    pub release: Release,
    /// What the modules see (`Modules.cfg` of the config and final stages).
    pub config: Node,
    /// `Init.cfg` (the merge without `system_info`): the base of
    /// `combined-cloud-config.json`.
    pub init_config: Node,
    /// `Init`'s `system_info` (a mapping, or `{}`).
    pub system_info: Node,
    /// Every source text, by id.
    pub sources: Sources,
    /// Every source as merged, highest priority first.
    pub flat: Vec<FlatSource>,
    /// The user-data fold (`None`: no user-data given).
    pub user: Option<Box<Folded>>,
    /// Whether cloud-init used the user-data (`allow_userdata`).
    pub user_allowed: bool,
    /// vendor-data.
    pub vendor: VendorOutcome,
    /// vendor-data2.
    pub vendor2: VendorOutcome,
    /// What cloud-init logs (and the traps), in the order met.
    pub notes: Vec<LayerNote>,
    /// The init stage failed after reading its config (user-data processing
    /// aborted, or vendor-data's handlers raised): later stages still run
    /// with what was written.
    pub init_stage_error: Option<String>,
    /// The data of every user-data and vendor-data part as read (with
    /// [`Layered::flat`], what tells a value read from a source from one
    /// the merges built).
    pub originals: Vec<Node>,
}

/// The stage keys whose module lists `plan` reads.
pub const MODULE_LIST_KEYS: [&str; 3] = [
    "cloud_init_modules",
    "cloud_config_modules",
    "cloud_final_modules",
];

impl Layered {
    /// The layer a source belongs to.
    pub fn layer_of(&self, id: SourceId) -> Option<LayerKind> {
        self.sources.get(id).map(|s| s.layer)
    }

    /// Each stage's module list as the modules see it, and which layer supplied it.
    pub fn module_lists(&self) -> Vec<ModuleListOrigin> {
        let Value::Map(m) = self.config.value() else {
            return Vec::new();
        };
        MODULE_LIST_KEYS
            .iter()
            .filter_map(|&key| {
                let value = m.get_str(key)?.clone();
                let span = value.span();
                let source = self.sources.get(span.source).map(|_| span.source);
                Some(ModuleListOrigin {
                    key,
                    layer: source.and_then(|s| self.layer_of(s)),
                    source,
                    value,
                })
            })
            .collect()
    }
}
