//! `SplitParse`: a large root multipart's second half parsed on the helper thread, adopted only where the main parse reaches its first line.
//!
//! Past the root multipart's preamble, every line that matches the root's
//! delimiter ends whatever part is open, at any depth (Python's parser
//! checks every enclosing boundary on every line), and the root parses what
//! follows as its next part: from such a line on, the parse depends on
//! nothing before it but the boundary, the root's content type, and the
//! line's position. So a line near the middle is chosen and the rest of the
//! body parsed from it on the other thread while this one parses up to it
//! (its line numbers counted from there, and shifted when adopted).
//! The main parse takes the other half only if its root loop reads that
//! very line as a delimiter; anything else (a close delimiter before it, a
//! line swallowed among repeated delimiters, a failure on either side) and
//! it parses on by itself, as it would have without a split. The helper
//! chooses its line when it begins, halfway between where the main parse
//! has got to and the end: a helper that wakes late still takes half of
//! what is left.

use super::line_reader::{LineReader, find_eol, match_boundary};
use super::parser::{ParsedRest, parse_rest};
use super::pystr::eol_len_at_start;
use crate::run_aside::{AsideJob, RunAside};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

/// Body size from which a second thread pays (below, handing the job over
/// costs about what it saves): each half at least 64 KiB.
pub(super) const MIN_SPLIT_BYTES: usize = 128 << 10;

/// [`SplitState::at`] before the helper has chosen its line.
const PENDING: usize = usize::MAX;
/// [`SplitState::at`] once the main parse no longer wants a second half.
const CANCELLED: usize = usize::MAX - 1;

/// The second half of a multipart's body, handed to the helper.
pub(super) struct SplitParse {
    /// The multipart's node id.
    root: usize,
    state: Arc<SplitState>,
    result: Receiver<Option<ParsedRest>>,
}

/// What the two threads share.
struct SplitState {
    /// The start of the delimiter line the main parse read last: the helper,
    /// whenever it begins (a waking virtual CPU may take milliseconds), cuts
    /// the rest of the body in two from there.
    progress: AtomicUsize,
    /// The start of the delimiter line the helper parses from, once chosen.
    at: AtomicUsize,
}

impl SplitParse {
    /// Hand the rest of multipart `root`'s body to `aside`, if the reader
    /// has a shared text with at least `min_bytes` left (`aside`'s second
    /// number); the reader is at the body's start.
    pub(super) fn start(
        r: &LineReader<'_>,
        aside: Option<(&dyn RunAside, usize)>,
        root: usize,
        boundary: &str,
        content_type: &str,
    ) -> Option<SplitParse> {
        let (aside, min_bytes) = aside?;
        let source = r.source()?;
        let (from, _) = r.next_position();
        if source.len().saturating_sub(from) < min_bytes {
            return None;
        }
        let state = Arc::new(SplitState {
            progress: AtomicUsize::new(from),
            at: AtomicUsize::new(PENDING),
        });
        let (tx, result) = sync_channel(1);
        let job: AsideJob = {
            let (source, state) = (Arc::clone(source), Arc::clone(&state));
            let (boundary, content_type) = (boundary.to_owned(), content_type.to_owned());
            Box::new(move || {
                let from = state.progress.load(Ordering::Relaxed);
                let left = source.len().saturating_sub(from);
                if left < min_bytes {
                    return;
                }
                let Some(at) = delimiter_from(&source, from + left / 2, &boundary) else {
                    return;
                };
                if state
                    .at
                    .compare_exchange(PENDING, at, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
                {
                    let _ = tx.send(parse_rest(&source, at, &boundary, &content_type));
                }
            })
        };
        aside.run_aside(job).ok()?;
        Some(SplitParse {
            root,
            state,
            result,
        })
    }

    /// Multipart `id`'s loop reads the delimiter line at byte `pos`: whether
    /// the helper parses from there on.
    pub(super) fn begins_at(&self, id: usize, pos: usize) -> bool {
        if id != self.root {
            return false;
        }
        self.state.progress.store(pos, Ordering::Relaxed);
        self.state.at.load(Ordering::Acquire) == pos
    }

    /// The helper's parse (line numbers from 0 at its first line); `None`
    /// if it failed: the caller then parses on by itself.
    pub(super) fn finish(self) -> Option<ParsedRest> {
        let rest = self.result.recv().ok().flatten();
        #[cfg(test)]
        if rest.is_some() {
            tests::ADOPTED.fetch_add(1, Ordering::Relaxed);
        }
        rest
    }
}

impl Drop for SplitParse {
    /// The parse ended without meeting the helper's line (or adopted it):
    /// a helper that has not chosen one yet need not begin.
    fn drop(&mut self) {
        let _ =
            self.state
                .at
                .compare_exchange(PENDING, CANCELLED, Ordering::AcqRel, Ordering::Acquire);
    }
}

/// The start of the first line at or after byte `from` that matches the
/// delimiter of `boundary` (after a `\n`, so it is a line start).
fn delimiter_from(text: &str, from: usize, boundary: &str) -> Option<usize> {
    let needle = format!("\n--{boundary}");
    // The middle of the text may fall inside a character.
    let mut i = (from..text.len()).find(|&i| text.is_char_boundary(i))?;
    loop {
        let start = i + text.get(i..)?.find(&needle)? + 1;
        let rest = text.get(start..)?;
        let end = find_eol(rest.as_bytes()).map_or(rest.len(), |e| {
            e + eol_len_at_start(rest.get(e..).unwrap_or(""))
        });
        if match_boundary(rest.get(..end)?, boundary).is_some() {
            return Some(start);
        }
        i = start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mime::{parse, parse_shared_splitting};

    /// Second halves adopted so far (by any test of this binary).
    pub(super) static ADOPTED: AtomicUsize = AtomicUsize::new(0);

    /// Runs the job at once, on the caller's thread: the helper's line is
    /// chosen before the main parse reads a single part.
    struct Inline;

    impl RunAside for Inline {
        fn run_aside(&self, job: AsideJob) -> Result<(), AsideJob> {
            job();
            Ok(())
        }
    }

    /// A multipart of `n` parts of every kind (text, nested multipart with
    /// its own or the root's boundary, message/rfc822, repeated delimiters),
    /// lines ending in `eol`, closed or not.
    fn document(n: usize, eol: &str, close: bool) -> String {
        let mut d = format!(
            "Content-Type: multipart/mixed; boundary=\"B\"{eol}MIME-Version: 1.0{eol}{eol}preamble{eol}"
        );
        for i in 0..n {
            d += &format!("--B{eol}");
            match i % 5 {
                0 => d += &format!("Content-Type: text/plain{eol}{eol}part {i}{eol}line{eol}"),
                1 => {
                    d += &format!(
                        "Content-Type: multipart/alternative; boundary=C{eol}{eol}--C{eol}{eol}in {i}{eol}--C{eol}Content-Type: text/x{eol}{eol}two{eol}"
                    )
                }
                2 => {
                    d += &format!(
                        "Content-Type: message/rfc822{eol}{eol}Subject: {i}{eol}{eol}body{eol}"
                    )
                }
                3 => {
                    d += &format!(
                        "Content-Type: multipart/mixed; boundary=B{eol}{eol}--B{eol}same {i}{eol}"
                    )
                }
                _ => d += &format!("X: {i}{eol}bad header line{eol}{eol}--B {eol}"),
            }
        }
        if close {
            d += &format!("--B--{eol}epilogue{eol}");
        }
        d
    }

    #[test]
    fn a_split_parse_is_the_parse() {
        for eol in ["\n", "\r\n", "\r"] {
            for close in [true, false] {
                for n in [1, 2, 3, 7, 40] {
                    let text = document(n, eol, close);
                    let before = ADOPTED.load(Ordering::Relaxed);
                    let src = Arc::new(text.clone());
                    let split = parse_shared_splitting(&src, Some(&Inline), 0);
                    assert_eq!(parse(&text), split, "{text:?}");
                    // A `\r`-only text has no `\n` to find a line after.
                    if n >= 3 && eol != "\r" {
                        assert!(ADOPTED.load(Ordering::Relaxed) > before, "{text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_split_line_matches_the_delimiter() {
        let text = "x\n--Bx\n --B\n--B \t\r\nrest\n--B--\n";
        assert_eq!(delimiter_from(text, 0, "B"), Some(12));
        assert_eq!(delimiter_from(text, 13, "B"), Some(24));
        assert_eq!(delimiter_from(text, 25, "B"), None);
        let text = "\u{e9}\u{e9}\n--B\n";
        assert_eq!(
            delimiter_from(text, 1, "B"),
            Some(5),
            "from inside a character"
        );
    }
}
