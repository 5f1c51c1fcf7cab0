//! `UserDataOptions`: which cloud-init release to emulate, and cloudfold's explicit limits.

/// The cloud-init release whose behaviour to reproduce where releases differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Release {
    /// 22.4 (Debian bookworm): `!!python/unicode` accepted, no SCHEMA_ERROR lines.
    #[default]
    V22_4,
    /// 25.1 (Debian trixie): SCHEMA_ERROR lines in `cloud-config.txt`.
    V25_1,
}

impl Release {
    /// `22.4` / `25.1`.
    pub fn as_str(self) -> &'static str {
        match self {
            Release::V22_4 => "22.4",
            Release::V25_1 => "25.1",
        }
    }
}

impl std::str::FromStr for Release {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "22.4" | "22.4.2" => Ok(Release::V22_4),
            "25.1" | "25.1.4" => Ok(Release::V25_1),
            _ => Err(format!(
                "unknown cloud-init release {s:?} (known: 22.4, 25.1)"
            )),
        }
    }
}

/// Explicit resource limits. cloud-init has none; cloudfold stops with a
/// clear error instead of exhausting the machine. Defaults fit every real
/// payload (clouds cap user-data at 16–64 KiB compressed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes after decompressing one gzip layer.
    pub max_decompressed_size: u64,
    /// Number of parts after flattening.
    pub max_parts: usize,
    /// Nesting depth of multiparts.
    pub max_mime_depth: usize,
    /// Nesting depth of `#include`s (cloud-init recurses without end).
    pub max_include_depth: usize,
    /// YAML nesting depth (PyYAML's own limit is about 500 under cloud-init).
    pub max_yaml_depth: usize,
    /// Nodes visited when walking shared aliases (JSON output, explain).
    pub max_alias_expansion: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_decompressed_size: 256 << 20,
            max_parts: 100_000,
            max_mime_depth: 100,
            max_include_depth: 32,
            max_yaml_depth: 10_000,
            max_alias_expansion: 10_000_000,
        }
    }
}

/// Options for processing and rendering user-data.
#[derive(Debug, Clone, Default)]
pub struct UserDataOptions {
    /// Release to emulate.
    pub release: Release,
    /// The instance's launch index (`None`: no filtering, as when the
    /// metadata has none).
    pub launch_index: Option<i64>,
    /// Resource limits.
    pub limits: Limits,
}
