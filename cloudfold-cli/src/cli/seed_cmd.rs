//! `cloudfold seed`: a NoCloud seed (ISO, FAT image or directory) from a payload, validated first,
//! written atomically with mode 0600.

use super::args::{SeedArgs, SeedFormatArg};
use super::build_cmd::{assemble, split_part_arg};
use super::exit::{Exit, Failure};
use super::input::{InputError, LocalIncludes, read_input};
use super::output::{is_an_input, temp_beside, write_atomically, write_new_private};
use cloudfold::build::build;
use cloudfold::diagnostic::{HumanRenderer, Severity};
use cloudfold::seed::{
    DEFAULT_EPOCH, MetaData, NetworkConfig, SEED_FILE_NAMES, Seed, SeedFiles, SeedFormat,
    SeedOptions, default_instance_id, make_seed,
};
use cloudfold::userdata::{Preload, UserDataOptions};
use cloudfold::validate::{ValidateOptions, validate};
use std::path::{Path, PathBuf};

/// A refusal: its exit code and message (nothing is written).
type Refusal = (Exit, String);
/// A step's outcome: an I/O or usage error (`Err`), a refusal, or its value.
type Step<T> = Result<Result<T, Refusal>, Failure>;

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org), else [`DEFAULT_EPOCH`].
fn epoch() -> Result<i64, String> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(v) if !v.trim().is_empty() => v
            .trim()
            .parse()
            .map_err(|_| format!("SOURCE_DATE_EPOCH={v:?}: not a number of seconds")),
        _ => Ok(DEFAULT_EPOCH),
    }
}

/// Read an input file, mapping "over the limit" to exit 4.
fn read_file(path: &Path, max: u64) -> Step<Vec<u8>> {
    match read_input(Some(path), max) {
        Ok(b) => Ok(Ok(b)),
        Err(e @ InputError::TooLarge(_)) => Ok(Err((e.exit(), e.to_string()))),
        Err(e) => Err(e.into()),
    }
}

/// The user-data bytes: one plain PATH as it is; otherwise assembled by `build`.
fn user_data(a: &SeedArgs, inputs: &mut Vec<PathBuf>) -> Step<Vec<u8>> {
    let single = match a.user_data.as_slice() {
        [one] if a.manifest.is_none() && a.layout.is_default() => {
            let (path, ty) = split_part_arg(one);
            ty.is_none().then_some(path)
        }
        _ => None,
    };
    if let Some(path) = single {
        inputs.push(path.clone());
        return read_file(&path, a.max_input_size);
    }
    let (specs, read, opts) = match assemble(
        &a.user_data,
        a.manifest.as_deref(),
        &a.layout,
        a.force,
        a.max_input_size,
    ) {
        Ok(x) => x,
        Err(e @ InputError::TooLarge(_)) => return Ok(Err((e.exit(), e.to_string()))),
        Err(e) => return Err(e.into()),
    };
    inputs.extend(read);
    match build(&specs, &opts) {
        Ok(b) => {
            eprintln!(
                "user-data: built {} parts, {} bytes (boundary \"{}\")",
                b.parts.len(),
                b.bytes.len(),
                b.boundary
            );
            Ok(Ok(b.bytes))
        }
        Err(e) => Ok(Err((Exit::Usage, e.to_string()))),
    }
}

/// Validate the user-data; `Err` when the seed is refused.
fn check_user_data(a: &SeedArgs, bytes: &[u8]) -> Step<()> {
    let opts = ValidateOptions {
        userdata: UserDataOptions {
            release: a.cloud_init.parse()?,
            preload: Preload::Auto,
            ..UserDataOptions::default()
        },
        input_name: "user-data".to_owned(),
        size_limit: None,
        schema: None,
        // Another agent's part (EKS nodeadm) is a note, as in `validate` without --strict.
        cloud_init_only: false,
        image: None,
    };
    let includes = LocalIncludes {
        dir: a.include_dir.clone(),
    };
    let report = validate(bytes, &opts, &includes);
    // Errors and warnings; notes are for `cloudfold validate`.
    let shown: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| matches!(d.severity, Severity::Error | Severity::Warning))
        .cloned()
        .collect();
    if !shown.is_empty() {
        let text = HumanRenderer::new().render_all(&shown, &report.sources);
        eprintln!("{text}");
    }
    let errors = report.count(Severity::Error);
    let refused = report.aborted() || errors > 0;
    if !refused {
        return Ok(Ok(()));
    }
    let what = if report.aborted() {
        "cloud-init would abort all user-data processing".to_owned()
    } else {
        format!(
            "the user-data has {errors} error{}",
            if errors == 1 { "" } else { "s" }
        )
    };
    if a.force {
        eprintln!("warning: {what}; writing the seed anyway (--force)");
        return Ok(Ok(()));
    }
    let code = if report.hit_limit() {
        Exit::Limit
    } else {
        Exit::Invalid
    };
    Ok(Err((
        code,
        format!("{what}: no seed written (see `cloudfold validate`; --force writes it anyway)"),
    )))
}

/// Write the files of a seed directory: into a fresh temp directory beside `out`, then renamed
/// into place; an earlier seed directory at `out` (only seed file names in it) is replaced.
fn write_dir(out: &Path, files: &[(&'static str, Vec<u8>)]) -> Step<()> {
    use std::os::unix::fs::DirBuilderExt;
    let name = out.display().to_string();
    let old = match std::fs::read_dir(out) {
        Ok(entries) => {
            let mut names = Vec::new();
            for e in entries {
                let e = e.map_err(|e| format!("{name}: {e}"))?;
                names.push(e.file_name().to_string_lossy().into_owned());
            }
            if let Some(other) = names
                .iter()
                .find(|n| !SEED_FILE_NAMES.contains(&n.as_str()))
            {
                return Ok(Err((
                    Exit::Usage,
                    format!(
                        "refusing to replace {name}: it holds {other}, which is not a seed file"
                    ),
                )));
            }
            !names.is_empty()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            return Ok(Err((
                Exit::Usage,
                format!("refusing to replace {name}: it is not a directory"),
            )));
        }
        Err(e) => return Err(format!("{name}: {e}").into()),
    };
    let (_, tmp) = temp_beside(out, "tmp")?;
    let result = (|| {
        std::fs::DirBuilder::new().mode(0o700).create(&tmp)?;
        for (file, bytes) in files {
            write_new_private(&tmp.join(file), bytes)?;
        }
        if old {
            // rename(2) replaces only an empty directory: move the old seed aside first.
            let (_, aside) = temp_beside(out, "old").map_err(std::io::Error::other)?;
            std::fs::rename(out, &aside)?;
            if let Err(e) = std::fs::rename(&tmp, out) {
                let _ = std::fs::rename(&aside, out);
                return Err(e);
            }
            std::fs::remove_dir_all(&aside)
        } else {
            std::fs::rename(&tmp, out)
        }
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(format!("{name}: {e}").into());
    }
    Ok(Ok(()))
}

pub(super) fn run(a: &SeedArgs) -> Result<Exit, Failure> {
    match seed(a)? {
        Ok(()) => Ok(Exit::Ok),
        Err((code, msg)) => {
            eprintln!("error: {msg}");
            Ok(code)
        }
    }
}

fn seed(a: &SeedArgs) -> Step<()> {
    let epoch = epoch()?;
    let mut inputs = Vec::new();
    let user_data = match user_data(a, &mut inputs)? {
        Ok(b) => b,
        Err(e) => return Ok(Err(e)),
    };
    let mut optional = |p: &Option<PathBuf>| -> Step<Option<Vec<u8>>> {
        let Some(p) = p else { return Ok(Ok(None)) };
        inputs.push(p.clone());
        Ok(read_file(p, a.max_input_size)?.map(Some))
    };
    let network = match &a.network_config {
        Some(p) if p.as_os_str() == "none" && !p.exists() => Some(NetworkConfig::Disabled),
        other => match optional(other)? {
            Ok(b) => b.map(NetworkConfig::Given),
            Err(e) => return Ok(Err(e)),
        },
    };
    let vendor_data = match optional(&a.vendor_data)? {
        Ok(b) => b,
        Err(e) => return Ok(Err(e)),
    };
    let meta = match optional(&a.meta_data)? {
        Ok(Some(b)) => MetaData::Given(b),
        Ok(None) => MetaData::Generated {
            instance_id: a.instance_id.clone(),
            hostname: a.hostname.clone(),
        },
        Err(e) => return Ok(Err(e)),
    };
    let network_config = match network.as_ref().map(NetworkConfig::resolve).transpose() {
        Ok(n) => n,
        Err(e) => return Ok(Err((Exit::Usage, e.to_string()))),
    };
    let (meta_data, warnings) = match meta.resolve(
        &user_data,
        network_config.as_deref(),
        vendor_data.as_deref(),
    ) {
        Ok(m) => m,
        Err(e) => return Ok(Err((Exit::Usage, e.to_string()))),
    };
    for w in warnings {
        eprintln!("warning: {w}");
    }
    // The generated instance-id, said (it is what tells cloud-init a new instance from a reboot).
    let id_note = match &meta {
        MetaData::Generated {
            instance_id,
            hostname,
        } => {
            let id = instance_id.clone().unwrap_or_else(|| {
                default_instance_id(
                    &user_data,
                    network_config.as_deref(),
                    vendor_data.as_deref(),
                    hostname.as_deref(),
                )
            });
            format!(" (instance-id {id})")
        }
        MetaData::Given(_) => String::new(),
    };
    if let Err(e) = check_user_data(a, &user_data)? {
        return Ok(Err(e));
    }
    let tree = a.format == SeedFormatArg::Dir;
    if is_an_input(&a.output, &inputs, tree) {
        let what = if tree {
            "it is or holds one of the inputs"
        } else {
            "it is one of the inputs"
        };
        return Ok(Err((
            Exit::Usage,
            format!("refusing to overwrite {}: {what}", a.output.display()),
        )));
    }
    let files = SeedFiles {
        user_data,
        meta_data,
        network_config,
        vendor_data,
    };
    let format = match a.format {
        SeedFormatArg::Iso => SeedFormat::Iso,
        SeedFormatArg::Vfat => SeedFormat::Vfat,
        SeedFormatArg::Dir => SeedFormat::Dir,
    };
    let seed = match make_seed(&files, &SeedOptions { format, epoch }) {
        Ok(s) => s,
        Err(e) => return Ok(Err((Exit::Usage, e.to_string()))),
    };
    let names: Vec<&str> = files.entries().iter().map(|(n, _)| *n).collect();
    let size = match &seed {
        Seed::Image(bytes) => {
            if a.output.is_dir() {
                return Ok(Err((
                    Exit::Usage,
                    format!(
                        "{} is a directory (use --format dir for a seed directory)",
                        a.output.display()
                    ),
                )));
            }
            write_atomically(&a.output, bytes)?;
            bytes.len()
        }
        Seed::Dir(files) => {
            if let Err(e) = write_dir(&a.output, files)? {
                return Ok(Err(e));
            }
            files.iter().map(|(_, b)| b.len()).sum()
        }
    };
    let form = match format {
        SeedFormat::Iso => "ISO 9660 (volume id cidata)",
        SeedFormat::Vfat => "FAT (label CIDATA)",
        _ => "directory",
    };
    eprintln!(
        "wrote {}: {form}, {}, {size} bytes{id_note}",
        a.output.display(),
        names.join(", ")
    );
    Ok(Ok(()))
}
