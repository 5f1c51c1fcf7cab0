//! `LayerInputs`: every configuration source cloud-init layers, as the caller found them.

use super::etc_cloud::EtcCloud;
use super::read_conf::ConfigFile;

/// The layers to fold, each absent unless given. Paths are the ones
/// cloud-init reads them at; the bytes are what the caller read.
#[derive(Clone, Debug, Default)]
pub struct LayerInputs {
    /// `/etc/cloud` (a directory, or an image profile's).
    pub etc: Option<EtcCloud>,
    /// `/run/cloud-init/cloud.cfg`.
    pub run_cloud_cfg: Option<ConfigFile>,
    /// The kernel command line (only `cc: … end_cc` matters).
    pub kernel_cmdline: Option<String>,
    /// The file `$CLOUD_CFG` names.
    pub cloud_cfg_env: Option<ConfigFile>,
    /// The datasource's config object, as YAML (a mapping; anything else is ignored, as cloud-init does).
    pub datasource_config: Option<ConfigFile>,
    /// The user-data payload.
    pub user_data: Option<Vec<u8>>,
    /// The vendor-data payload.
    pub vendor_data: Option<Vec<u8>>,
    /// The vendor-data2 payload.
    pub vendor_data2: Option<Vec<u8>>,
}
