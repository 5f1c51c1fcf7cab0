#!/usr/bin/env bash
# Run every fuzz target for a bounded time: scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Builds fuzz/ (its own workspace). With cargo-fuzz and a nightly toolchain it
# builds with libFuzzer's coverage instrumentation (no sanitizer: the crate
# forbids unsafe code); otherwise (CI's stable toolchain) it builds the same
# targets with `cargo build` and runs them uninstrumented over the seeds —
# a smoke run. Seeds come from fixtures/ (scripts/fuzz_seeds.py, into
# fuzz/corpus/, not committed). A crash leaves its input in
# fuzz/artifacts/<target>/ and fails the script: copy it to
# fixtures/fuzz-regressions/<target>/ so cloudfold-cli/tests/cli/hostile.rs replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-10}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(yaml_load mime_parse merge_spec render build_roundtrip jinja_render seed_image)

python3 scripts/fuzz_seeds.py fuzz/corpus >/dev/null
if cargo +nightly fuzz --version >/dev/null 2>&1; then
  cargo +nightly fuzz build -O -s none
  bindir=fuzz/target/x86_64-unknown-linux-gnu/release
else
  cargo build --manifest-path fuzz/Cargo.toml
  bindir=fuzz/target/debug
fi
fail=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  log="fuzz/artifacts/$t.log"
  # Recursive aliases are Rc cycles: leaked by design in a one-shot process.
  # Seed images: an ISO's directories and data lie beyond the first 4 KiB.
  maxlen=4096
  [ "$t" = seed_image ] && maxlen=65536
  if "$bindir/$t" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 \
      -detect_leaks=0 -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" \
      "fuzz/corpus/$t" >"$log" 2>&1; then
    printf '%-16s %s\n' "$t" "$(grep -a -E '^Done' "$log")"
  else
    printf '%-16s FAILED (see %s)\n' "$t" "$log"; tail -30 "$log"; fail=1
  fi
done
exit $fail
