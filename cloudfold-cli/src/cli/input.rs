//! Reading the payload (path or stdin) and resolving `#include`s from local files only.

use super::exit::Exit;
use cloudfold::seed::{ImageKind, SNIFF_LEN, SeedError, SeedImage, USER_DATA};
use cloudfold::userdata::{Fetched, IncludeResolver};
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

/// Why an input could not be read: over `--max-input-size` (a limit, exit 4), or anything else
/// (a missing file, an I/O error, a seed without user-data: exit 2). The message names the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum InputError {
    /// Larger than `--max-input-size` (the message names the flag).
    TooLarge(String),
    /// Not readable as an input.
    Failed(String),
}

impl InputError {
    /// The exit code this failure earns.
    pub(super) fn exit(&self) -> Exit {
        match self {
            InputError::TooLarge(_) => Exit::Limit,
            InputError::Failed(_) => Exit::Usage,
        }
    }

    /// The same failure, its message prefixed (`manifest: part 2: …`).
    pub(super) fn within(self, prefix: &str) -> InputError {
        match self {
            InputError::TooLarge(m) => InputError::TooLarge(format!("{prefix}: {m}")),
            InputError::Failed(m) => InputError::Failed(format!("{prefix}: {m}")),
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::TooLarge(m) | InputError::Failed(m) => f.write_str(m),
        }
    }
}

impl From<String> for InputError {
    fn from(message: String) -> Self {
        InputError::Failed(message)
    }
}

fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// INPUT's size when it is known before reading: a file, or stdin redirected
/// from one (a pipe says 0).
pub(super) fn size_hint(path: Option<&Path>) -> u64 {
    let file = match path {
        Some(p) if !is_stdin(path) => p,
        _ => Path::new("/dev/stdin"),
    };
    std::fs::metadata(file).map_or(0, |m| m.len())
}

/// Read INPUT (`-` or nothing: stdin), refusing more than `max` bytes.
pub(super) fn read_input(path: Option<&Path>, max: u64) -> Result<Vec<u8>, InputError> {
    let name = path.map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string());
    let stdin = is_stdin(path);
    // Sized once: growing the buffer by doubling cost a tenth of a big render.
    let size_hint = size_hint(path);
    let mut buf = Vec::with_capacity(usize::try_from(size_hint.min(max) + 1).unwrap_or(0));
    let reader: Box<dyn Read> = match path {
        Some(p) if !stdin => Box::new(std::fs::File::open(p).map_err(|e| format!("{name}: {e}"))?),
        _ => Box::new(std::io::stdin()),
    };
    reader
        .take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("{name}: {e}"))?;
    if buf.len() as u64 > max {
        return Err(InputError::TooLarge(format!(
            "{name}: input is larger than {max} bytes (raise it with --max-input-size)"
        )));
    }
    Ok(buf)
}

/// Read a payload INPUT: a file or stdin as [`read_input`] does; a NoCloud seed — a directory
/// with `user-data`, or an ISO 9660 or FAT image (found by its signature) — for its `user-data`.
pub(super) fn read_payload(path: Option<&Path>, max: u64) -> Result<Vec<u8>, InputError> {
    let Some(p) = path.filter(|_| !is_stdin(path)) else {
        let bytes = read_input(path, max)?;
        return match ImageKind::sniff(&bytes) {
            Some(kind) => seed_user_data(std::io::Cursor::new(bytes), kind, "<stdin>", max),
            None => Ok(bytes),
        };
    };
    let name = p.display().to_string();
    if p.is_dir() {
        let ud = p.join(USER_DATA);
        if !ud.is_file() {
            return Err(InputError::Failed(format!(
                "{name}: a directory without {USER_DATA} (a NoCloud seed directory holds user-data and meta-data)"
            )));
        }
        return read_input(Some(&ud), max);
    }
    let mut head = Vec::new();
    let mut file = std::fs::File::open(p).map_err(|e| format!("{name}: {e}"))?;
    (&mut file)
        .take(SNIFF_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    match ImageKind::sniff(&head) {
        Some(kind) => seed_user_data(std::io::BufReader::new(file), kind, &name, max),
        None => read_input(path, max),
    }
}

/// Where the payload [`read_payload`] reads from INPUT is, for annotations on its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum PayloadFile {
    /// Standard input.
    Stdin,
    /// This file holds it as it is (INPUT, or a seed directory's `user-data`).
    File(PathBuf),
    /// It is inside this seed image: no line of the image is one of the payload.
    InImage(PathBuf),
}

/// Where INPUT's payload is (see [`PayloadFile`]).
pub(super) fn payload_file(path: Option<&Path>) -> PayloadFile {
    let Some(p) = path.filter(|_| !is_stdin(path)) else {
        return PayloadFile::Stdin;
    };
    if p.is_dir() {
        return PayloadFile::File(p.join(USER_DATA));
    }
    let mut head = Vec::new();
    let sniffed = std::fs::File::open(p)
        .and_then(|f| f.take(SNIFF_LEN as u64).read_to_end(&mut head))
        .ok()
        .and_then(|_| ImageKind::sniff(&head));
    match sniffed {
        Some(_) => PayloadFile::InImage(p.to_owned()),
        None => PayloadFile::File(p.to_owned()),
    }
}

/// The `user-data` of the seed image `reader` (a seed without one is an error).
fn seed_user_data<R: Read + Seek>(
    reader: R,
    kind: ImageKind,
    name: &str,
    max: u64,
) -> Result<Vec<u8>, InputError> {
    let mut image = SeedImage::open(reader, kind).map_err(|e| format!("{name}: {e}"))?;
    match image.read(USER_DATA, max) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => {
            let files: Vec<&str> = image.files().iter().map(|f| f.name.as_str()).collect();
            Err(InputError::Failed(format!(
                "{name}: a {} image (label {:?}) without {USER_DATA}; its files: {}",
                kind.name(),
                image.label(),
                if files.is_empty() {
                    "none".to_owned()
                } else {
                    files.join(", ")
                }
            )))
        }
        Err(SeedError::Limit { size, limit, .. }) => Err(InputError::TooLarge(format!(
            "{name}: its {USER_DATA} is {size} bytes, larger than {limit} bytes (raise it with --max-input-size)"
        ))),
        Err(e) => Err(InputError::Failed(format!("{name}: {e}"))),
    }
}

/// Resolves `#include` URLs: never over the network; `file://` URLs and
/// absolute paths only when they lie under `--include-dir`.
#[derive(Debug, Default)]
pub(super) struct LocalIncludes {
    /// The directory local includes may come from.
    pub dir: Option<PathBuf>,
}

impl IncludeResolver for LocalIncludes {
    fn fetch(&self, url: &str) -> Fetched {
        let u = url.trim_start();
        let path = if let Some(rest) = u.strip_prefix("file://") {
            Some(PathBuf::from(rest))
        } else if u.starts_with('/') {
            Some(PathBuf::from(u))
        } else {
            None
        };
        let Some(path) = path else {
            return Fetched::Failed(
                "cloudfold never fetches URLs; at boot cloud-init would fetch it, and abort all user-data if that fails"
                    .into(),
            );
        };
        let Some(dir) = &self.dir else {
            return Fetched::Failed("local includes are read only under --include-dir".into());
        };
        let (Ok(dir), Ok(real)) = (dir.canonicalize(), path.canonicalize()) else {
            return Fetched::Failed(format!("{} does not exist", path.display()));
        };
        if !real.starts_with(&dir) {
            return Fetched::Failed(format!(
                "{} is outside --include-dir {}",
                path.display(),
                dir.display()
            ));
        }
        match std::fs::read(&real) {
            Ok(b) => Fetched::Content(b),
            Err(e) => Fetched::Failed(e.to_string()),
        }
    }
}
