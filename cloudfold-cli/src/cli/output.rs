//! Writing results: atomically (a 0600 temp file beside the target, then rename), never over an input.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The canonical path a (maybe not yet existing) file will have.
pub(super) fn canonical_target(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = p.canonicalize() {
        return Some(c);
    }
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(p.file_name()?))
}

/// True when `out` is one of `inputs` (or, with `tree`, when an input lies inside `out`).
pub(super) fn is_an_input(out: &Path, inputs: &[PathBuf], tree: bool) -> bool {
    let Some(t) = canonical_target(out) else {
        return false;
    };
    inputs
        .iter()
        .filter_map(|i| i.canonicalize().ok())
        .any(|i| i == t || (tree && i.starts_with(&t)))
}

/// The directory `out` is in, and the name of a temp file or directory beside it.
pub(super) fn temp_beside(out: &Path, tag: &str) -> Result<(PathBuf, PathBuf), String> {
    let name = out.display().to_string();
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let base = out
        .file_name()
        .ok_or_else(|| format!("{name}: not a file name"))?
        .to_string_lossy();
    Ok((
        dir.to_path_buf(),
        dir.join(format!(".{base}.cloudfold-{}.{tag}", std::process::id())),
    ))
}

/// Create `path` (which must not exist) with mode 0600 and `bytes`, synced to disk.
pub(super) fn write_new_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Write `bytes` to `out` atomically: a 0600 temp file beside it, then rename.
pub(super) fn write_atomically(out: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = out.display().to_string();
    let (_, tmp) = temp_beside(out, "tmp")?;
    let result = write_new_private(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, out));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{name}: {e}"));
    }
    Ok(())
}
