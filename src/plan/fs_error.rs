//! `FsError`: why a write into the [`super::CloudFs`] fails, as Python's `OSError` says it.

/// Why a write into the [`super::CloudFs`] fails: the `OSError` Python raises, as
/// `util.logexc` prints it (compared byte for byte with cloud-init's log).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FsError {
    /// `os.makedirs` of a path that is a file.
    #[error("FileExistsError: [Errno 17] File exists: '{0}'")]
    FileExists(String),
    /// A path through a file.
    #[error("NotADirectoryError: [Errno 20] Not a directory: '{0}'")]
    NotADirectory(String),
    /// `open` of a directory.
    #[error("IsADirectoryError: [Errno 21] Is a directory: '{0}'")]
    IsADirectory(String),
}
