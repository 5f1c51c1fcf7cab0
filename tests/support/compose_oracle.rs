//! The `compose` dialect's test harness: our merge as a JSON model, the real docker-compose's, and how the two are compared.
//!
//! Models are compared as JSON values: mappings without regard to key order
//! (Go prints keys sorted; we keep file order), the `name` key (the project
//! name compose adds) dropped, everything else exact. Where compose fails,
//! we must fail too, with "cannot override" exactly when it does.

use cloudfold::merge::compose::{ComposeError, ComposeFile, merge_files};
use cloudfold::merge::{Limits, NoObserver};
use cloudfold::yaml::value::{Node, Value};
use cloudfold::yaml::{LoadOptions, load_tagged};
use serde_json::Value as J;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The oracle binary, via the setup script (`--print`); a missing oracle fails the test.
pub(crate) fn oracle() -> PathBuf {
    let script = super::shared("oracle/dialects/setup-compose.sh");
    let out = Command::new("bash").arg(&script).arg("--print").output();
    match out {
        Ok(o) if o.status.success() => {
            PathBuf::from(String::from_utf8_lossy(&o.stdout).trim().to_string())
        }
        other => panic!(
            "the compose oracle is not available (../shared/oracle/dialects/setup-compose.sh): {other:?}"
        ),
    }
}

/// A node as plain JSON (the compose model has no other types).
fn plain(node: &Node) -> J {
    match node.value() {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => i
            .as_i64()
            .map(J::from)
            .unwrap_or_else(|| J::String(i.to_big().to_string())),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.to_string_lossy().into_owned()),
        Value::Seq(items) | Value::Tuple(items) => J::Array(items.iter().map(plain).collect()),
        Value::Map(m) => J::Object(
            m.iter()
                .map(|(k, v)| {
                    let key = match k.value() {
                        Value::Str(s) => s.to_string_lossy().into_owned(),
                        _ => format!("{:?}", plain(k)),
                    };
                    (key, plain(v))
                })
                .collect(),
        ),
        other => J::String(format!("{other:?}")),
    }
}

/// Our result: the model, or the error text.
pub(crate) fn ours(files: &[String]) -> Result<J, String> {
    let opts = LoadOptions {
        keep_local_tags: true,
        ..LoadOptions::default()
    };
    let loaded: Vec<_> = files
        .iter()
        .map(|t| load_tagged(t, &opts).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let loaded: Vec<_> = loaded.into_iter().flatten().collect();
    let layers: Vec<ComposeFile<'_>> = loaded
        .iter()
        .enumerate()
        .map(|(i, (root, tags))| ComposeFile {
            name: ["f1.yml", "f2.yml", "f3.yml", "f4.yml"]
                .get(i)
                .copied()
                .unwrap_or("f.yml"),
            root,
            tags,
        })
        .collect();
    match merge_files(&layers, &Limits::default(), &mut NoObserver) {
        Ok(Some(n)) => Ok(plain(&n)),
        Ok(None) => Err("no files".into()),
        Err(e @ ComposeError::CannotOverride { .. }) => Err(e.to_string()),
        Err(e) => Err(format!("error: {e}")),
    }
}

/// Start the oracle on files written to `dir`.
pub(crate) fn spawn_oracle(bin: &Path, dir: &Path, files: &[String]) -> Child {
    let mut cmd = Command::new(bin);
    for (i, text) in files.iter().enumerate() {
        let name = format!("f{}.yml", i + 1);
        std::fs::write(dir.join(&name), text).unwrap();
        cmd.arg("-f").arg(name);
    }
    cmd.args([
        "config",
        "--format",
        "json",
        "--no-normalize",
        "--no-interpolate",
        "--no-path-resolution",
        "--no-consistency",
    ])
    .current_dir(dir)
    .env("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    .env("COMPOSE_PROJECT_NAME", "p")
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap()
}

/// The oracle's result: the model (without `name`), or its error text.
pub(crate) fn oracle_result(child: Child) -> Result<J, String> {
    let out = child.wait_with_output().unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let mut j: J = serde_json::from_slice(&out.stdout).unwrap();
    if let Some(o) = j.as_object_mut() {
        o.remove("name");
    }
    Ok(j)
}

/// Where two models first differ, and how.
fn first_difference(a: &J, b: &J, at: &str) -> String {
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    None => return format!("{at}.{k} (only ours: {v})"),
                    Some(w) if w != v => return first_difference(v, w, &format!("{at}.{k}")),
                    _ => {}
                }
            }
            for (k, w) in y {
                if !x.contains_key(k) {
                    return format!("{at}.{k} (only the oracle's: {w})");
                }
            }
            at.to_string()
        }
        _ => format!("{at} (ours {a}, oracle {b})"),
    }
}

/// Whether two "cannot override PATH" failures name the same kind of place.
///
/// With several conflicting resources, docker-compose names whichever its Go
/// map iteration meets first, and Go randomises that order from run to run
/// (seen: `secrets.s1.labels` once, `secrets.s2.labels` the next time). So
/// the resource name (the path's second segment) is not compared; the
/// section and the attribute are.
fn same_override_shape(ours: &str, theirs: &str) -> bool {
    let shape = |m: &str| -> Option<String> {
        let path = m.rsplit("cannot override ").next()?;
        let mut segs: Vec<&str> = path.split('.').collect();
        if let Some(s) = segs.get_mut(1) {
            *s = "*";
        }
        Some(segs.join("."))
    };
    theirs.ends_with(ours) || (shape(ours).is_some() && shape(ours) == shape(theirs))
}

/// Whether our result agrees with the oracle's; the reason when not.
pub(crate) fn agree(ours: &Result<J, String>, theirs: &Result<J, String>) -> Result<(), String> {
    match (ours, theirs) {
        (Ok(a), Ok(b)) if a == b => Ok(()),
        (Ok(a), Ok(b)) => Err(format!(
            "models differ at {}:\n ours:   {a}\n oracle: {b}",
            first_difference(a, b, "$")
        )),
        (Err(a), Err(b)) => {
            let ours_co = a.starts_with("cannot override");
            let theirs_co = b.contains("cannot override");
            if ours_co == theirs_co && (!ours_co || same_override_shape(a, b)) {
                Ok(())
            } else {
                Err(format!(
                    "both fail, differently:\n ours:   {a}\n oracle: {b}"
                ))
            }
        }
        (Ok(a), Err(b)) => Err(format!("only the oracle fails: {b}\n ours: {a}")),
        (Err(a), Ok(b)) => Err(format!("only we fail: {a}\n oracle: {b}")),
    }
}
