//! `check_model`: the failures compose-go reports on a merged model that its merge rules themselves cause.
//!
//! compose-go validates the model after every merge against the Compose
//! schema and checks a few invariants. Most of that is out of scope here
//! (`merge` merges; it does not validate), but some failures come from the
//! merge rules themselves, and these are checked:
//! * top-level volume, secret and config `labels` are appended without
//!   de-duplication, so two files giving the same label fail with "array
//!   items[i,j] must be unique";
//! * `ulimits.*` is replaced, not merged, so `{soft: 30}` over `{soft: 1,
//!   hard: 2}` fails with "hard is required";
//! * secret and config sources are merged as mappings, so `file` in one file
//!   and `environment` in another fail with "mutually exclusive".

use super::ComposeError;
use super::compose_path::key_text;
use crate::yaml::value::{Map, Node, py_eq};

/// The sections whose entries' `labels` lists are checked.
const SECTIONS: &[&str] = &["volumes", "secrets", "configs"];

/// Fail as compose-go does on a merged model with one of these problems
/// (`file` is the file just merged, which compose-go's message names).
pub fn check_model(model: &Node, file: &str) -> Result<(), ComposeError> {
    let Some(top) = model.as_map() else {
        return Ok(());
    };
    check_ulimits(top, file)?;
    check_sources(top)?;
    for section in SECTIONS {
        let Some(entries) = top.get_str(section).and_then(Node::as_map) else {
            continue;
        };
        for (name, def) in entries.iter() {
            let Some(labels) = def
                .as_map()
                .and_then(|d| d.get_str("labels"))
                .and_then(Node::as_seq)
            else {
                continue;
            };
            let items = labels.items();
            for (j, b) in items.iter().enumerate() {
                if let Some(i) = items.iter().take(j).position(|a| py_eq(a, b)) {
                    return Err(ComposeError::Invalid {
                        message: format!(
                            "validating {file}: {section}.{}.labels array items[{i},{j}] must be unique",
                            key_text(name)
                        ),
                        span: b.span(),
                    });
                }
            }
        }
    }
    Ok(())
}

fn invalid(message: String, at: &Node) -> ComposeError {
    ComposeError::Invalid {
        message,
        span: at.span(),
    }
}

/// A replaced ulimit mapping must still give both `soft` and `hard`.
fn check_ulimits(top: &Map, file: &str) -> Result<(), ComposeError> {
    let Some(services) = top.get_str("services").and_then(Node::as_map) else {
        return Ok(());
    };
    for (name, svc) in services.iter() {
        let Some(ulimits) = svc
            .as_map()
            .and_then(|s| s.get_str("ulimits"))
            .and_then(Node::as_map)
        else {
            continue;
        };
        for (limit, def) in ulimits.iter() {
            let Some(d) = def.as_map() else { continue };
            let (soft, hard) = (d.get_str("soft").is_some(), d.get_str("hard").is_some());
            let missing = match (soft, hard) {
                (true, false) => "hard",
                (false, true) => "soft",
                _ => continue,
            };
            return Err(invalid(
                format!(
                    "validating {file}: services.{}.ulimits.{} {missing} is required",
                    key_text(name),
                    key_text(limit)
                ),
                def,
            ));
        }
    }
    Ok(())
}

/// A secret takes one of `file`/`environment`, a config one of
/// `file`/`environment`/`content`.
fn check_sources(top: &Map) -> Result<(), ComposeError> {
    for (section, fields) in [
        ("secrets", &["file", "environment"][..]),
        ("configs", &["file", "environment", "content"][..]),
    ] {
        let Some(entries) = top.get_str(section).and_then(Node::as_map) else {
            continue;
        };
        for (name, def) in entries.iter() {
            let Some(d) = def.as_map() else { continue };
            if fields.iter().filter(|f| d.get_str(f).is_some()).count() > 1 {
                return Err(invalid(
                    format!(
                        "{section}.{}: {} attributes are mutually exclusive",
                        key_text(name),
                        fields.join("|")
                    ),
                    def,
                ));
            }
        }
    }
    Ok(())
}
