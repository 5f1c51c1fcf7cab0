//! The keyed `cloud-config` dialect: strict, predictable merging of cloud-config fragments before `build`.

use super::dialect::{DialectOutcome, Layer, Unimplemented};

/// Merge cloud-config fragments (lists of objects by identity key, conflicts are errors unless a tag settles them).
pub fn merge(layers: &[Layer]) -> DialectOutcome {
    let _ = layers;
    Unimplemented("cloud-config").outcome()
}
