//! The `compose` dialect: Docker Compose's multi-file merge rules as compose-go implements them.

use super::dialect::{DialectOutcome, Layer, Unimplemented};

/// Merge compose files (lowest priority first) as `docker compose -f … config` does.
pub fn merge(layers: &[Layer]) -> DialectOutcome {
    let _ = layers;
    Unimplemented("compose").outcome()
}
