//! `render`, `explain` and `validate` with layers (`--etc-cloud`, `--image`, `--vendor-data`, …): read every layer, fold them as cloud-init does, print.

use super::args::{ExplainFormat, FoldArgs, LayerArgs, PayloadArgs, RenderFormat};
use super::exit::{Exit, Failure};
use super::input::{LocalIncludes, read_input, read_payload};
use super::render_cmd::options;
use cloudfold::layers::{
    ConfigFile, EtcCloud, EtcEntry, ImageProfile, LayerExplanation, LayerInputs, LayerNote,
    Layered, LayersError, combined_cloud_config_json, explain_layers, fold_layers,
};
use cloudfold::merge::PathQuery;
use cloudfold::userdata::{Release, UserDataOptions};
use cloudfold::yaml::to_typed_json_pretty;
use cloudfold::yaml::{Value, py_repr};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Most entries read under `--etc-cloud` (a real /etc/cloud has a few dozen).
const MAX_ETC_ENTRIES: usize = 10_000;
/// Deepest directory nesting read under `--etc-cloud`.
const MAX_ETC_DEPTH: usize = 16;

/// The release: `--cloud-init`, else the image's, else 25.1; an image of
/// another release is an error.
pub(super) fn release_for(p: &PayloadArgs, l: &LayerArgs) -> Result<Release, String> {
    release_of(&p.fold, l)
}

/// [`release_for`] from the fold options alone (`diff` has two payloads).
pub(super) fn release_of(fold: &FoldArgs, l: &LayerArgs) -> Result<Release, String> {
    let image = l
        .image
        .as_deref()
        .map(str::parse::<ImageProfile>)
        .transpose()?;
    let given = fold
        .cloud_init
        .as_deref()
        .map(str::parse::<Release>)
        .transpose()?;
    let image_release = image.and_then(ImageProfile::release);
    match (given, image_release, image) {
        (Some(g), Some(i), Some(img)) if g != i => Err(format!(
            "--image {} is Debian's cloud-init {} package; it cannot run cloud-init {} (drop --cloud-init or pick the image of that release)",
            img.name(),
            i.as_str(),
            g.as_str()
        )),
        (Some(g), _, _) => Ok(g),
        (None, Some(i), _) => Ok(i),
        (None, None, _) => Ok(Release::V25_1),
    }
}

/// Read a directory standing for /etc/cloud (over `base`, an image's): every
/// entry, files read, links followed.
fn read_etc(dir: &Path, max: u64, base: Option<EtcCloud>) -> Result<EtcCloud, String> {
    let mut etc = base.unwrap_or_default();
    let mut count = 0usize;
    let mut seen = Vec::new();
    walk_etc(dir, "", 0, max, &mut etc, &mut count, &mut seen)?;
    Ok(etc)
}

fn walk_etc(
    dir: &Path,
    rel: &str,
    depth: usize,
    max: u64,
    etc: &mut EtcCloud,
    count: &mut usize,
    seen: &mut Vec<PathBuf>,
) -> Result<(), String> {
    // A link loop would walk forever: each real directory once.
    if let Ok(real) = dir.canonicalize() {
        if seen.contains(&real) {
            return Ok(());
        }
        seen.push(real);
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("--etc-cloud {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("--etc-cloud {}: {e}", dir.display()))?;
        *count += 1;
        if *count > MAX_ETC_ENTRIES {
            return Err(format!("--etc-cloud: more than {MAX_ETC_ENTRIES} entries"));
        }
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            eprintln!(
                "warning: --etc-cloud: {} is not UTF-8; cloudfold skips it",
                entry.path().display()
            );
            continue;
        };
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let path = entry.path();
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => {
                let e = match read_input(Some(&path), max) {
                    Ok(b) => EtcEntry::File(b),
                    Err(e) => EtcEntry::Unreadable(e.to_string()),
                };
                etc.insert(&child, e);
            }
            Ok(m) if m.is_dir() => {
                etc.insert(&child, EtcEntry::Dir);
                if depth < MAX_ETC_DEPTH {
                    walk_etc(&path, &child, depth + 1, max, etc, count, seen)?;
                }
            }
            Ok(_) | Err(_) => etc.insert(&child, EtcEntry::Other),
        }
    }
    Ok(())
}

fn file(
    path: &Option<PathBuf>,
    as_path: impl Fn(&Path) -> String,
    max: u64,
) -> Result<Option<ConfigFile>, Failure> {
    let Some(p) = path else { return Ok(None) };
    let bytes = read_input(Some(p), max)?;
    Ok(Some(ConfigFile::new(as_path(p), bytes)))
}

/// Read every layer, and the user-data (none without INPUT).
fn inputs(p: &PayloadArgs, l: &LayerArgs, release: Release) -> Result<LayerInputs, Failure> {
    Ok(LayerInputs {
        user_data: match &p.input {
            Some(i) => Some(read_payload(Some(i), p.fold.max_input_size)?),
            None => None,
        },
        ..layer_inputs(&p.fold, l, release)?
    })
}

/// Read every layer (no user-data: `diff` puts each of its payloads there).
pub(super) fn layer_inputs(
    fold: &FoldArgs,
    l: &LayerArgs,
    release: Release,
) -> Result<LayerInputs, Failure> {
    let max = fold.max_input_size;
    let image = match &l.image {
        Some(name) => Some(name.parse::<ImageProfile>()?.etc_cloud(release)),
        None => None,
    };
    let etc = match &l.etc_cloud {
        Some(dir) => Some(read_etc(dir, max, image)?),
        None => image,
    };
    let payload = |f: &Option<PathBuf>| -> Result<Option<Vec<u8>>, Failure> {
        Ok(f.as_deref().map(|f| read_input(Some(f), max)).transpose()?)
    };
    Ok(LayerInputs {
        etc,
        run_cloud_cfg: file(
            &l.run_cloud_cfg,
            |_| "/run/cloud-init/cloud.cfg".to_owned(),
            max,
        )?,
        kernel_cmdline: l.kernel_cmdline.clone(),
        cloud_cfg_env: file(&l.cloud_cfg_env, |p| p.display().to_string(), max)?,
        datasource_config: file(&l.datasource_config, |p| p.display().to_string(), max)?,
        user_data: None,
        vendor_data: payload(&l.vendor_data)?,
        vendor_data2: payload(&l.vendor_data2)?,
    })
}

/// Fold the layers; a crash or limit is printed and gives the exit code.
pub(super) fn fold(p: &PayloadArgs, l: &LayerArgs) -> Result<Result<Layered, Exit>, Failure> {
    let release = release_for(p, l)?;
    let opts = UserDataOptions {
        release,
        ..options(&p.fold)?
    };
    let inputs = inputs(p, l, release)?;
    let includes = LocalIncludes {
        dir: p.fold.include_dir.clone(),
    };
    match fold_layers(&inputs, &opts, &includes) {
        Ok(layered) => Ok(Ok(layered)),
        Err(e @ LayersError::Crash { .. }) => {
            eprintln!(
                "error: {e}\nthe modules get no configuration: the stage that reads it fails"
            );
            Ok(Err(Exit::Aborted))
        }
        Err(e) if e.is_limit() => {
            eprintln!("error: {e}");
            Ok(Err(Exit::Limit))
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(Err(Exit::Aborted))
        }
    }
}

pub(super) fn note_line(n: &LayerNote) -> String {
    match &n.path {
        Some(_) => format!("warning[{}]: {}", n.kind.code(), n.message),
        None => format!("warning[{}]: {}: {}", n.kind.code(), n.about, n.message),
    }
}

/// Print what cloud-init logs, the traps and the init stage's failure; how many lines.
fn print_notes(notes: &[LayerNote], init_stage_error: Option<&str>) -> usize {
    let mut n = 0;
    for note in notes {
        eprintln!("{}", note_line(note));
        n += 1;
    }
    if let Some(e) = init_stage_error {
        eprintln!(
            "warning: cloud-init's init stage fails ({e}); later stages run with what was written"
        );
        n += 1;
    }
    n
}

/// `render` with layers.
pub(super) fn render(
    p: &PayloadArgs,
    l: &LayerArgs,
    format: RenderFormat,
    strict: bool,
    select: Option<&PathQuery>,
) -> Result<Exit, Failure> {
    let layered = match fold(p, l)? {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let limits = options(&p.fold)?.limits;
    let ex = match explain_layers(&layered, limits.max_alias_expansion) {
        Ok(ex) => ex,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Limit);
        }
    };
    let warned = print_notes(&ex.notes, layered.init_stage_error.as_deref());
    let out = match (select, format) {
        (Some(q), RenderFormat::CloudInit) => {
            // cloud-config.txt is user-data's fold alone.
            let user = layered.user.as_ref().and_then(|u| u.config.as_ref());
            match super::render_cmd::selected(user, q, format, &limits)? {
                Ok(s) => s,
                Err((code, msg)) => {
                    eprintln!("error: {msg}");
                    return Ok(code);
                }
            }
        }
        (Some(q), _) => {
            match super::render_cmd::selected(Some(&layered.config), q, format, &limits)? {
                Ok(s) => s,
                Err((code, msg)) => {
                    eprintln!("error: {msg}");
                    return Ok(code);
                }
            }
        }
        (None, RenderFormat::Yaml) => {
            let dumped = cloudfold::yaml::dump_after(
                "#cloud-config\n",
                &layered.config,
                &cloudfold::yaml::DumpOptions::readable(),
                0,
            );
            dumped.map_err(|e| format!("cannot write the layered config: {e}"))?
        }
        (None, RenderFormat::Json) => {
            let mut s = to_typed_json_pretty(&layered.config, limits.walk_limits())
                .map_err(|e| format!("the layered config: {e}"))?;
            s.push('\n');
            s
        }
        (None, RenderFormat::CombinedJson) => match combined_cloud_config_json(&layered) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(Exit::Aborted);
            }
        },
        (None, RenderFormat::CloudInit) => layered
            .user
            .as_ref()
            .map(|u| u.cloud_config_txt.clone())
            .unwrap_or_default(),
    };
    super::stdout::write_stdout(out.as_bytes())?;
    Ok(if strict && warned > 0 {
        Exit::Strict
    } else {
        Exit::Ok
    })
}

fn scalar_text(v: &cloudfold::yaml::Node) -> Option<String> {
    match v.value() {
        Value::Map(m) if !m.is_empty() => None,
        Value::Seq(s) | Value::Tuple(s) if !s.is_empty() => None,
        _ => Some(py_repr(v)),
    }
}

/// The explanation as text: the config with a comment per key and item.
fn to_text(l: &Layered, ex: &LayerExplanation) -> String {
    let mut out = format!(
        "# cloud-init {}: the config the modules see; each value with the file:line:col it was read at\n",
        l.release.as_str()
    );
    for e in &ex.entries {
        let pad = "  ".repeat(e.depth);
        let head = match (&e.key, e.index) {
            (Some(k), _) => format!(
                "{pad}{}:",
                k.as_str().map_or_else(|| py_repr(k), str::to_owned)
            ),
            (None, _) => format!("{pad}-"),
        };
        let value = scalar_text(&e.value)
            .map(|t| format!(" {t}"))
            .unwrap_or_default();
        let mut comment = match &e.origin {
            Some(o) if e.built => format!("built by the merge from {o}"),
            Some(o) => o.to_string(),
            None => "built by cloud-init".to_owned(),
        };
        if !e.shadowed.is_empty() {
            let list: Vec<String> = e.shadowed.iter().map(ToString::to_string).collect();
            comment.push_str(&format!("; shadows {}", list.join(", ")));
        }
        out.push_str(&format!("{head}{value}  # {comment}\n"));
    }
    if !ex.notes.is_empty() {
        out.push_str("\n# what cloud-init does that you may not expect\n");
        for n in &ex.notes {
            out.push_str(&format!("# {}\n", note_line(n)));
        }
    }
    out
}

fn origin_json(o: &cloudfold::layers::LayerOrigin) -> serde_json::Value {
    json!({"layer": o.layer.code(), "file": o.label, "line": o.line, "column": o.column})
}

fn to_json(l: &Layered, ex: &LayerExplanation) -> serde_json::Value {
    let entries: Vec<serde_json::Value> = ex
        .entries
        .iter()
        .map(|e| {
            json!({
                "path": e.path,
                "depth": e.depth,
                "value": scalar_text(&e.value),
                "origin": e.origin.as_ref().map(origin_json),
                "built": e.built,
                "shadowed": e.shadowed.iter().map(origin_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let notes: Vec<serde_json::Value> = ex
        .notes
        .iter()
        .map(|n| json!({"code": n.kind.code(), "about": n.about, "path": n.path, "message": n.message}))
        .collect();
    let lists: Vec<serde_json::Value> = l
        .module_lists()
        .iter()
        .map(|m| json!({"key": m.key, "layer": m.layer.map(|x| x.code()), "file": m.source.and_then(|s| l.sources.get(s)).map(|i| i.label.clone())}))
        .collect();
    json!({
        "cloud_init": l.release.as_str(),
        "entries": entries,
        "notes": notes,
        "module_lists": lists,
        "init_stage_error": l.init_stage_error,
    })
}

/// `explain` with layers.
pub(super) fn explain(
    p: &PayloadArgs,
    l: &LayerArgs,
    format: ExplainFormat,
    max_nodes: usize,
    strict: bool,
) -> Result<Exit, Failure> {
    let layered = match fold(p, l)? {
        Ok(x) => x,
        Err(code) => return Ok(code),
    };
    let ex = match explain_layers(&layered, max_nodes) {
        Ok(ex) => ex,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(Exit::Limit);
        }
    };
    let out = match format {
        ExplainFormat::Text => to_text(&layered, &ex),
        ExplainFormat::Json => {
            let mut s =
                serde_json::to_string_pretty(&to_json(&layered, &ex)).map_err(|e| e.to_string())?;
            s.push('\n');
            s
        }
    };
    super::stdout::write_stdout(out.as_bytes())?;
    let warned = !ex.notes.is_empty() || layered.init_stage_error.is_some();
    Ok(if strict && warned {
        Exit::Strict
    } else {
        Exit::Ok
    })
}

/// `validate`'s check of every layer: what cloud-init logs reading them (a
/// file that is not YAML, not a mapping, a template that fails) and the
/// traps, one line each; a crash is an error.
pub(super) fn validate(p: &PayloadArgs, l: &LayerArgs) -> Result<Exit, Failure> {
    let layered = match fold(p, l)? {
        Ok(x) => x,
        Err(_) => return Ok(Exit::Invalid),
    };
    let ex = explain_layers(&layered, 1_000_000).map_err(|e| e.to_string())?;
    print_notes(&ex.notes, None);
    if let Some(e) = &layered.init_stage_error {
        eprintln!("error: cloud-init's init stage fails: {e}");
        return Ok(Exit::Invalid);
    }
    eprintln!(
        "layers: {} sources read, {} notes",
        layered.sources.iter().count(),
        ex.notes.len()
    );
    Ok(Exit::Ok)
}
