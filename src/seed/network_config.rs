//! `NetworkConfig`: the seed's `network-config` — a file checked to be configuration cloud-init
//! uses (YAML, `version: 1` or `2`), or `none`: `config: disabled`, which tells cloud-init to
//! leave networking alone.

use super::SeedError;
use crate::yaml::{LoadOptions, Node, Value, load_bytes};

/// What `--network-config none` writes: `net.is_disabled_cfg` is true for it.
pub const NETWORK_DISABLED: &[u8] = b"config: disabled\n";

/// The seed's network configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkConfig {
    /// A file, used byte for byte once checked.
    Given(Vec<u8>),
    /// `none`: `NETWORK_DISABLED`.
    Disabled,
}

fn is_str(n: &Node, s: &str) -> bool {
    n.as_str() == Some(s)
}

/// Python's `version == 1` / `== 2`: an int, a float of that value, or `true` (== 1).
fn version_number(n: &Node) -> Option<u8> {
    match n.value() {
        Value::Int(_) => match crate::yaml::value::py_str(n).to_string_lossy().as_ref() {
            "1" => Some(1),
            "2" => Some(2),
            _ => None,
        },
        Value::Float(f) if *f == 1.0 => Some(1),
        Value::Float(f) if *f == 2.0 => Some(2),
        Value::Bool(true) => Some(1),
        _ => None,
    }
}

impl NetworkConfig {
    /// The `network-config` bytes, after checking a given file the way cloud-init reads it:
    /// `util.load_yaml` (a mapping, or nothing), a top-level `network:` key unwrapped
    /// (`Init._remove_top_level_network_key`), then `config: disabled` or `version` 1 or 2
    /// (`network_state.parse_net_config_data`).
    pub fn resolve(&self) -> Result<Vec<u8>, SeedError> {
        let bytes = match self {
            NetworkConfig::Disabled => return Ok(NETWORK_DISABLED.to_vec()),
            NetworkConfig::Given(b) => b,
        };
        let err = |m: String| Err(SeedError::NetworkConfig(m));
        let root = match load_bytes(bytes, &LoadOptions::default()) {
            Ok(Some(r)) => r,
            Ok(None) => return err("empty: cloud-init ignores an empty network-config".into()),
            Err(e) => return err(format!("not YAML: {e}")),
        };
        let Some(map) = root.as_map() else {
            return err(format!(
                "a YAML mapping is needed, not {} (cloud-init would ignore it)",
                root.type_name()
            ));
        };
        let inner = match map.get_str("network") {
            Some(n) => match n.as_map() {
                Some(m) => m,
                None => {
                    return err(format!(
                        "`network` must be a mapping, not {}",
                        n.type_name()
                    ));
                }
            },
            None => map,
        };
        if inner
            .get_str("config")
            .is_some_and(|c| is_str(c, "disabled"))
        {
            return Ok(bytes.clone());
        }
        match inner.get_str("version") {
            None => err("no `version` key: cloud-init needs `version: 1` or `version: 2`".into()),
            Some(v) if version_number(v).is_some() => Ok(bytes.clone()),
            Some(v) => err(format!(
                "version {}: cloud-init knows versions 1 and 2",
                crate::yaml::value::py_str(v).to_string_lossy()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(s: &str) -> bool {
        NetworkConfig::Given(s.as_bytes().to_vec())
            .resolve()
            .is_ok()
    }

    #[test]
    fn versions() {
        assert!(check("version: 2\nethernets: {}\n"));
        assert!(check("version: 1\nconfig: []\n"));
        assert!(check("network:\n  version: 2\n"));
        assert!(check("config: disabled\n"));
        assert!(!check("version: 3\n"));
        assert!(!check("ethernets: {}\n"));
        assert!(!check(""));
        assert!(!check("[1]"));
        assert!(!check("version: [\n"));
        assert!(!check("network: 1\n"));
        assert!(NetworkConfig::Disabled.resolve().is_ok());
    }
}
