//! `AnalysisCache`: the scalar analyses of one dump, kept for short ASCII texts by their bytes.

use super::scalar_analysis::ScalarAnalysis;
use std::cell::Cell;

/// Slots, a power of two: a merged cloud-config's repeated texts are a few
/// dozen.
const SLOTS: usize = 256;

/// Longest text kept: two words.
const MAX_LEN: usize = 16;

/// A merged cloud-config writes the same keys (`path`, `owner`) and many of
/// the same values (`sh`, `-c`, package names, `root:root`) thousands of
/// times, and analysing a text costs several times looking it up here.
/// Direct-mapped: a text takes the slot of whatever was there. An analysis
/// depends on nothing but the text and the dump's options, which are one
/// emitter's for its life.
pub(super) struct AnalysisCache(Box<[Cell<Entry>]>);

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The text's length; 0 in an empty slot (the empty text is not kept).
    len: u8,
    /// The text's bytes, zero-padded.
    words: [u64; 2],
    analysis: ScalarAnalysis,
    /// Whether the text written plain loads as a `str`, once asked.
    plain_str: Option<bool>,
}

impl AnalysisCache {
    pub(super) fn new() -> Self {
        AnalysisCache((0..SLOTS).map(|_| Cell::new(Entry::default())).collect())
    }

    /// The slot `text` takes and its words; `None` for a text not kept.
    fn slot(&self, text: &[u8]) -> Option<(&Cell<Entry>, [u64; 2])> {
        let words = words_of(text)?;
        let [lo, hi] = words;
        let len = text.len() as u64;
        let hash = (lo ^ hi.rotate_left(29) ^ len).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = self.0.get((hash >> 56) as usize % SLOTS)?;
        Some((slot, words))
    }

    /// The analysis of `text`: the one kept, or `analyse`'s (then kept).
    pub(super) fn get(
        &self,
        text: &[u8],
        analyse: impl FnOnce() -> ScalarAnalysis,
    ) -> ScalarAnalysis {
        let Some((slot, words)) = self.slot(text) else {
            return analyse();
        };
        let len = text.len() as u8;
        let kept = slot.get();
        if kept.len == len && kept.words == words {
            return kept.analysis;
        }
        let analysis = analyse();
        slot.set(Entry {
            len,
            words,
            analysis,
            plain_str: None,
        });
        analysis
    }

    /// Whether `text` written plain loads as a `str`: the answer kept with
    /// its analysis, or `resolve`'s (then kept, when its analysis is). The
    /// emitter asks right after analysing the text, so its slot holds it.
    pub(super) fn plain_str(&self, text: &[u8], resolve: impl FnOnce() -> bool) -> bool {
        let Some((slot, words)) = self.slot(text) else {
            return resolve();
        };
        let mut kept = slot.get();
        if kept.len != text.len() as u8 || kept.words != words {
            return resolve();
        }
        if let Some(known) = kept.plain_str {
            return known;
        }
        let answer = resolve();
        kept.plain_str = Some(answer);
        slot.set(kept);
        answer
    }
}

/// The bytes of a text of 1 to [`MAX_LEN`] bytes as two little-endian
/// words, zero-padded (with the length, they are the text).
fn words_of(text: &[u8]) -> Option<[u64; 2]> {
    let len = text.len();
    if len == 0 || len > MAX_LEN {
        return None;
    }
    let Some(first) = text.first_chunk::<8>() else {
        let lo = text.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b));
        return Some([lo, 0]);
    };
    // Bytes 8.. as the low bytes of the last eight, shifted down past
    // those the first word holds.
    let hi = match text.last_chunk::<8>() {
        Some(last) if len > 8 => u64::from_le_bytes(*last) >> (8 * (MAX_LEN - len)),
        _ => 0,
    };
    Some([u64::from_le_bytes(*first), hi])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two texts share their words (and length) only when they are equal.
    #[test]
    fn words_are_the_text() {
        let texts: Vec<Vec<u8>> = (0..=MAX_LEN + 1)
            .flat_map(|n| {
                [
                    (0..n).map(|i| b'a' + i as u8).collect::<Vec<u8>>(),
                    (0..n).map(|i| b'z' - i as u8).collect(),
                    vec![b'x'; n],
                    vec![0; n],
                ]
            })
            .collect();
        for a in &texts {
            let wa = words_of(a);
            assert_eq!(wa.is_some(), (1..=MAX_LEN).contains(&a.len()));
            let Some(wa) = wa else { continue };
            let back: Vec<u8> = wa
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(a.len())
                .collect();
            assert_eq!(&back, a);
            for b in &texts {
                if words_of(b) == Some(wa) && b.len() == a.len() {
                    assert_eq!(a, b);
                }
            }
        }
    }

    /// A kept analysis is the one computed for that very text.
    #[test]
    fn kept_analyses_are_their_texts() {
        let cache = AnalysisCache::new();
        let starts = ["a", "- ", "#x", ": "].iter().cycle();
        let texts: Vec<String> = (0..2000)
            .zip(starts)
            .map(|(i, s)| format!("{s}{i}"))
            .collect();
        for round in 0..2 {
            for t in &texts {
                let want = ScalarAnalysis::of(t.as_bytes(), true, false);
                let got = cache.get(t.as_bytes(), || {
                    ScalarAnalysis::of(t.as_bytes(), true, false)
                });
                assert_eq!(got, want, "{t:?} round {round}");
                let want = crate::yaml::emitter::implicit_resolver::resolves_to_str(t.as_bytes());
                let got = cache.plain_str(t.as_bytes(), || {
                    crate::yaml::emitter::implicit_resolver::resolves_to_str(t.as_bytes())
                });
                assert_eq!(got, want, "{t:?} round {round}");
            }
        }
    }
}
