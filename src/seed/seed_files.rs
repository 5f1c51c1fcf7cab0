//! `SeedFiles`: the files of a NoCloud seed — `user-data`, `meta-data`, and optionally
//! `network-config` and `vendor-data` — as they go into (or come out of) a seed.

/// The file cloud-init reads the user-data from.
pub const USER_DATA: &str = "user-data";
/// The file with the instance-id and hostname (YAML).
pub const META_DATA: &str = "meta-data";
/// Network configuration v1 or v2 (YAML), optional.
pub const NETWORK_CONFIG: &str = "network-config";
/// Vendor-data, optional.
pub const VENDOR_DATA: &str = "vendor-data";

/// The names NoCloud reads from a seed (`pathprefix2dict`'s required and optional files).
pub const SEED_FILE_NAMES: [&str; 4] = [META_DATA, NETWORK_CONFIG, USER_DATA, VENDOR_DATA];

/// The contents of a seed's files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeedFiles {
    /// `user-data`, byte for byte.
    pub user_data: Vec<u8>,
    /// `meta-data`.
    pub meta_data: Vec<u8>,
    /// `network-config`, if any.
    pub network_config: Option<Vec<u8>>,
    /// `vendor-data`, if any.
    pub vendor_data: Option<Vec<u8>>,
}

impl SeedFiles {
    /// The files present, in byte order of their names (the order of an ISO 9660 directory).
    pub fn entries(&self) -> Vec<(&'static str, &[u8])> {
        let mut out = vec![(META_DATA, self.meta_data.as_slice())];
        if let Some(n) = &self.network_config {
            out.push((NETWORK_CONFIG, n.as_slice()));
        }
        out.push((USER_DATA, self.user_data.as_slice()));
        if let Some(v) = &self.vendor_data {
            out.push((VENDOR_DATA, v.as_slice()));
        }
        out
    }

    /// Total bytes of content.
    pub fn content_size(&self) -> usize {
        self.entries().iter().map(|(_, b)| b.len()).sum()
    }
}
