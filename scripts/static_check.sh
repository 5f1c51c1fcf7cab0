#!/usr/bin/env bash
# The static binary (`cargo build-static`, .cargo/config.toml), built as that alias builds it
# but at CI's profile: it needs no shared library, and it answers every payload in fixtures/
# (render, parts, validate: stdout, stderr, exit status) exactly as the dynamic binary does.
set -euo pipefail
cd "$(dirname "$0")/.."
aside=$(mktemp -d)
trap 'rm -rf "$aside"' EXIT
bin="${CARGO_TARGET_DIR:-target}/ci/cloudfold"
cargo build --locked --profile ci -p cloudfold-cli
cp "$bin" "$aside/dynamic"
cargo rustc --locked --profile ci -p cloudfold-cli --bin cloudfold -- -C target-feature=+crt-static
cp "$bin" "$aside/static"
# Back to the dynamic binary for whatever runs next (cargo keeps both builds).
cargo build --locked --profile ci -p cloudfold-cli
if ldd "$aside/static" >/dev/null 2>&1 && ldd "$aside/static" | grep -q '=>'; then
  echo "cargo build-static: the binary still loads shared libraries:" >&2
  ldd "$aside/static" >&2
  exit 1
fi
compared=0 differ=0
while IFS= read -r -d '' f; do
  for cmd in render parts validate; do
    a=$(cd "$(dirname "$f")" && "$aside/dynamic" "$cmd" "$f" 2>&1; echo "exit $?")
    b=$(cd "$(dirname "$f")" && "$aside/static" "$cmd" "$f" 2>&1; echo "exit $?")
    compared=$((compared + 1))
    if [ "$a" != "$b" ]; then
      differ=$((differ + 1))
      echo "differs: $cmd $f" >&2
    fi
  done
done < <(find fixtures -type f -size -2M -print0 | sort -z)
echo "static binary: $compared commands on fixtures/, $differ differ from the dynamic binary"
[ "$differ" -eq 0 ]
