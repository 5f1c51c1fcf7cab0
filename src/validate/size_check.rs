//! `size_diagnostics`: the payload's raw, gzip and base64 sizes against a platform's limit, with each part's share.

use super::{Measure, Platform, SizeKind};
use crate::diagnostic::Diagnostic;
use crate::userdata::PartReport;
use std::io::Write;

/// The limit to check: a platform's, or `--max-size` (raw bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeLimit {
    /// The platform (`None`: a plain byte limit).
    pub platform: Option<Platform>,
    /// The limit in bytes.
    pub limit: u64,
    /// What it applies to.
    pub measure: Measure,
}

impl SizeLimit {
    /// The platform's documented limit.
    pub fn platform(p: Platform) -> Self {
        SizeLimit {
            platform: Some(p),
            limit: p.limit(),
            measure: p.measure(),
        }
    }

    /// A raw byte limit.
    pub fn bytes(limit: u64) -> Self {
        SizeLimit {
            platform: None,
            limit,
            measure: Measure::Raw,
        }
    }
}

fn base64_len(n: u64) -> u64 {
    n.div_ceil(3) * 4
}

fn gzip_len(data: &[u8]) -> u64 {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    if enc.write_all(data).is_err() {
        return data.len() as u64;
    }
    enc.finish().map_or(data.len() as u64, |v| v.len() as u64)
}

/// The size diagnostic (one) for `raw` under `limit`, with notes on every size and part.
pub(super) fn size_diagnostics(
    raw: &[u8],
    parts: &[PartReport],
    limit: SizeLimit,
) -> Vec<Diagnostic> {
    let raw_len = raw.len() as u64;
    let measure = |n: u64| match limit.measure {
        Measure::Raw => n,
        Measure::Base64 => base64_len(n),
    };
    let size = measure(raw_len);
    let gzipped = raw.starts_with(&[0x1f, 0x8b]);
    let gz = if gzipped { raw_len } else { gzip_len(raw) };
    let (platform, lim) = (limit.platform, limit.limit);
    let kind = if size > lim {
        SizeKind::OverLimit {
            platform,
            size,
            limit: lim,
        }
    } else if size * 10 > lim * 9 {
        SizeKind::NearLimit {
            platform,
            size,
            limit: lim,
        }
    } else {
        SizeKind::Budget {
            platform,
            size,
            limit: lim,
        }
    };
    let mut d = Diagnostic::new(&kind).with_note(format!(
        "sizes: raw {raw_len} bytes, base64 {} bytes, gzip -9 {gz} bytes{}, gzip then base64 {} bytes",
        base64_len(raw_len),
        if gzipped { " (already gzip)" } else { "" },
        base64_len(gz)
    ));
    let total: u64 = parts.iter().map(|p| p.size as u64).sum();
    let mut shares: Vec<&PartReport> = parts.iter().collect();
    shares.sort_by_key(|p| std::cmp::Reverse(p.size));
    for p in shares.iter().take(10) {
        d = d.with_note(format!(
            "part {} ({}): {} bytes, {}% of the decoded parts",
            p.number,
            p.filename(),
            p.size,
            (p.size as u64) * 100 / total.max(1)
        ));
    }
    if parts.len() > 10 {
        d = d.with_note(format!("... and {} smaller parts", parts.len() - 10));
    }
    if size > lim || matches!(kind, SizeKind::NearLimit { .. }) {
        let gz_size = measure(gz);
        d = if gzipped {
            d.with_help("the payload is already gzip: move large files out (#include, or fetch them in runcmd)")
        } else if gz_size <= lim {
            d.with_help(format!(
                "gzip it: {gz_size} bytes measured the same way, within the limit (cloud-init decompresses gzip user-data)"
            ))
        } else {
            d.with_help(format!(
                "even gzipped it is {gz_size} bytes: move large files out (#include, or fetch them in runcmd)"
            ))
        };
    }
    vec![d]
}
