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
#  - jinja templates: 10,000 generated payloads per release (22.4 with Jinja2 3.1.2, 25.1 with
#    3.1.6; 20,000 in all) against the real cloud-init's jinja handler (~185 s of CPU),
#  - the real-world corpus (../shared/corpora/realworld, ~160 payloads) and 200 multiparts
#    combined from its cloud-configs, through render/parts/validate/explain of the release
#    binary, against the real cloud-init on both releases (~75 s of CPU),
#  - validate --schema against cloud-init's own validator (scripts/schema_oracle.py, with the
#    jsonschema of each release's Debian package): 2,000 generated configs per release, path
#    and message of every finding, and the built-in schema facts against each release's real
#    schema file (~30 s of CPU; 108 s wall on a machine at load 13),
#  - layered config: 2,500 generated layer sets per release (5,000) against the real Init /
#    ConfigMerger / _consume_vendordata / Modules, and the image profiles against their sources,
#  - 500 generated NoCloud seeds read back by xorriso/isoinfo/mtools/fsck.fat/blkid and by
#    cloud-init's NoCloud datasource (both releases), a sample against cloud-localds,
#  - boot plans: 1,500 generated payloads per release (3,000 in all) through the real
#    cloud-init's consume_data and module runner, first and next boot (~3 min),
#  - diff: 10,000 generated payload pairs (mirror, apply, empty self-diff); 500 of them (1,000
#    payloads) against cloud-init 25.1 and their own cloud-config.txt; 1,000 pairs' boot plans
#    (diff --plan: mirror, empty self-diff) (~3 min in all).
# Tests that need ../shared (or python3, puppet, nickel, docker-compose) are #[ignore]d with
# the reason in a plain `cargo test`; here they run (--include-ignored), and a missing
# reference fails them. Each line selects tests by module path in the workspace's test
# binaries: `oracle` (tests/oracle/), `integration` (tests/integration/), `cli` (cloudfold-cli).
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
    if [ "$prev" = --test ] || [[ "$a" == *:: ]]; then label+="$a "; fi
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
# Tests of the workspace's test binaries, optimized, with their output shown, selected by
# module path: `ci_test BINARY... -- MODULE:: ...`. Tests that need a reference outside the
# repository are #[ignore]d with the reason for a plain `cargo test`: here they all run.
ci_test() {
  local bins=()
  while [ "$1" != "--" ]; do bins+=(--test "$1"); shift; done
  shift
  run cargo test --locked --profile ci "${bins[@]}" -- --include-ignored --nocapture "$@"
}

ci_test oracle -- conformance_userdata:: conformance_handler:: \
  conformance_samples:: merge_vectors:: merge_sources::
CLOUDFOLD_DIFF_CASES=200000 ci_test oracle -- yaml_differential::
CLOUDFOLD_DIFF_CASES=200000 ci_test oracle integration -- yaml_events::
CLOUDFOLD_DIFF_CASES=20000 ci_test oracle -- mime_differential::
# Deep nesting: where Python's RecursionError starts, every level 975-983 of ten shapes
# under 25.1, both sides of each edge under 22.4 (~4 min; the oracle takes seconds per document).
CLOUDFOLD_DEEP_MIME_SWEEP=trixie ci_test oracle -- mime_depth_oracle::
# Deep YAML in cloud-config parts and archives: every level 478-496 of eight shapes, both releases.
CLOUDFOLD_DEEP_YAML_SWEEP=1 ci_test oracle -- yaml_depth_oracle::
ci_test oracle -- differential_oracle::
CLOUDFOLD_ORACLE_CASES=5000 ci_test oracle integration -- build_differential:: build_fixtures::
CLOUDFOLD_NICKEL_CASES=2000 ci_test oracle integration -- nickel_differential:: merge_nickel_fixtures::
CLOUDFOLD_KEYED_ORACLE_CASES=1000 CLOUDFOLD_KEYED_CASES=2000 ci_test oracle integration -- \
  keyed_roundtrip:: merge_keyed::
CLOUDFOLD_HIERA_CASES=1500 ci_test oracle integration -- merge_hiera_differential:: \
  merge_hiera_fixtures::
CLOUDFOLD_COMPOSE_CASES=2000 ci_test oracle integration -- compose_differential:: \
  compose_fixtures::
CLOUDFOLD_EXPLAIN_CASES=2500 ci_test oracle -- explain_provenance::
# jinja (issue 30): 10,000 generated template payloads + instance data per release (20,000)
# against the real cloud-init's JinjaTemplatePartHandler (scripts/jinja_oracle.py, split over
# processes): 22.4 with bookworm's Jinja2 3.1.2, 25.1 with trixie's 3.1.6 (the two tests run
# side by side): merged config, parts list, jinja warnings. Measured at this size (ci profile,
# 2026-11-28, load 10-13): 10,000/10,000 agree on each; 283 s wall, 185 s of CPU (user+sys),
# i.e. ~1.5-2 min on a quiet 2-core machine.
JINJA2_312="$HOME/.cache/cloudfold-oracle/jinja2-3.1.2"
grep -qs '^__version__ = "3.1.2"' "$JINJA2_312/jinja2/__init__.py" \
  || python3 -m pip install --quiet --upgrade --target "$JINJA2_312" 'Jinja2==3.1.2' 'MarkupSafe==3.0.4'
CLOUDFOLD_JINJA_CASES=10000 ci_test oracle -- jinja_differential::
# Layered config (issue 31): 2,500 generated layer sets per release (5,000) through the real
# Init/ConfigMerger/_consume_vendordata/Modules (oracle CPU: 112 s at 22.4, 127 s at 25.1, the two
# run side by side), image profiles against their sources, explain provenance on 2 x 1,100
# cases, the recorded cases of fixtures/layers against the oracle and offline (~3 min quiet).
CLOUDFOLD_LAYERS_CASES=2500 CLOUDFOLD_LAYERS_PROVENANCE_CASES=1100 ci_test oracle integration -- \
  layers_oracle:: layers_regressions::
# Boot plans (issue 32): generated payloads per release (CLOUDFOLD_PLAN_CASES each, both
# releases at once) through the real consume_data and module runner, two boots each
# (scripts/plan_oracle.py), and the module table against the cc_*.py sources. The oracle
# takes ~120 s (22.4) and ~135 s (25.1) of CPU for 1,500 cases: ~2.5 min on two cores.
CLOUDFOLD_PLAN_CASES=1500 ci_test oracle -- plan_oracle::
# diff: 10,000 generated pairs (diff A A empty, mirror images, the JSON diff applied to render A
# gives render B; ~40 s), 1,000 more under a generated layer set (the same properties of the
# layered configs), and 500 of them through cloud-init 25.1 (both renders, each payload
# against its cloud-config.txt: ~100 s, most of it the oracle); diff --plan: 1,000 pairs'
# boot plans (diff --plan A A empty, mirror images; 4.2 s with the ci profile, 49 s dev).
CLOUDFOLD_DIFF_PAIRS=10000 CLOUDFOLD_DIFF_LAYERED_PAIRS=1000 CLOUDFOLD_DIFF_ORACLE_PAIRS=500 \
  CLOUDFOLD_DIFF_PLAN_PAIRS=1000 \
  ci_test oracle integration -- diff_props:: diff_oracle::
# validate --schema's checks against cloud-init's validator, 2,000 configs per release, and
# the built-in schema facts against each release's real schema file.
CLOUDFOLD_SCHEMA_CASES=2000 ci_test oracle -- schema_oracle::
# The rest of the oracle binary at its default sizes (in the dev-profile `cargo test` step
# these are ignored: they need ../shared, python3 or the extracted cloud-init; python_tables:
# src/python's Unicode tables against python3, all 1,114,112 code points: repr/isspace a few
# seconds, the 13 case results of each scalar value ~15 s of python3, the 5 isalpha-style
# predicates ~2 s; ruby_text: Ruby's String#inspect of every scalar value against puppet's
# ruby, ~5 s; yaml_readers_shared: the YAML readers held equal on ../shared's corpora, under
# a second).
ci_test oracle -- merge_handler_vectors:: mime_fixtures:: mime_smoke:: \
  validate_oracle:: yaml_dump:: python_tables:: ruby_text:: yaml_readers_shared::
# The optimized binary drives the suites below (the `ci` profile's: the library is already
# built that way for the tests above, so only the binary is compiled and linked; a fat-LTO
# release build cost ~6.5 CI minutes for the same code): the real-world corpus through its
# render/parts/validate/explain; NoCloud seeds (500 generated, 0 B-2 MiB payloads, every
# option, iso/vfat/dir) read back by xorriso, isoinfo, mtools, fsck.fat, blkid and cloud-init's
# NoCloud datasource (both releases), a sample against cloud-localds (about 1-2 min; tools
# from .ci/run); the command line's tests, with those the dev-profile step ignored
# (`validate --schema` against cloud-init's schema, SARIF logs against the SARIF schema,
# pre-commit), and the hostile-input suite: every case under 10 s and 1 GiB.
run cargo build --locked --profile ci -p cloudfold-cli
CLOUDFOLD_REALWORLD_COMBINED=200 CLOUDFOLD_BIN="$PWD/target/ci/cloudfold" \
  ci_test oracle -- realworld_corpus::
CLOUDFOLD_SEED_CASES=500 CLOUDFOLD_BIN="$PWD/target/ci/cloudfold" \
  ci_test oracle -- seed_oracle::
CLOUDFOLD_BIN="$PWD/target/ci/cloudfold" run cargo test --locked --profile ci \
  -p cloudfold-cli --test cli -- --include-ignored --nocapture
