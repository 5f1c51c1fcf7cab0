//! Recorded layer cases (`fixtures/layers/*/`, each a past disagreement with cloud-init):
//! cloudfold's combined config, Init config and init-stage outcome equal the real
//! cloud-init's answer stored beside them (`expected-<release>.json`: `scripts/layers_oracle.py`'s answer line, which
//! tests/oracle's `layers_oracle::recorded_cases_match_the_oracle` re-makes with the oracle).

use crate::support::layers_fold::{ours, theirs};
use crate::support::layers_gen::recorded_cases;
use cloudfold::userdata::Release;
use serde_json::Value as J;
use std::path::Path;

#[test]
fn recorded_layer_cases_fold_as_cloud_init_does() {
    let mut checked = 0;
    for (dir, case) in recorded_cases() {
        for release in [Release::V22_4, Release::V25_1] {
            let file = Path::new(&dir).join(format!("expected-{}.json", release.as_str()));
            let Ok(bytes) = std::fs::read(&file) else {
                continue;
            };
            let want: J = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(
                ours(&case, release),
                theirs(&want),
                "{dir} at cloud-init {}\ninputs:{}",
                release.as_str(),
                case.describe()
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no expected-*.json under fixtures/layers");
}
