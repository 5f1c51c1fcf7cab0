//! `MetaData`: the seed's `meta-data` — a given file (checked to be what NoCloud can use), or
//! generated from `--instance-id`/`--hostname`, the instance-id by default derived from the content.

use super::SeedError;
use crate::content_hash::{FNV_OFFSET, fnv1a};
use crate::yaml::{LoadOptions, Value, load_bytes};

/// Where the `meta-data` comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaData {
    /// A file, used byte for byte.
    Given(Vec<u8>),
    /// Generated: `instance-id` (derived from the content when `None`) and `local-hostname`.
    Generated {
        /// The instance-id; `None`: `iid-cloudfold-` and 16 hex digits of a hash of the content.
        instance_id: Option<String>,
        /// `local-hostname`, if any.
        hostname: Option<String>,
    },
}

/// The instance-id a seed gets when none is given: a hash of everything else that goes into the
/// seed (so a changed payload is a new instance to cloud-init, and the same payload the same one).
pub fn default_instance_id(
    user_data: &[u8],
    network_config: Option<&[u8]>,
    vendor_data: Option<&[u8]>,
    hostname: Option<&str>,
) -> String {
    let mut h = FNV_OFFSET;
    // Each field tagged and length-prefixed: moving bytes between files changes the id.
    let fields: [(&[u8], Option<&[u8]>); 4] = [
        (b"u", Some(user_data)),
        (b"n", network_config),
        (b"v", vendor_data),
        (b"h", hostname.map(str::as_bytes)),
    ];
    for (tag, field) in fields {
        if let Some(bytes) = field {
            h = fnv1a(h, tag);
            h = fnv1a(h, &(bytes.len() as u64).to_le_bytes());
            h = fnv1a(h, bytes);
        }
    }
    format!("iid-cloudfold-{h:016x}")
}

/// An instance-id cloudfold writes: 1-128 visible ASCII characters.
fn check_instance_id(id: &str) -> Result<(), SeedError> {
    if id.is_empty() || id.len() > 128 || !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(SeedError::MetaData(format!(
            "instance-id {id:?}: use 1-128 visible ASCII characters"
        )));
    }
    Ok(())
}

/// A hostname: 1-253 letters, digits, `-` and `.`, labels of 1-63.
fn check_hostname(name: &str) -> Result<(), SeedError> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    if ok {
        Ok(())
    } else {
        Err(SeedError::MetaData(format!(
            "hostname {name:?}: use letters, digits, `-` and `.` (labels of 1-63, at most 253 in all)"
        )))
    }
}

/// A YAML double-quoted scalar (JSON's string syntax, which YAML reads the same).
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

impl MetaData {
    /// The `meta-data` bytes, and warnings (a given file without `instance-id` works, but
    /// cloud-init then calls every such instance `nocloud`).
    pub fn resolve(
        &self,
        user_data: &[u8],
        network_config: Option<&[u8]>,
        vendor_data: Option<&[u8]>,
    ) -> Result<(Vec<u8>, Vec<String>), SeedError> {
        match self {
            MetaData::Given(bytes) => Ok((bytes.clone(), check_given(bytes)?)),
            MetaData::Generated {
                instance_id,
                hostname,
            } => {
                if let Some(h) = hostname {
                    check_hostname(h)?;
                }
                let id = match instance_id {
                    Some(id) => {
                        check_instance_id(id)?;
                        id.clone()
                    }
                    None => default_instance_id(
                        user_data,
                        network_config,
                        vendor_data,
                        hostname.as_deref(),
                    ),
                };
                let mut out = format!("instance-id: {}\n", quoted(&id));
                if let Some(h) = hostname {
                    out.push_str(&format!("local-hostname: {}\n", quoted(h)));
                }
                Ok((out.into_bytes(), Vec::new()))
            }
        }
    }
}

/// A given `meta-data`: cloud-init loads it with `util.load_yaml`, which keeps only a mapping.
fn check_given(bytes: &[u8]) -> Result<Vec<String>, SeedError> {
    let root = load_bytes(bytes, &LoadOptions::default())
        .map_err(|e| SeedError::MetaData(format!("not YAML: {e}")))?;
    let Some(root) = root else {
        return Ok(vec![
            "meta-data is empty: cloud-init will use instance-id `nocloud`".to_owned(),
        ]);
    };
    let Some(map) = root.as_map() else {
        return Err(SeedError::MetaData(format!(
            "a YAML mapping is needed, not {} (cloud-init would ignore it)",
            root.type_name()
        )));
    };
    let mut warnings = Vec::new();
    match map.get_str("instance-id").map(|n| n.value()) {
        None => {
            warnings.push("meta-data has no instance-id: cloud-init will use `nocloud`".to_owned())
        }
        Some(Value::Null) => warnings.push(
            "meta-data's instance-id is null: cloud-init will not see a usable instance-id"
                .to_owned(),
        ),
        Some(_) => {}
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn default_id_depends_on_every_field() {
        let a = default_instance_id(b"x", None, None, None);
        assert_eq!(a, default_instance_id(b"x", None, None, None));
        assert!(a.starts_with("iid-cloudfold-") && a.len() == 30);
        assert_ne!(a, default_instance_id(b"x", Some(b""), None, None));
        assert_ne!(a, default_instance_id(b"x", None, None, Some("h")));
        assert_ne!(
            default_instance_id(b"", Some(b"x"), None, None),
            default_instance_id(b"", None, Some(b"x"), None)
        );
    }

    #[test]
    fn generated_is_quoted_yaml() {
        let m = MetaData::Generated {
            instance_id: Some("007".into()),
            hostname: Some("vm-1.lan".into()),
        };
        let (bytes, w) = m.resolve(b"", None, None).unwrap();
        assert_eq!(
            bytes,
            b"instance-id: \"007\"\nlocal-hostname: \"vm-1.lan\"\n"
        );
        assert!(w.is_empty());
        let bad = MetaData::Generated {
            instance_id: Some("a b".into()),
            hostname: None,
        };
        assert!(bad.resolve(b"", None, None).is_err());
        let bad = MetaData::Generated {
            instance_id: None,
            hostname: Some("a_b".into()),
        };
        assert!(bad.resolve(b"", None, None).is_err());
    }

    #[test]
    fn given_is_checked() {
        let ok = MetaData::Given(b"instance-id: i-1\n".to_vec());
        assert!(ok.resolve(b"", None, None).unwrap().1.is_empty());
        let no_id = MetaData::Given(b"local-hostname: h\n".to_vec());
        assert_eq!(no_id.resolve(b"", None, None).unwrap().1.len(), 1);
        assert!(
            MetaData::Given(b"- a\n".to_vec())
                .resolve(b"", None, None)
                .is_err()
        );
        assert!(
            MetaData::Given(b"a: [\n".to_vec())
                .resolve(b"", None, None)
                .is_err()
        );
    }
}
