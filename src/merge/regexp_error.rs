//! `RegexpError`: why a Ruby regexp cannot be compiled.

/// Why [`super::RubyRegexp::new`] refuses a pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegexpError {
    /// Longer than cloudfold's bound on patterns.
    #[error("regexp longer than {max} bytes")]
    TooLong {
        /// The bound.
        max: usize,
    },
    /// Not a pattern the `regex` crate compiles (its message): a syntax error, or Ruby syntax
    /// it lacks (look-around, back-references).
    #[error("{0}")]
    Syntax(String),
}
