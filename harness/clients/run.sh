#!/usr/bin/env bash
# Runs the public Python clients of the API, installed unchanged from PyPI, against
# `portal serve --demo` (see docs/clients.md). Needs target/debug/portal (`make test-clients`
# builds it) and python3 with venv; the venv is kept in target/clients-venv and rebuilt only
# when the requirements change. Extra arguments go to pytest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
portal="${PORTAL_BIN:-$root/target/debug/portal}"
venv="$root/target/clients-venv"

[ -x "$portal" ] || { echo "no portal binary at $portal (cargo build -p portal)" >&2; exit 1; }

stamp="$(cat "$here/requirements.txt" "$here/requirements-nodeps.txt" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$here/requirements-nodeps.txt"
  echo "$stamp" >"$venv/.requirements"
fi

# Three free loopback ports: HTTP, MQTT and metrics are never shared with a running portal.
read -r http mqtt metrics < <("$venv/bin/python" - <<'PY'
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
PY
)

data="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$data"
}
trap cleanup EXIT

# Without the demo's fault scenarios: its silent inverter (from 09:00 in Zaragoza) would keep
# the fleet from ever being all online, and what the clients read must not depend on the hour.
PORTAL_DATA_DIR="$data" PORTAL_HTTP_ADDR="127.0.0.1:$http" PORTAL_MQTT_ADDR="127.0.0.1:$mqtt" \
  PORTAL_METRICS_ADDR="127.0.0.1:$metrics" PORTAL_DEMO_HISTORY_DAYS=1 PORTAL_DEMO_FAULTS=off \
  PORTAL_LOG=warn "$portal" serve --demo >"$data/portal.log" 2>&1 &
pid=$!

status=0
PORTAL_CLIENTS_URL="http://127.0.0.1:$http" PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \
  "$venv/bin/python" -m pytest -p no:cacheprovider -q -rxX "$here" "$@" || status=$?
if [ "$status" != 0 ]; then
  echo "--- portal log (last 40 lines)" >&2
  tail -n 40 "$data/portal.log" >&2
fi
exit "$status"
