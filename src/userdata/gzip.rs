//! `gunzip`: one gzip layer, as Python's `gzip.GzipFile.read()` does it, with a size limit.

use flate2::bufread::GzDecoder;
use std::io::Read;

/// Why a gzip stream did not decompress.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GzipError {
    /// Not gzip, truncated, corrupt, or followed by garbage (Python raises).
    #[error("{0}")]
    Invalid(String),
    /// The decompressed data would exceed the limit (cloud-init has none).
    #[error(
        "decompressed size exceeds the limit of {0} bytes (raise it with --max-decompressed-size)"
    )]
    TooLarge(u64),
}

/// Whether the bytes start like a gzip stream.
pub(super) fn looks_gzipped(data: &[u8]) -> bool {
    data.starts_with(&[0x1f, 0x8b])
}

/// Decompress every member (Python reads concatenated members; zero padding
/// between or after them is skipped; anything else after a member is an
/// error, as are a bad CRC or a truncated stream).
pub fn gunzip(data: &[u8], limit: u64) -> Result<Vec<u8>, GzipError> {
    if !looks_gzipped(data) {
        return Err(GzipError::Invalid("Not a gzipped file".into()));
    }
    // Inflated in chunks and joined once: a doubling `Vec` would reach twice
    // the limit in capacity, and with the copy of each regrowth a bomb would
    // hold up to three times the limit at once.
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    let mut total: u64 = 0;
    let mut rest = data;
    loop {
        let mut dec = GzDecoder::new(rest);
        loop {
            let mut chunk = Vec::with_capacity(CHUNK);
            let n = (&mut dec)
                .take(CHUNK as u64)
                .read_to_end(&mut chunk)
                .map_err(|e| GzipError::Invalid(e.to_string()))?;
            if n == 0 {
                break;
            }
            total = total.saturating_add(n as u64);
            if total > limit {
                return Err(GzipError::TooLarge(limit));
            }
            chunks.push(chunk);
        }
        if dec.header().is_none() {
            return Err(GzipError::Invalid("Not a gzipped file".into()));
        }
        rest = dec.into_inner();
        let skip = rest.iter().take_while(|&&b| b == 0).count();
        rest = rest.get(skip..).unwrap_or(&[]);
        if rest.is_empty() {
            return Ok(chunks.concat());
        }
        if !looks_gzipped(rest) {
            return Err(GzipError::Invalid(
                "Not a gzipped file (trailing garbage)".into(),
            ));
        }
    }
}

/// How much is inflated at a time.
const CHUNK: usize = 1 << 20;

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn members_padding_garbage_limits() {
        let mut two = gz(b"ab");
        two.extend(gz(b"cd"));
        assert_eq!(gunzip(&two, 100).unwrap(), b"abcd");
        let mut padded = gz(b"ab");
        padded.extend([0, 0, 0]);
        assert_eq!(gunzip(&padded, 100).unwrap(), b"ab");
        let mut garbage = gz(b"ab");
        garbage.extend(b"xx");
        assert!(matches!(gunzip(&garbage, 100), Err(GzipError::Invalid(_))));
        let full = gz(b"hello");
        assert!(gunzip(&full[..full.len() - 3], 100).is_err());
        assert_eq!(
            gunzip(&gz(&[7u8; 1000]), 999),
            Err(GzipError::TooLarge(999))
        );
        assert!(gunzip(b"plain", 100).is_err());
    }
}
