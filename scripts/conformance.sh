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
#    re-found in its part's source, dropped parts compared with the real cloud-init (~5 min),
#  - the real-world corpus (../shared/corpora/realworld, ~160 payloads) and 200 multiparts
#    combined from its cloud-configs, through render/parts/validate/explain of the release
#    binary, against the real cloud-init on both releases (~75 s of CPU),
#  - layered config: 2,500 generated layer sets per release (5,000) against the real Init /
#    ConfigMerger / _consume_vendordata / Modules, and the image profiles against their sources,
#  - 500 generated NoCloud seeds read back by xorriso/isoinfo/mtools/fsck.fat/blkid and by
#    cloud-init's NoCloud datasource (both releases), a sample against cloud-localds.
# CI=true makes a missing ../shared fail instead of skip.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
: "${CLOUDFOLD_ORACLE_CASES:=20000}"
export CLOUDFOLD_ORACLE_CASES

# Each command's wall time, printed as a table at the end (also on failure): for sizing
# the differentials against CI's 60 minutes.
RUN_NAMES=() RUN_SECS=() RUN_T=$SECONDS
run() {
  local label="" prev="" a
  for a in "$@"; do
    if [ "$prev" = --test ]; then label+="$a "; fi
    prev=$a
  done
  RUN_NAMES+=("${label:-$*}") RUN_T=$SECONDS
  printf -- '--- %s\n' "$*"
  "$@"
  RUN_SECS+=("$((SECONDS - RUN_T))")
}
run_table() {
  local rc=$? i
  if [ "${#RUN_NAMES[@]}" -gt "${#RUN_SECS[@]}" ]; then RUN_SECS+=("$((SECONDS - RUN_T))"); fi
  printf '\n--- conformance: each command'"'"'s wall time (exit %s)\n' "$rc"
  for i in "${!RUN_SECS[@]}"; do
    printf '%5d:%02d  %s\n' "$((RUN_SECS[i] / 60))" "$((RUN_SECS[i] % 60))" "${RUN_NAMES[i]}"
  done
}
trap run_table EXIT
# The test binaries named by "$@" (--test NAME ...), optimized, with their output shown.
ci_test() { run cargo test --locked --profile ci "$@" -- --nocapture; }

ci_test --test conformance_userdata --test conformance_handler \
  --test conformance_samples --test merge_vectors --test merge_sources
CLOUDFOLD_DIFF_CASES=200000 ci_test --test yaml_differential
CLOUDFOLD_DIFF_CASES=200000 ci_test --test yaml_events
CLOUDFOLD_DIFF_CASES=20000 ci_test --test mime_differential
# Deep nesting: where Python's RecursionError starts, every level 975-983, both releases (~5 min).
CLOUDFOLD_DEEP_MIME_SWEEP=1 ci_test --test mime_depth_oracle
# Deep YAML in cloud-config parts and archives: every level 478-496 of eight shapes, both releases.
CLOUDFOLD_DEEP_YAML_SWEEP=1 ci_test --test yaml_depth_oracle
ci_test --test differential_oracle
CLOUDFOLD_ORACLE_CASES=5000 ci_test --test build_differential --test build_fixtures
CLOUDFOLD_NICKEL_CASES=2000 ci_test --test nickel_differential --test merge_nickel_fixtures
CLOUDFOLD_KEYED_ORACLE_CASES=1000 CLOUDFOLD_KEYED_CASES=2000 ci_test --test keyed_roundtrip --test merge_keyed
CLOUDFOLD_HIERA_CASES=1500 ci_test --test merge_hiera_differential \
  --test merge_hiera_fixtures
CLOUDFOLD_COMPOSE_CASES=2000 ci_test --test compose_differential \
  --test compose_fixtures
CLOUDFOLD_EXPLAIN_CASES=2500 ci_test --test explain_provenance
# Layered config (issue 31): 2,500 generated layer sets per release (5,000) through the real
# Init/ConfigMerger/_consume_vendordata/Modules; image profiles against their sources (~4 min).
CLOUDFOLD_LAYERS_CASES=2500 ci_test --test layers_oracle
# NoCloud seeds: 500 generated (0 B-2 MiB payloads, every option, iso/vfat/dir) read back by
# xorriso, isoinfo, mtools, fsck.fat, blkid and cloud-init's NoCloud datasource (both releases),
# a sample against cloud-localds (about 1-2 min; tools from .ci/run).
CLOUDFOLD_SEED_CASES=500 ci_test --test seed_oracle
# The hostile-input suite against the release binary: every case under 10 s and 1 GiB.
run cargo build --locked --release --bin cloudfold
CLOUDFOLD_BIN="$PWD/target/release/cloudfold" ci_test --test hostile
# The test binary is the dev build the README's `cargo test` made (no second build); the
# commands it checks are the release binary's.
CLOUDFOLD_REALWORLD_COMBINED=200 CLOUDFOLD_BIN="$PWD/target/release/cloudfold" \
  run cargo test --locked --test realworld_corpus -- --nocapture
