#!/usr/bin/env bash
# The oracle conformance run, at acceptance size, in release mode:
#  - every recorded corpus in ../shared/conformance (tests named conformance_*),
#  - 20,000 random payloads per cloud-init release against the real cloud-init,
#  - 200,000 generated/mutated YAML documents against PyYAML (loader and events),
#  - 20,000 generated MIME documents per generator against Python's email,
#  - 5,000 random `build` part sets against the real cloud-init, and the make-mime layout.
# CI=true makes a missing ../shared fail instead of skip.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
: "${CLOUDFOLD_ORACLE_CASES:=20000}"
export CLOUDFOLD_ORACLE_CASES

run() { printf -- '--- %s\n' "$*"; "$@"; }

run cargo test --locked --release --test conformance_userdata --test conformance_handler \
  --test conformance_samples --test merge_vectors --test merge_sources -- --nocapture
CLOUDFOLD_DIFF_CASES=200000 run cargo test --locked --release --test yaml_differential -- --nocapture
CLOUDFOLD_DIFF_CASES=200000 run cargo test --locked --release --test yaml_events -- --nocapture
CLOUDFOLD_DIFF_CASES=20000 run cargo test --locked --release --test mime_differential -- --nocapture
run cargo test --locked --release --test differential_oracle -- --nocapture
CLOUDFOLD_ORACLE_CASES=5000 run cargo test --locked --release --test build_differential --test build_fixtures -- --nocapture
# The hostile-input suite against the release binary: every case under 10 s and 1 GiB.
run cargo build --locked --release --bin cloudfold
CLOUDFOLD_BIN="$PWD/target/release/cloudfold" run cargo test --locked --release --test hostile -- --nocapture
