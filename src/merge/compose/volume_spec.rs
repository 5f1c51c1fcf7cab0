//! `VolumeSpec`: the short service-volume syntax (`src:dst:opts`) as compose-go's `ParseVolume` reads it.

use super::VolumeSpecError;

/// A parsed short volume.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VolumeSpec {
    /// `source`, empty for an anonymous volume.
    pub source: String,
    /// `target`.
    pub target: String,
    /// `read_only`.
    pub read_only: bool,
    /// `volume.nocopy` was given.
    pub nocopy: bool,
    /// `bind.propagation`.
    pub propagation: Option<String>,
    /// `bind.selinux`.
    pub selinux: Option<String>,
    /// `type` is `bind` (else `volume`).
    pub bind: bool,
    /// A one- or two-character spec: only a target, no `volume: {}`.
    pub bare: bool,
}

/// Parse a short volume. One- and two-character specs are an anonymous
/// volume's target; a one-letter section before `:` is a Windows drive
/// (so `v:/c:ro` is the bind of `v:/c` onto `ro`, as in compose-go).
pub fn parse_volume(spec: &str) -> Result<VolumeSpec, VolumeSpecError> {
    let mut v = VolumeSpec::default();
    match spec.chars().count() {
        0 => return Err(VolumeSpecError::Empty),
        1 | 2 => {
            v.target = spec.to_string();
            v.bare = true;
            return Ok(v);
        }
        _ => {}
    }
    let mut buffer = String::new();
    let mut options: Option<String> = None;
    for c in spec.chars().map(Some).chain(std::iter::once(None)) {
        let end = c.is_none();
        if !end && c == Some(':') && is_drive(&buffer) {
            buffer.push(':');
            continue;
        }
        if end || c == Some(':') {
            if buffer.is_empty() {
                return Err(VolumeSpecError::EmptySection(spec.to_owned()));
            }
            if v.source.is_empty() && end {
                v.target = std::mem::take(&mut buffer);
            } else if v.source.is_empty() {
                v.source = std::mem::take(&mut buffer);
            } else if v.target.is_empty() {
                v.target = std::mem::take(&mut buffer);
            } else if !end {
                return Err(VolumeSpecError::TooManyColons(spec.to_owned()));
            } else {
                options = Some(std::mem::take(&mut buffer));
            }
            continue;
        }
        if let Some(c) = c {
            buffer.push(c);
        }
    }
    for option in options.as_deref().unwrap_or_default().split(',') {
        match option {
            "ro" => v.read_only = true,
            "rw" => v.read_only = false,
            "nocopy" => v.nocopy = true,
            "z" | "Z" => v.selinux = Some(option.to_string()),
            "rprivate" | "private" | "rshared" | "shared" | "rslave" | "slave" => {
                v.propagation = Some(option.to_string())
            }
            _ => {}
        }
    }
    v.bind = is_file_path(&v.source);
    Ok(v)
}

// compose-go's `unicode.IsLetter` is Go's (Unicode category L), not a Python or
// Ruby helper; Rust's Alphabetic is kept as the nearest std predicate.
fn is_drive(buffer: &str) -> bool {
    let mut cs = buffer.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if c.is_alphabetic())
}

fn is_file_path(source: &str) -> bool {
    let mut cs = source.chars();
    match (cs.next(), cs.next()) {
        (None, _) => false,
        (Some('.' | '/' | '~'), _) => true,
        _ if source.starts_with("\\\\") => true,
        // Go's unicode.IsLetter, as in is_drive.
        (Some(c), Some(':')) => c.is_alphabetic(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_volumes_parse_like_compose() {
        let v = parse_volume("data:/c:ro").unwrap();
        assert_eq!(
            (v.source.as_str(), v.target.as_str(), v.read_only, v.bind),
            ("data", "/c", true, false)
        );
        let v = parse_volume("v:/c:ro").unwrap();
        assert_eq!(
            (v.source.as_str(), v.target.as_str(), v.bind),
            ("v:/c", "ro", true)
        );
        let v = parse_volume("/d").unwrap();
        assert_eq!((v.source.as_str(), v.target.as_str()), ("", "/d"));
        let v = parse_volume("./e:/f:rw,z").unwrap();
        assert_eq!(v.selinux.as_deref(), Some("z"));
        assert!(parse_volume("ab::c").is_err());
    }
}
