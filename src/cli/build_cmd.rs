//! `cloudfold build`: assemble a payload from files and/or a manifest, write it atomically, report its size.

use super::args::{BuildArgs, BuildStyle};
use super::exit::Exit;
use super::input::read_input;
use super::manifest::Manifest;
use cloudfold::build::{BuildOptions, PartSpec, Style, build};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Largest single input file.
const MAX_PART: u64 = 64 << 20;

/// `PATH` or `PATH:TYPE`: an existing file wins over the split, so paths
/// containing `:` still work.
fn split_part_arg(arg: &str) -> (PathBuf, Option<String>) {
    if Path::new(arg).is_file() {
        return (PathBuf::from(arg), None);
    }
    match arg.rsplit_once(':') {
        Some((p, t)) if !p.is_empty() && !t.is_empty() => (PathBuf::from(p), Some(t.to_owned())),
        _ => (PathBuf::from(arg), None),
    }
}

/// The canonical path a (maybe not yet existing) file will have.
fn canonical_target(p: &Path) -> Option<PathBuf> {
    if let Ok(c) = p.canonicalize() {
        return Some(c);
    }
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(parent.canonicalize().ok()?.join(p.file_name()?))
}

/// Write `bytes` to `out` atomically: a 0600 temp file beside it, then rename.
fn write_atomically(out: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::os::unix::fs::OpenOptionsExt;
    let name = out.display().to_string();
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let base = out
        .file_name()
        .ok_or_else(|| format!("{name}: not a file name"))?
        .to_string_lossy();
    let tmp = dir.join(format!(".{base}.cloudfold-{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, out)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("{name}: {e}"));
    }
    Ok(())
}

pub fn run(a: &BuildArgs) -> Result<Exit, String> {
    let mut specs: Vec<PartSpec> = Vec::new();
    let mut inputs: Vec<PathBuf> = Vec::new();
    let mut merge_type = a.merge_type.clone();
    if let Some(m) = &a.manifest {
        let manifest = Manifest::read(m, MAX_PART)?;
        specs.extend(manifest.parts);
        inputs.extend(manifest.inputs);
        inputs.push(m.clone());
        if merge_type.is_none() {
            merge_type = manifest.merge_type;
        }
    }
    for arg in &a.parts {
        let (path, content_type) = split_part_arg(arg);
        let content = read_input(Some(&path), MAX_PART)?;
        specs.push(PartSpec {
            content,
            content_type,
            filename: path.file_name().map(|n| n.to_string_lossy().into_owned()),
            merge_type: None,
            headers: Vec::new(),
        });
        inputs.push(path);
    }
    if let Some(out) = &a.output {
        let target = canonical_target(out);
        if let Some(t) = &target
            && inputs
                .iter()
                .any(|i| i.canonicalize().ok().as_ref() == Some(t))
        {
            eprintln!(
                "error: refusing to overwrite {}: it is one of the inputs",
                out.display()
            );
            return Ok(Exit::Usage);
        }
    }
    let opts = BuildOptions {
        style: match a.style {
            BuildStyle::CloudInit => Style::CloudInit,
            BuildStyle::Terraform => Style::Terraform,
        },
        boundary: a.boundary.clone(),
        merge_type,
        gzip: a.gzip,
        base64: if a.no_base64 {
            Some(false)
        } else if a.base64 {
            Some(true)
        } else {
            None
        },
        force: a.force,
    };
    let built = match build(&specs, &opts) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Usage);
        }
    };
    match &a.output {
        Some(out) => write_atomically(out, &built.bytes)?,
        None => {
            super::stdout::write_stdout(&built.bytes)?;
        }
    }
    let mut sizes = format!("{} B MIME", built.mime.len());
    if opts.gzip {
        let gz = if opts.base64_output() {
            built.bytes.len() / 4 * 3 - built.bytes.iter().rev().take_while(|&&b| b == b'=').count()
        } else {
            built.bytes.len()
        };
        sizes.push_str(&format!(", {gz} B gzip"));
    }
    if opts.base64_output() {
        sizes.push_str(&format!(", {} B base64", built.bytes.len()));
    }
    eprintln!(
        "built {} part{}: {sizes} (boundary \"{}\")",
        built.parts.len(),
        if built.parts.len() == 1 { "" } else { "s" },
        built.boundary
    );
    Ok(Exit::Ok)
}
