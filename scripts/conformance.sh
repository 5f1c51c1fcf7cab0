#!/usr/bin/env bash
# The oracle conformance run, at acceptance size, optimized (the `ci` profile: release
# settings on thin LTO, see Cargo.toml):
#  - every recorded corpus in ../shared/conformance (tests named conformance_*),
#  - 20,000 random payloads per cloud-init release against the real cloud-init,
#  - 200,000 generated/mutated YAML documents against PyYAML (loader and events),
#  - 20,000 generated MIME documents per generator against Python's email,
#  - 5,000 random `build` part sets against the real cloud-init, and the make-mime layout,
#  - 2,000 generated `nickel` dialect cases against `nickel export`,
#  - 1,000 keyed cloud-config merge results round-tripped through build and the real cloud-init,
#  - 1,500 generated Hiera hierarchies (about 2,700 lookups) against `puppet lookup`
#    (one Ruby process per 400 cases; about 90 s, most of it puppet),
#  - 2,000 generated Compose file sets (2-3 files) against the real docker-compose
#    (two processes at a time; about 1-2 min, most of it docker-compose start-up),
#  - explain provenance: 2,500 random payloads per release (5,000), every reported origin
#    re-found in its part's source, dropped parts compared with the real cloud-init (~5 min).
# CI=true makes a missing ../shared fail instead of skip.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
: "${CLOUDFOLD_ORACLE_CASES:=20000}"
export CLOUDFOLD_ORACLE_CASES

run() { printf -- '--- %s\n' "$*"; "$@"; }

run cargo test --locked --profile ci --test conformance_userdata --test conformance_handler \
  --test conformance_samples --test merge_vectors --test merge_sources -- --nocapture
CLOUDFOLD_DIFF_CASES=200000 run cargo test --locked --profile ci --test yaml_differential -- --nocapture
CLOUDFOLD_DIFF_CASES=200000 run cargo test --locked --profile ci --test yaml_events -- --nocapture
CLOUDFOLD_DIFF_CASES=20000 run cargo test --locked --profile ci --test mime_differential -- --nocapture
# Deep nesting: where Python's RecursionError starts, every level 975-983, both releases (~5 min).
CLOUDFOLD_DEEP_MIME_SWEEP=1 run cargo test --locked --profile ci --test mime_depth_oracle -- --nocapture
# Deep YAML in cloud-config parts and archives: every level 478-496 of eight shapes, both releases.
CLOUDFOLD_DEEP_YAML_SWEEP=1 run cargo test --locked --profile ci --test yaml_depth_oracle -- --nocapture
run cargo test --locked --profile ci --test differential_oracle -- --nocapture
CLOUDFOLD_ORACLE_CASES=5000 run cargo test --locked --profile ci --test build_differential --test build_fixtures -- --nocapture
CLOUDFOLD_NICKEL_CASES=2000 run cargo test --locked --profile ci --test nickel_differential --test merge_nickel_fixtures -- --nocapture
CLOUDFOLD_KEYED_ORACLE_CASES=1000 CLOUDFOLD_KEYED_CASES=2000 run cargo test --locked --profile ci --test keyed_roundtrip --test merge_keyed -- --nocapture
CLOUDFOLD_HIERA_CASES=1500 run cargo test --locked --profile ci --test merge_hiera_differential \
  --test merge_hiera_fixtures -- --nocapture
CLOUDFOLD_COMPOSE_CASES=2000 run cargo test --locked --profile ci --test compose_differential \
  --test compose_fixtures -- --nocapture
CLOUDFOLD_EXPLAIN_CASES=2500 run cargo test --locked --profile ci --test explain_provenance -- --nocapture
# The hostile-input suite against the release binary: every case under 10 s and 1 GiB.
run cargo build --locked --release --bin cloudfold
CLOUDFOLD_BIN="$PWD/target/release/cloudfold" run cargo test --locked --profile ci --test hostile -- --nocapture
