//! `MergeError` and `PyException`: why a merge spec or a merge failed, as the Python exception cloud-init raises.

use super::PathSeg;
use std::fmt;

/// The Python exception class the reference implementation raises.
///
/// The class decides what cloud-init does with a failing part: a `ValueError`
/// (bad merge-spec syntax) puts the part on 25.1's `SCHEMA_ERROR` list, every
/// other class skips it silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(
    clippy::enum_variant_names,
    reason = "the variants are Python's exception class names"
)]
#[non_exhaustive]
pub enum PyException {
    /// Malformed merge-spec string.
    ValueError,
    /// Unknown merger name (no module `cloudinit.mergers.m_<name>`).
    ImportError,
    /// Wrong value type inside a merge, or options that cannot be tested.
    TypeError,
    /// A missing key (`merge_how` dict entry without `name`/`settings`, or
    /// `list(no_replace)` indexing a mapping).
    KeyError,
    /// A method missing on a value (a merger name that is not a string).
    AttributeError,
    /// Indexing an empty sequence (an empty entry in a list-form spec).
    IndexError,
    /// Nesting deeper than Python's recursion limit allows.
    RecursionError,
    /// Not raised by Python itself: the merge would need more work or memory
    /// than our budget (Python would run out of time or memory).
    MemoryError,
}

impl PyException {
    /// The Python class name.
    pub fn python_name(self) -> &'static str {
        match self {
            PyException::ValueError => "ValueError",
            PyException::ImportError => "ImportError",
            PyException::TypeError => "TypeError",
            PyException::KeyError => "KeyError",
            PyException::AttributeError => "AttributeError",
            PyException::IndexError => "IndexError",
            PyException::RecursionError => "RecursionError",
            PyException::MemoryError => "MemoryError",
        }
    }
}

impl fmt::Display for PyException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.python_name())
    }
}

/// A failed merge-spec parse, merger resolution or merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{class}: {message}{}", at.as_deref().map(|p| format!(" (at {p})")).unwrap_or_default())]
pub struct MergeError {
    /// The exception class cloud-init raises here.
    pub class: PyException,
    /// The message, in cloud-init's / Python's wording where there is one.
    pub message: String,
    /// The logical path (`$.runcmd[2]`) where a merge failed; `None` for
    /// spec errors.
    pub at: Option<String>,
}

impl MergeError {
    /// An error of `class` with `message`.
    pub fn new(class: PyException, message: impl Into<String>) -> Self {
        MergeError {
            class,
            message: message.into(),
            at: None,
        }
    }

    /// The same error, located at `path`.
    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.at = Some(path.into());
        self
    }

    /// Inside the walk: the error happened below `seg` (paths are built on
    /// the way out, so a successful merge never pays for them).
    pub(crate) fn under(mut self, seg: &PathSeg) -> Self {
        let rest = self.at.take().unwrap_or_default();
        self.at = Some(format!("{seg}{rest}"));
        self
    }

    /// At the end of the walk: anchor the path at the root `$`.
    pub(crate) fn rooted(mut self) -> Self {
        let rest = self.at.take().unwrap_or_default();
        self.at = Some(format!("${rest}"));
        self
    }

    /// Whether cloud-init sees a `ValueError` (the part is listed as a
    /// schema error in 25.1's `cloud-config.txt`).
    pub fn is_value_error(&self) -> bool {
        self.class == PyException::ValueError
    }

    pub(crate) fn type_error(message: impl Into<String>) -> Self {
        MergeError::new(PyException::TypeError, message)
    }
}
