//! `DumpError`: why a value could not be written.

/// Why [`super::dump`] failed. Every value the loader builds is representable;
/// only the resource limits can fail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DumpError {
    /// Collections nest deeper than `DumpOptions::max_depth`. (PyYAML itself
    /// recurses and raises `RecursionError` at a depth set by Python's
    /// recursion limit.)
    #[error("nesting deeper than {0} levels")]
    TooDeep(usize),
    /// The output would exceed `DumpOptions::max_output_bytes`.
    #[error("the output would exceed {0} bytes")]
    TooLarge(usize),
}
