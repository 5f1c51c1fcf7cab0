//! `Platform` and `Measure`: clouds' documented user-data size limits and how each measures.

/// How a platform measures user-data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The bytes as the instance receives them.
    Raw,
    /// The base64 text of those bytes.
    Base64,
}

impl Measure {
    /// `raw` or `base64`.
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Raw => "raw",
            Measure::Base64 => "base64",
        }
    }
}

/// A cloud with a documented user-data size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// AWS EC2: "User data is limited to 16 KB, in raw form, before it is
    /// base64-encoded" (EC2 User Guide, "Run commands when you launch an EC2 instance
    /// with user data input"): 16,384 raw bytes.
    Ec2,
    /// Azure custom data: "The maximum length of the binary array is 65535 bytes"
    /// (Compute REST API, OSProfile.customData; the docs' "64 KB"): 65,535 raw bytes.
    Azure,
    /// OpenStack Nova: `user_data` "must be Base64 encoded. Restricted to 65535 bytes"
    /// (Compute API reference, create server): 65,535 bytes of base64 text.
    Openstack,
    /// Google Compute Engine: a metadata value is limited to 256 KB (Compute Engine
    /// docs, "About VM metadata" → limitations: "each metadata value ... 256 KB"):
    /// 262,144 raw bytes for the `user-data` key.
    Gce,
}

impl Platform {
    /// Parse `ec2`, `azure`, `openstack`, `gce`.
    pub fn parse(name: &str) -> Option<Platform> {
        Some(match name {
            "ec2" | "aws" => Platform::Ec2,
            "azure" => Platform::Azure,
            "openstack" => Platform::Openstack,
            "gce" | "gcp" => Platform::Gce,
            _ => return None,
        })
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Platform::Ec2 => "EC2",
            Platform::Azure => "Azure",
            Platform::Openstack => "OpenStack",
            Platform::Gce => "GCE",
        }
    }

    /// The limit in bytes.
    pub fn limit(self) -> u64 {
        match self {
            Platform::Ec2 => 16_384,
            Platform::Azure | Platform::Openstack => 65_535,
            Platform::Gce => 262_144,
        }
    }

    /// What the limit applies to.
    pub fn measure(self) -> Measure {
        match self {
            Platform::Openstack => Measure::Base64,
            _ => Measure::Raw,
        }
    }
}
