//! `ImageProfile`: built-in image defaults (`--image`): the `/etc/cloud` an image ships, as cloudfold's own data.

use super::etc_cloud::EtcCloud;
use crate::userdata::Release;

/// A built-in image's `/etc/cloud`. The data (in `src/layers/data/`) is
/// cloudfold's own: the values and key order cloud-init loads from the
/// packaged files, checked against them by the oracle tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageProfile {
    /// Debian 12: Debian's cloud-init 22.4.2 package.
    Debian12,
    /// Debian 13: Debian's cloud-init 25.1.4 package.
    Debian13,
    /// Ubuntu: upstream `config/cloud.cfg.tmpl` rendered for the ubuntu
    /// variant at the selected release (and upstream `05_logging.cfg`).
    Ubuntu,
}

const LOGGING: &str = include_str!("data/logging.cfg.yaml");

impl ImageProfile {
    /// Every profile.
    pub const ALL: [ImageProfile; 3] = [
        ImageProfile::Debian12,
        ImageProfile::Debian13,
        ImageProfile::Ubuntu,
    ];

    /// `debian-12`, `debian-13`, `ubuntu`.
    pub fn name(self) -> &'static str {
        match self {
            ImageProfile::Debian12 => "debian-12",
            ImageProfile::Debian13 => "debian-13",
            ImageProfile::Ubuntu => "ubuntu",
        }
    }

    /// The release a Debian image comes with (`None`: any).
    pub fn release(self) -> Option<Release> {
        match self {
            ImageProfile::Debian12 => Some(Release::V22_4),
            ImageProfile::Debian13 => Some(Release::V25_1),
            ImageProfile::Ubuntu => None,
        }
    }

    /// The files under `/etc/cloud` (relative path, cloudfold's data text) at `release`.
    pub fn files(self, release: Release) -> [(&'static str, &'static str); 2] {
        let cloud_cfg = match (self, release) {
            (ImageProfile::Debian12, _) => include_str!("data/debian-12.cloud.cfg.yaml"),
            (ImageProfile::Debian13, _) => include_str!("data/debian-13.cloud.cfg.yaml"),
            (ImageProfile::Ubuntu, Release::V22_4) => {
                include_str!("data/ubuntu-22.4.cloud.cfg.yaml")
            }
            (ImageProfile::Ubuntu, Release::V25_1) => {
                include_str!("data/ubuntu-25.1.cloud.cfg.yaml")
            }
        };
        [
            ("cloud.cfg", cloud_cfg),
            ("cloud.cfg.d/05_logging.cfg", LOGGING),
        ]
    }

    /// The profile as an `/etc/cloud` directory.
    pub fn etc_cloud(self, release: Release) -> EtcCloud {
        let mut etc = EtcCloud::new();
        for (rel, text) in self.files(release) {
            etc.insert_profile_file(self.name(), rel, text.as_bytes());
        }
        etc
    }
}

impl std::str::FromStr for ImageProfile {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        ImageProfile::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                format!("unknown image profile {s:?} (known: debian-12, debian-13, ubuntu)")
            })
    }
}

/// `settings.CFG_BUILTIN` of a release, as cloudfold's own YAML data.
pub fn builtin_config(release: Release) -> &'static str {
    match release {
        Release::V22_4 => include_str!("data/builtin-22.4.yaml"),
        Release::V25_1 => include_str!("data/builtin-25.1.yaml"),
    }
}
