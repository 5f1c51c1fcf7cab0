//! `write_stdout`: the one way a command writes its result to standard output.

use std::io::{ErrorKind, Write};

/// Write `bytes` to standard output and flush.
///
/// A closed pipe (`cloudfold render | head`) is the reader's choice, not an
/// error: the rest is dropped quietly, as `cat` or `rg` do. Any other failure
/// (a full disk, say) is an I/O error for the caller to report.
pub(super) fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    written(out.write_all(bytes).and_then(|()| out.flush()))
}

/// [`write_stdout`] of a text in pieces, written one after the other.
pub(super) fn write_stdout_pieces(pieces: &[String]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let r = pieces
        .iter()
        .try_for_each(|p| out.write_all(p.as_bytes()))
        .and_then(|()| out.flush());
    written(r)
}

/// Standard output, buffered, for a result written as it is made (a large
/// JSON text is not held whole); pass what writing it returned to [`written`].
pub(crate) fn stdout_writer() -> std::io::BufWriter<std::io::Stdout> {
    std::io::BufWriter::with_capacity(64 << 10, std::io::stdout())
}

/// A write to standard output's outcome, as [`write_stdout`] reports it.
pub(crate) fn written(r: std::io::Result<()>) -> Result<(), String> {
    match r {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => {
            Err(format!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}
