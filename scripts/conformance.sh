#!/usr/bin/env bash
# The oracle conformance run: every corpus in ../shared/conformance through the tests that read it,
# with CI=true so that a missing ../shared fails instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true
cargo test --locked --release --test '*' -- --nocapture conformance 2>&1 | grep -E "conformance|test result" || true
# Fail if any conformance test failed (grep above only filters what is shown).
cargo test --locked --release --test '*' -q conformance
