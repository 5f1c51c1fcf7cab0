//! `cloudfold build`: assemble a payload from files and/or a manifest, write it atomically, report its size.

use super::args::{BuildArgs, BuildLayout, BuildStyle};
use super::exit::{Exit, Failure};
use super::input::{InputError, read_input};
use super::manifest::Manifest;
use super::output::{is_an_input, write_atomically};
use cloudfold::build::{BuildOptions, PartSpec, Style, build};
use std::path::{Path, PathBuf};

/// Largest single input file.
pub(super) const MAX_PART: u64 = 64 << 20;

/// `PATH` or `PATH:TYPE`: an existing file wins over the split, so paths
/// containing `:` still work.
pub(super) fn split_part_arg(arg: &str) -> (PathBuf, Option<String>) {
    if Path::new(arg).is_file() {
        return (PathBuf::from(arg), None);
    }
    match arg.rsplit_once(':') {
        Some((p, t)) if !p.is_empty() && !t.is_empty() => (PathBuf::from(p), Some(t.to_owned())),
        _ => (PathBuf::from(arg), None),
    }
}

/// The parts of a build: the manifest's, then those on the command line (each file read with
/// at most `max` bytes); the files read (so no output overwrites one); the build options.
pub(super) fn assemble(
    parts: &[String],
    manifest: Option<&Path>,
    layout: &BuildLayout,
    force: bool,
    max: u64,
) -> Result<(Vec<PartSpec>, Vec<PathBuf>, BuildOptions), InputError> {
    let mut specs: Vec<PartSpec> = Vec::new();
    let mut inputs: Vec<PathBuf> = Vec::new();
    let mut merge_type = layout.merge_type.clone();
    if let Some(m) = manifest {
        let manifest = Manifest::read(m, max)?;
        specs.extend(manifest.parts);
        inputs.extend(manifest.inputs);
        inputs.push(m.to_path_buf());
        if merge_type.is_none() {
            merge_type = manifest.merge_type;
        }
    }
    for arg in parts {
        let (path, content_type) = split_part_arg(arg);
        let content = read_input(Some(&path), max)?;
        specs.push(PartSpec {
            content,
            content_type,
            filename: path.file_name().map(|n| n.to_string_lossy().into_owned()),
            merge_type: None,
            headers: Vec::new(),
        });
        inputs.push(path);
    }
    let opts = BuildOptions {
        style: match layout.style {
            BuildStyle::CloudInit => Style::CloudInit,
            BuildStyle::Terraform => Style::Terraform,
        },
        boundary: layout.boundary.clone(),
        merge_type,
        gzip: layout.gzip,
        base64: if layout.no_base64 {
            Some(false)
        } else if layout.base64 {
            Some(true)
        } else {
            None
        },
        force,
    };
    Ok((specs, inputs, opts))
}

pub(super) fn run(a: &BuildArgs) -> Result<Exit, Failure> {
    let (specs, inputs, opts) = assemble(
        &a.parts,
        a.manifest.as_deref(),
        &a.layout,
        a.force,
        MAX_PART,
    )?;
    if let Some(out) = &a.output
        && is_an_input(out, &inputs, false)
    {
        eprintln!(
            "error: refusing to overwrite {}: it is one of the inputs",
            out.display()
        );
        return Ok(Exit::Usage);
    }
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
