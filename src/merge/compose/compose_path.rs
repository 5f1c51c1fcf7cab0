//! `ComposePath`: compose-go's view of a logical path (`services.web.ports`), and matching it against patterns (`services.*.ports`).

use crate::merge::{Path, PathSeg};
use crate::yaml::value::{Node, Value};

use super::go_text::go_value_text;

/// A path as compose-go's `tree.Path` spells it: mapping keys as text,
/// sequence indexes as `[i]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComposePath(pub Vec<String>);

impl ComposePath {
    /// The path of the engine's logical path.
    pub fn of(path: &Path) -> ComposePath {
        ComposePath(path.segments().iter().map(seg_text).collect())
    }

    /// Whether the path matches `pattern` (dot-separated; `*` is any one key).
    pub fn matches(&self, pattern: &str) -> bool {
        segs_match(self.0.iter().map(String::as_str), pattern)
    }
}

impl std::fmt::Display for ComposePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.join("."))
    }
}

/// A key as compose-go sees it: its text (non-string keys are stringified
/// when the YAML is read).
pub(super) fn key_text(key: &Node) -> String {
    match key.value() {
        Value::Str(s) => s.to_string_lossy().into_owned(),
        _ => go_value_text(key).to_string_lossy().into_owned(),
    }
}

fn seg_text(seg: &PathSeg) -> String {
    match seg {
        PathSeg::Key(k) => key_text(k),
        PathSeg::Index(i) => format!("[{i}]"),
    }
}

/// Whether the engine path matches a dotted pattern, without allocating.
pub(super) fn path_matches(path: &Path, pattern: &str) -> bool {
    let segs = path.segments();
    let mut parts = pattern.split('.');
    for seg in segs {
        let Some(p) = parts.next() else {
            return false;
        };
        let ok = match seg {
            PathSeg::Key(k) => p == "*" || k.as_str().map_or_else(|| key_text(k) == p, |s| s == p),
            // compose-go's `*` matches a sequence index (`[0]`) too.
            PathSeg::Index(_) => p == "*",
        };
        if !ok {
            return false;
        }
    }
    parts.next().is_none()
}

fn segs_match<'a>(mut segs: impl Iterator<Item = &'a str>, pattern: &str) -> bool {
    let mut parts = pattern.split('.');
    loop {
        match (segs.next(), parts.next()) {
            (None, None) => return true,
            (Some(s), Some(p)) if p == "*" || s == p => {}
            _ => return false,
        }
    }
}
