//! `Manifest`: the YAML file listing the parts of a `cloudfold build` (paths or inline content, types, filenames, merge types, headers).

use super::input::InputError;
use cloudfold::build::PartSpec;
use cloudfold::yaml::py_str;
use cloudfold::yaml::{LoadOptions, Node, Value, load_bytes};
use std::path::{Path, PathBuf};

/// A parsed manifest: its parts, and the files it read (so `-o` never overwrites one).
#[derive(Debug, Default)]
pub(super) struct Manifest {
    /// The parts, in order.
    pub parts: Vec<PartSpec>,
    /// Files read for `path:` entries.
    pub inputs: Vec<PathBuf>,
    /// A merge type for every cloud-config part without one.
    pub merge_type: Option<String>,
}

const PART_KEYS: &[&str] = &[
    "path",
    "content",
    "type",
    "filename",
    "merge_type",
    "headers",
];

fn string(node: &Node, what: &str) -> Result<String, String> {
    node.as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("{what} must be a string, not {}", node.type_name()))
}

/// A header value: a string, or a number/bool written as Python's `str()` would
/// (`Launch-Index: 0` need not be quoted).
fn header_value(node: &Node) -> Result<String, String> {
    match node.value() {
        Value::Str(_) => string(node, "a header value"),
        Value::Int(_) | Value::Bool(_) => Ok(py_str(node).to_string_lossy().into_owned()),
        _ => Err(format!(
            "a header value must be a string or number, not {}",
            node.type_name()
        )),
    }
}

fn key_str(k: &Node) -> Result<&str, String> {
    k.as_str()
        .ok_or_else(|| format!("keys must be strings, not {}", k.type_name()))
}

impl Manifest {
    /// Read a manifest; `path:` entries are relative to its directory.
    pub(super) fn read(file: &Path, max: u64) -> Result<Manifest, InputError> {
        let name = file.display().to_string();
        let bytes = super::input::read_input(Some(file), max)?;
        Self::parse(&bytes, &name, file.parent().unwrap_or(Path::new(".")), max)
    }

    /// A manifest's text (YAML, or JSON, which YAML reads alike) named `name` in
    /// messages; `path:` entries are relative to `base`.
    pub(super) fn parse(
        bytes: &[u8],
        name: &str,
        base: &Path,
        max: u64,
    ) -> Result<Manifest, InputError> {
        let root = load_bytes(bytes, &LoadOptions::default())
            .map_err(|e| format!("{name}: {e}"))?
            .ok_or_else(|| format!("{name}: empty manifest"))?;
        let map = root
            .as_map()
            .ok_or_else(|| format!("{name}: the manifest must be a mapping with `parts:`"))?;
        let mut out = Manifest::default();
        for (k, v) in map.iter() {
            match key_str(k).map_err(|e| format!("{name}: {e}"))? {
                "parts" => {
                    let seq = v
                        .as_seq()
                        .ok_or_else(|| format!("{name}: `parts` must be a list"))?;
                    for (i, item) in seq.iter().enumerate() {
                        let (spec, input) = Self::part(item, base, max)
                            .map_err(|e| e.within(&format!("{name}: part {}", i + 1)))?;
                        out.parts.push(spec);
                        out.inputs.extend(input);
                    }
                }
                "merge_type" => out.merge_type = Some(string(v, "merge_type")?),
                other => {
                    return Err(InputError::Failed(format!(
                        "{name}: unknown key `{other}` (known: parts, merge_type)"
                    )));
                }
            }
        }
        Ok(out)
    }

    fn part(item: &Node, base: &Path, max: u64) -> Result<(PartSpec, Option<PathBuf>), InputError> {
        let map = item
            .as_map()
            .ok_or_else(|| "each part must be a mapping".to_owned())?;
        let mut spec = PartSpec::default();
        let mut path = None;
        let mut content = None;
        for (k, v) in map.iter() {
            let key = key_str(k)?;
            match key {
                "path" => path = Some(base.join(string(v, "path")?)),
                "content" => content = Some(string(v, "content")?),
                "type" => spec.content_type = Some(string(v, "type")?),
                "filename" => spec.filename = Some(string(v, "filename")?),
                "merge_type" => spec.merge_type = Some(string(v, "merge_type")?),
                "headers" => {
                    let h = v
                        .as_map()
                        .ok_or_else(|| "headers must be a mapping".to_owned())?;
                    for (hk, hv) in h.iter() {
                        spec.headers
                            .push((key_str(hk)?.to_owned(), header_value(hv)?));
                    }
                }
                other => {
                    return Err(InputError::Failed(format!(
                        "unknown key `{other}` (known: {})",
                        PART_KEYS.join(", ")
                    )));
                }
            }
        }
        match (&path, content) {
            (Some(_), Some(_)) => Err(InputError::Failed(
                "give either `path` or `content`, not both".into(),
            )),
            (None, None) => Err(InputError::Failed("give `path` or `content`".into())),
            (None, Some(c)) => {
                spec.content = c.into_bytes();
                Ok((spec, None))
            }
            (Some(p), None) => {
                spec.content = super::input::read_input(Some(p), max)?;
                if spec.filename.is_none() {
                    spec.filename = p.file_name().map(|n| n.to_string_lossy().into_owned());
                }
                Ok((spec, path))
            }
        }
    }
}
