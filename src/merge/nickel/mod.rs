//! The `nickel` dialect: Nickel's symmetric record merge (`&`) with priorities on plain data.

use super::dialect::{DialectOutcome, Layer, Unimplemented};

/// Merge documents with Nickel's `&` (priorities from `!default`, `!priority:N`, `!force` tags).
pub fn merge(layers: &[Layer]) -> DialectOutcome {
    let _ = layers;
    Unimplemented("nickel").outcome()
}
