//! `Path` and `PathSeg`: the logical location of a value inside a merged tree (`$.runcmd[2]`).

use crate::yaml::value::{Node, Value, py_repr};
use std::fmt;

/// One step from a container to a child.
#[derive(Clone, Debug)]
pub enum PathSeg {
    /// A mapping key (the key object, so its span is available).
    Key(Node),
    /// A sequence index.
    Index(usize),
}

/// A path from the root of a merge, written `$`, `$.a.b`, `$.runcmd[2]`,
/// `$['key with space']`, `$[1]` (an int key is written with its repr;
/// sequence indexes and int keys look alike, the segments tell them apart).
#[derive(Clone, Debug, Default)]
pub struct Path(Vec<PathSeg>);

impl Path {
    /// The root.
    pub fn root() -> Self {
        Path(Vec::new())
    }

    /// A path from its segments.
    pub fn from_segments(segments: Vec<PathSeg>) -> Self {
        Path(segments)
    }

    /// The segments from the root.
    pub fn segments(&self) -> &[PathSeg] {
        &self.0
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether this is the root.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn push(&mut self, seg: PathSeg) {
        self.0.push(seg);
    }

    pub(crate) fn pop(&mut self) {
        self.0.pop();
    }
}

fn is_plain_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl PathSeg {
    /// Append this segment as [`fmt::Display`] writes it, without the
    /// formatting machinery (`diff` writes thousands of paths).
    pub(crate) fn write_to(&self, out: &mut String) {
        match self {
            PathSeg::Index(i) => {
                out.push('[');
                out.push_str(itoa::Buffer::new().format(*i));
                out.push(']');
            }
            PathSeg::Key(k) => match k.value() {
                Value::Str(s) if s.as_str().is_some_and(is_plain_name) => {
                    out.push('.');
                    out.push_str(s.as_str().unwrap_or_default());
                }
                _ => {
                    out.push('[');
                    out.push_str(&py_repr(k));
                    out.push(']');
                }
            },
        }
    }
}

impl fmt::Display for PathSeg {
    /// `.name`, `['odd key']`, `[1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathSeg::Index(i) => write!(f, "[{i}]"),
            PathSeg::Key(k) => match k.value() {
                Value::Str(s) if s.as_str().is_some_and(is_plain_name) => {
                    write!(f, ".{}", s.as_str().unwrap_or_default())
                }
                _ => write!(f, "[{}]", py_repr(k)),
            },
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for seg in &self.0 {
            write!(f, "{seg}")?;
        }
        Ok(())
    }
}
