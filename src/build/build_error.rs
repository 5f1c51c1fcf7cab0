//! `BuildError`: why a payload is not built (nothing is written).

/// Why `build` refused. Each is something cloud-init would silently get wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// No parts at all.
    #[error("nothing to build: no parts given")]
    NoParts,
    /// A type name that is neither a known short name nor a media type cloud-init handles.
    #[error(
        "part {part}: unknown content type '{given}' (cloud-init would ignore the part; use --force to keep it)"
    )]
    UnknownType {
        /// The part, 1-based, in the order given.
        part: usize,
        /// The type as given.
        given: String,
    },
    /// No type given and the content does not start with anything cloud-init recognises.
    #[error(
        "part {part}: cannot detect the type (the first line matches none of cloud-init's start rules); give PATH:TYPE or use --force for text/plain"
    )]
    Undetectable {
        /// The part, 1-based, in the order given.
        part: usize,
    },
    /// cloud-init would re-detect the declared type from the content.
    #[error(
        "part {part}: declared {declared}, but cloud-init re-detects it from the first line as {detected}; declare {detected} or use --force"
    )]
    Retyped {
        /// The part, 1-based, in the order given.
        part: usize,
        /// The type declared for the part.
        declared: String,
        /// The type cloud-init detects from the first line.
        detected: String,
    },
    /// A merge spec cloud-init would reject or misread.
    #[error("part {part}: bad merge type '{spec}': {reason}")]
    BadMergeType {
        /// The part, 1-based, in the order given.
        part: usize,
        /// The merge spec as given.
        spec: String,
        /// What is wrong with it.
        reason: super::MergeTypeError,
    },
    /// A filename that cannot be written in a Content-Disposition header as is.
    #[error(
        "part {part}: filename {name:?} must be printable ASCII without quotes, backslashes or surrounding spaces"
    )]
    BadFilename {
        /// The part, 1-based, in the order given.
        part: usize,
        /// The name as given.
        name: String,
    },
    /// An extra header that is malformed or would override one `build` writes.
    #[error("part {part}: header {name:?}: {reason}")]
    BadHeader {
        /// The part, 1-based, in the order given.
        part: usize,
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The boundary is not a valid RFC 2046 boundary.
    #[error(
        "boundary {0:?} is invalid: 1-70 characters of A-Z a-z 0-9 '()+_,-./:=? (not ending in a space)"
    )]
    BadBoundary(String),
    /// The boundary occurs in a part's content: the payload would be cut there.
    #[error(
        "boundary {boundary:?} occurs in the content of part {part}: cloud-init would split the part there"
    )]
    BoundaryCollision {
        /// The boundary.
        boundary: String,
        /// The part, 1-based, in the order given.
        part: usize,
    },
    /// gzip failed (only an I/O error of the in-memory writer).
    #[error("gzip: {0}")]
    Gzip(String),
}
