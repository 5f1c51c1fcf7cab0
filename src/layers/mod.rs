//! `layers`: the configuration cloud-init's modules really see — built-in defaults, `/etc/cloud`, the kernel command line, the datasource, vendor-data and user-data, layered first-wins.
//!
//! [`fold_layers`] reads nothing itself: the caller gives every layer's
//! bytes ([`LayerInputs`]; `/etc/cloud` as an [`EtcCloud`] or an
//! [`ImageProfile`]). User-data and vendor-data payloads are folded by
//! [`crate::userdata`]; every layer is merged with cloud-init's own mergers
//! (`crate::merge::cloud_init`) in `util.mergemanydict`'s order. The
//! result ([`Layered`]) keeps every value's span, so each key and list item
//! names the file (or part) and line:column it came from ([`explain_layers`]).

mod boot;
mod combined_json;
mod config_templater;
mod etc_cloud;
mod image_profile;
mod jinja_templater;
mod layer_explanation;
mod layer_inputs;
mod layer_note;
mod layered;
mod merge_many;
mod read_conf;
mod source_registry;

pub use boot::fold_layers;
internal! { use boot::{fold_layers_with, read_cc_from_cmdline}; }
pub use combined_json::combined_cloud_config_json;
internal! { use combined_json::{COMBINED_CLOUD_CONFIG_DOC, CombinedJsonError, FEATURES_25_1, FeatureValue}; }
internal! { use config_templater::{ConfigTemplater, TemplateKind, TemplateOutcome, template_kind}; }
pub use etc_cloud::{EtcCloud, EtcEntry};
internal! { use etc_cloud::ETC_CLOUD; }
pub use image_profile::ImageProfile;
internal! { use image_profile::builtin_config; }
internal! { use jinja_templater::JinjaTemplater; }
pub use layer_explanation::{LayerExplanation, LayerOrigin, explain_layers};
internal! { use layer_explanation::{LayerEntry, TooManyNodes, origin_of}; }
pub use layer_inputs::LayerInputs;
pub use layer_note::{LayerNote, LayersError};
internal! { use layer_note::Trap; }
pub use layer_note::NoteKind;
pub use layered::Layered;
internal! { use layered::{MODULE_LIST_KEYS, ModuleListOrigin}; }
pub use layered::FlatSource;
pub use layered::VendorOutcome;
pub use read_conf::ConfigFile;
internal! { use source_registry::{SourceInfo, SourceText, Sources}; }
pub use source_registry::LayerKind;
