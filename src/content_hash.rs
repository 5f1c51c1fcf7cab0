//! `fnv1a`: a 64-bit FNV-1a hash, for names derived from content (a MIME boundary, a seed's
//! instance-id and FAT volume serial) so that the same inputs give the same bytes.

/// FNV-1a over `data`, starting from `seed` (the offset basis, or a previous hash to chain).
pub(crate) fn fnv1a(seed: u64, data: &[u8]) -> u64 {
    data.iter().fold(seed, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// FNV-1a's offset basis.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
