//! `UserDataOptions`: which cloud-init release to emulate, and cloudfold's explicit limits.

use super::excluded_types::ExcludedTypes;
use super::preloader::Preload;

/// The cloud-init release whose behaviour to reproduce where releases differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Release {
    /// 22.4 (Debian bookworm): `!!python/unicode` accepted, no SCHEMA_ERROR lines.
    V22_4,
    /// 25.1 (Debian trixie): SCHEMA_ERROR lines in `cloud-config.txt`. The
    /// default: the conformance runs pass for both releases.
    #[default]
    V25_1,
}

impl Release {
    /// Every release cloudfold emulates, oldest first.
    pub const ALL: [Release; 2] = [Release::V22_4, Release::V25_1];

    /// The exact upstream version whose code the conformance suites run: the one in
    /// Debian's package (`22.4.2`, `25.1.4`).
    pub fn upstream(self) -> &'static str {
        match self {
            Release::V22_4 => "22.4.2",
            Release::V25_1 => "25.1.4",
        }
    }

    /// The Jinja2 Debian ships with this release.
    pub fn jinja(self) -> crate::jinja::JinjaVersion {
        match self {
            Release::V22_4 => crate::jinja::JinjaVersion::V3_1_2,
            Release::V25_1 => crate::jinja::JinjaVersion::V3_1_6,
        }
    }

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
/// clear error naming the limit and the flag that raises it instead of
/// exhausting the machine. Defaults fit every real payload (clouds cap
/// user-data at 16–64 KiB compressed). The README's "Limits" table lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of one payload as read (the top-level blob and each `#include`d
    /// document). `--max-input-size`.
    pub max_input_size: u64,
    /// Bytes produced by gunzipping, in total over every gzip layer of the
    /// payload (top level, gzip parts, included documents), so neither one
    /// bomb nor many small ones get through. `--max-decompressed-size`.
    pub max_decompressed_size: u64,
    /// Number of parts after flattening. `--max-parts`.
    pub max_parts: usize,
    /// Nesting depth of MIME parts: Python's own `RecursionError` level applies
    /// (reproduced, see `crate::mime::MAX_DEPTH`); kept for reference.
    pub max_mime_depth: usize,
    /// Nesting depth of `#include`s (cloud-init recurses without end).
    /// `--max-include-depth`.
    pub max_include_depth: usize,
    /// YAML nesting depth: PyYAML's own `RecursionError` limit applies
    /// (reproduced, see `crate::yaml::PYYAML_MAX_DEPTH`); kept for reference.
    pub max_yaml_depth: usize,
    /// Longest YAML scalar, in bytes, in a cloud-config or archive document.
    /// `--max-scalar-size`.
    pub max_scalar_size: usize,
    /// Nodes visited when walking shared aliases (JSON output, explain):
    /// see [`Limits::walk_limits`]. `--max-alias-expansion`.
    pub max_alias_expansion: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_size: DEFAULT_MAX_INPUT_SIZE,
            max_decompressed_size: DEFAULT_MAX_DECOMPRESSED_SIZE,
            max_parts: 100_000,
            max_mime_depth: crate::mime::MAX_DEPTH,
            max_include_depth: 32,
            max_yaml_depth: crate::yaml::PYYAML_MAX_DEPTH,
            max_scalar_size: DEFAULT_MAX_SCALAR_SIZE,
            max_alias_expansion: DEFAULT_MAX_ALIAS_EXPANSION,
        }
    }
}

/// Default of [`Limits::max_input_size`]: 256 MiB.
pub const DEFAULT_MAX_INPUT_SIZE: u64 = 256 << 20;
/// Default of [`Limits::max_decompressed_size`]: 256 MiB.
pub const DEFAULT_MAX_DECOMPRESSED_SIZE: u64 = 256 << 20;
/// Default of [`Limits::max_scalar_size`]: 16 MiB.
pub const DEFAULT_MAX_SCALAR_SIZE: usize = 16 << 20;
/// Default of [`Limits::max_alias_expansion`]: 2 million node visits (about
/// 300 MiB of JSON values; real cloud-configs have a few thousand nodes).
pub const DEFAULT_MAX_ALIAS_EXPANSION: usize = 2_000_000;

impl Limits {
    /// The budget for any walk that expands shared aliases (typed JSON,
    /// explain): every visit of a node counts, an alias each time it is
    /// reached. Exceeding it is an error naming `--max-alias-expansion`.
    pub fn walk_limits(&self) -> crate::yaml::typed_json::WalkLimits {
        crate::yaml::typed_json::WalkLimits {
            max_nodes: self.max_alias_expansion,
            ..crate::yaml::typed_json::WalkLimits::default()
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
    /// When cloud-config parts are loaded on a helper thread (the result is
    /// the same either way).
    pub preload: Preload,
    /// The instance data jinja parts are rendered with (`None`: cloud-init's
    /// `instance-data-sensitive.json` is absent, and they are dropped).
    pub instance_data: Option<std::sync::Arc<crate::jinja::InstanceData>>,
    /// Bounds on each template render.
    pub jinja_limits: crate::jinja::JinjaLimits,
    /// Record which template line wrote each place of a rendered jinja part
    /// (explain sets it).
    pub jinja_line_maps: bool,
    /// The source id of the first part (part `n` is `first_source + n - 1`):
    /// folds whose values end up in one tree (user-data and vendor-data
    /// layered, `crate::layers`) number their parts apart.
    pub first_source: u32,
    /// Content types kept from the handlers (vendor-data's
    /// `disabled_handlers`); nothing for user-data.
    pub excluded: ExcludedTypes,
}

impl UserDataOptions {
    /// The source id of the part at 0-based handler position `index`.
    pub fn source_of(&self, index: usize) -> crate::source::SourceId {
        let i = u32::try_from(index).unwrap_or(u32::MAX);
        crate::source::SourceId(self.first_source.saturating_add(i))
    }
}
