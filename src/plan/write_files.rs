//! `write_files`: `cc_write_files.handle` (and `_deferred`'s) entry by entry — path, owner, mode, decoded content — written into the [`CloudFs`].

use super::action::{Action, FileWrite};
use super::cloud_fs::{CloudFs, abspath, dirname};
use super::cloud_util::{encode_text, get_cfg_option_bool, py_iter};
use crate::python::py_strip;
use crate::userdata::Release;
use crate::yaml::value::{Node, Value, py_str};

/// The most a gzip entry may inflate to (cloud-init has no limit).
const MAX_GUNZIP: u64 = 256 << 20;

/// What one `write_files` run did: its actions in order, and the exception
/// that ended it (later entries are not written).
#[derive(Debug, Default)]
pub(super) struct WriteFilesRun {
    /// Files written or skipped.
    pub actions: Vec<Action>,
    /// The exception, if the handle raised.
    pub error: Option<String>,
}

/// `handle(name, cfg, …)` of `cc_write_files` (`deferred`: of
/// `cc_write_files_deferred`).
pub(super) fn write_files(
    cfg: &Node,
    deferred: bool,
    release: Release,
    fs: &mut CloudFs,
) -> WriteFilesRun {
    let mut run = WriteFilesRun::default();
    if let Err(e) = write_all(cfg, deferred, release, fs, &mut run.actions) {
        run.error = Some(e);
    }
    run
}

fn write_all(
    cfg: &Node,
    deferred: bool,
    release: Release,
    fs: &mut CloudFs,
    out: &mut Vec<Action>,
) -> Result<(), String> {
    let Some(list) = cfg.as_map().and_then(|m| m.get_str("write_files")) else {
        return Ok(());
    };
    let mut files = Vec::new();
    for f in py_iter(list)? {
        if get_cfg_option_bool(&f, "defer", false)? == deferred {
            files.push(f);
        }
    }
    for (i, f) in files.iter().enumerate() {
        let entry = i + 1;
        let m = f.as_map().ok_or_else(|| {
            format!(
                "AttributeError: '{}' object has no attribute 'get'",
                f.type_name()
            )
        })?;
        let path = match m.get_str("path") {
            Some(p) if p.is_truthy() => p,
            _ => {
                out.push(Action::SkipFile {
                    entry,
                    why: format!("No path provided to write for entry {entry} in module"),
                });
                continue;
            }
        };
        let Some(path) = path.as_py_str() else {
            return Err(format!(
                "TypeError: expected str, bytes or os.PathLike object, not {}",
                path.type_name()
            ));
        };
        let path = abspath(&path.to_string_lossy());
        let encoding = m.get_str("encoding");
        let content = match release {
            Release::V22_4 => {
                let c = m
                    .get_str("content")
                    .cloned()
                    .unwrap_or_else(|| Node::str(""));
                Some(extract(&c, encoding)?)
            }
            Release::V25_1 => {
                let url = match m.get_str("source") {
                    None => None,
                    Some(s) if s.is_null() => None,
                    Some(s) => match s.as_map() {
                        Some(sm) => sm.get_str("uri").filter(|u| u.is_truthy()).cloned(),
                        None => {
                            return Err(format!(
                                "AttributeError: '{}' object has no attribute 'get'",
                                s.type_name()
                            ));
                        }
                    },
                };
                let content = m.get_str("content").filter(|c| !c.is_null());
                match (url, content) {
                    (Some(u), _) => {
                        out.push(Action::Note(format!(
                            "entry {entry}: {path} is fetched from {} at boot{}; cloudfold fetches nothing",
                            py_str(&u),
                            if content.is_some() {
                                " (its content is used if the fetch fails)"
                            } else {
                                ""
                            }
                        )));
                        continue;
                    }
                    (None, None) => Some(Content::Text(crate::yaml::value::PyStr::from(""))),
                    (None, Some(c)) => Some(extract(c, encoding)?),
                }
            }
        };
        let Some(content) = content else { continue };
        let owner = m
            .get_str("owner")
            .cloned()
            .unwrap_or_else(|| Node::str("root:root"));
        let (user, group) = extract_usergroup(&owner)?;
        let permissions = decode_perms(m.get_str("permissions"))?;
        let append = get_cfg_option_bool(f, "append", false)?;
        // util.write_file: the parent first, then the encoding, then open.
        fs.ensure_dir(&dirname(&path)).map_err(|e| e.to_string())?;
        let bytes = match content {
            Content::Bytes(b) => b,
            Content::Text(t) => encode_text(&t)?,
            Content::Other(type_name) => {
                return Err(format!(
                    "AttributeError: '{type_name}' object has no attribute 'encode'"
                ));
            }
        };
        fs.open_write(&path, &bytes, permissions, append)
            .map_err(|e| e.to_string())?;
        out.push(Action::WriteFile(FileWrite {
            entry,
            path,
            owner: user,
            group,
            permissions,
            encoding: encoding
                .and_then(Node::as_str)
                .map_or_else(|| "text/plain".to_owned(), str::to_owned),
            append,
            deferred,
            content: bytes,
        }));
    }
    Ok(())
}

/// A decoded content: what `util.write_file` gets.
enum Content {
    Text(crate::yaml::value::PyStr),
    Bytes(Vec<u8>),
    /// Another type (its name), which `encode_text` cannot write.
    Other(&'static str),
}

/// `canonicalize_extraction(encoding)` then `extract_contents`.
fn extract(content: &Node, encoding: Option<&Node>) -> Result<Content, String> {
    let steps = canonicalize(encoding)?;
    let mut cur = match content.value() {
        Value::Str(s) => Content::Text(s.clone()),
        Value::Bytes(b) => Content::Bytes(b.to_vec()),
        _ => Content::Other(content.type_name()),
    };
    for step in steps {
        cur = match step {
            Step::Gunzip => {
                let data = match cur {
                    Content::Bytes(b) => b,
                    Content::Text(t) => {
                        encode_text(&t).map_err(|e| format!("DecompressionError: {e}"))?
                    }
                    Content::Other(t) => {
                        return Err(format!(
                            "DecompressionError: '{t}' object has no attribute 'encode'"
                        ));
                    }
                };
                Content::Bytes(
                    crate::userdata::gunzip(&data, MAX_GUNZIP)
                        .map_err(|e| format!("DecompressionError: {e}"))?,
                )
            }
            Step::Base64 => {
                let data = match cur {
                    Content::Bytes(b) => b,
                    Content::Text(t) => match t.as_str() {
                        Some(s) if s.is_ascii() => s.as_bytes().to_vec(),
                        _ => {
                            return Err(
                                "ValueError: string argument should contain only ASCII characters"
                                    .into(),
                            );
                        }
                    },
                    Content::Other(t) => {
                        return Err(format!(
                            "TypeError: argument should be a bytes-like object or ASCII string, not '{t}'"
                        ));
                    }
                };
                Content::Bytes(
                    crate::mime::a2b_base64(&data, false)
                        .ok_or_else(|| "binascii.Error: Incorrect padding".to_owned())?,
                )
            }
        };
    }
    Ok(cur)
}

enum Step {
    Gunzip,
    Base64,
}

/// `canonicalize_extraction(encoding_type)`.
fn canonicalize(encoding: Option<&Node>) -> Result<Vec<Step>, String> {
    let e = match encoding {
        None => String::new(),
        Some(e) if !e.is_truthy() => String::new(),
        Some(e) => match e.as_py_str() {
            Some(s) => py_strip(&crate::python::py_lower(&s.to_string_lossy())).to_owned(),
            None => {
                return Err(format!(
                    "AttributeError: '{}' object has no attribute 'lower'",
                    e.type_name()
                ));
            }
        },
    };
    Ok(match e.as_str() {
        "gz" | "gzip" => vec![Step::Gunzip],
        "gz+base64" | "gzip+base64" | "gz+b64" | "gzip+b64" => vec![Step::Base64, Step::Gunzip],
        "b64" | "base64" => vec![Step::Base64],
        _ => Vec::new(),
    })
}

/// `util.extract_usergroup(owner)`.
fn extract_usergroup(owner: &Node) -> Result<(Option<String>, Option<String>), String> {
    if !owner.is_truthy() {
        return Ok((None, None));
    }
    let Some(s) = owner.as_py_str() else {
        return Err(format!(
            "AttributeError: '{}' object has no attribute 'split'",
            owner.type_name()
        ));
    };
    let s = s.to_string_lossy();
    let (u, g) = match s.split_once(':') {
        Some((u, g)) => (py_strip(u), Some(py_strip(g))),
        None => (py_strip(&s), None),
    };
    let keep = |x: &str| {
        (!x.is_empty() && x != "-1" && crate::python::py_lower(x) != "none").then(|| x.to_owned())
    };
    Ok((keep(u), g.and_then(keep)))
}

/// `decode_perms(perm, 0o644)`.
fn decode_perms(perm: Option<&Node>) -> Result<u32, String> {
    const DEFAULT: u32 = 0o644;
    let Some(p) = perm.filter(|p| !p.is_null()) else {
        return Ok(DEFAULT);
    };
    let v = match p.value() {
        Value::Bool(b) => Some(i64::from(*b)),
        Value::Int(i) => match i {
            crate::yaml::value::Int::Small(v) => Some(*v),
            _ => return Err("OverflowError: mode too large".into()),
        },
        Value::Float(f) if f.is_nan() => None,
        Value::Float(f) if f.is_infinite() => {
            return Err("OverflowError: cannot convert float infinity to integer".into());
        }
        #[allow(clippy::cast_possible_truncation)]
        Value::Float(f) => Some(f.trunc() as i64),
        _ => super::cloud_util::int_base8(&py_str(p).to_string_lossy()),
    };
    // os.chmod takes the low bits of a mode_t.
    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
    Ok(v.map_or(DEFAULT, |v| (v as u64 & 0o7777) as u32))
}

#[cfg(test)]
// Test code: an out-of-range index is a failed test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn load(s: &str) -> Node {
        crate::yaml::load(s, &Default::default()).unwrap().unwrap()
    }

    #[test]
    fn entries() {
        let cfg = load(
            "write_files:\n- {path: /var/lib/cloud/scripts/per-boot/a, content: 'IyEvYmluL3NoCg==', encoding: b64, permissions: '0755'}\n- {path: rel/x, content: hi, owner: 'bob:'}\n- {content: x}\n- {path: /d, defer: true}\n",
        );
        let mut fs = CloudFs::new("/var/lib/cloud", "i");
        let r = write_files(&cfg, false, Release::V25_1, &mut fs);
        assert!(r.error.is_none(), "{:?}", r.error);
        let Action::WriteFile(a) = &r.actions[0] else {
            panic!()
        };
        assert_eq!(a.content, b"#!/bin/sh\n");
        assert_eq!(a.permissions, 0o755);
        let Action::WriteFile(b) = &r.actions[1] else {
            panic!()
        };
        assert_eq!(b.path, "/rel/x");
        assert_eq!(
            (b.owner.as_deref(), b.group.as_deref()),
            (Some("bob"), None)
        );
        assert_eq!(b.permissions, 0o644);
        assert!(matches!(r.actions[2], Action::SkipFile { entry: 3, .. }));
        assert_eq!(r.actions.len(), 3);
        let d = write_files(&cfg, true, Release::V25_1, &mut fs);
        let Action::WriteFile(d) = &d.actions[0] else {
            panic!()
        };
        assert_eq!((d.path.as_str(), d.content.as_slice()), ("/d", &b""[..]));
    }

    #[test]
    fn failures_stop_the_list() {
        let cfg = load("write_files: [{path: /a, content: 5}, {path: /b}]");
        let mut fs = CloudFs::new("/var/lib/cloud", "i");
        let r = write_files(&cfg, false, Release::V22_4, &mut fs);
        assert!(r.actions.is_empty());
        assert!(
            r.error
                .unwrap()
                .contains("'int' object has no attribute 'encode'")
        );
        let r = write_files(&load("write_files: ~"), false, Release::V22_4, &mut fs);
        assert!(r.error.unwrap().contains("not iterable"));
    }

    /// `a/.` is `os.path.abspath`'d to `a`, the directory an earlier entry's
    /// `a/...` made: cloud-init's open() fails there (a case the plan differential
    /// found once its driver wrote the generator's scratch directory for real).
    #[test]
    fn a_path_made_a_directory_by_an_earlier_entry() {
        let cfg =
            load("write_files: [{path: /etc/p/..., content: x}, {path: /etc/p/., content: y}]");
        let mut fs = CloudFs::new("/var/lib/cloud", "i");
        let r = write_files(&cfg, false, Release::V22_4, &mut fs);
        assert_eq!(r.actions.len(), 1);
        assert!(
            r.error
                .unwrap()
                .contains("IsADirectoryError: [Errno 21] Is a directory: '/etc/p'")
        );
    }
}
