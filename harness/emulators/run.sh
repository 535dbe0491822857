#!/usr/bin/env bash
# The device emulators (`portal emulate`) read and written by public client libraries from
# PyPI, installed unchanged: pymodbus over Modbus TCP and over Modbus RTU on the emulated
# RS485 bus (a pty, through pyserial), pysolarmanv5 through the emulated Solarman V5 stick.
# What they read must equal the registers the emulator itself dumps (`portal emulate --dump`),
# and the values a small decoder here computes from those registers must equal the portal's
# own decode. Needs target/debug/portal (`make test-emulators` builds it). The venv is kept in
# ${PORTAL_TEST_CACHE:-$HOME/.cache/portal-test}/emulators-venv and rebuilt when the pins
# change. When PyPI cannot be reached the check is skipped with the reason; under CI=true it
# fails instead. Extra arguments go to pytest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
portal="${PORTAL_BIN:-$root/target/debug/portal}"
cache="${PORTAL_TEST_CACHE:-$HOME/.cache/portal-test}"
venv="$cache/emulators-venv"

skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "test-emulators: FAILED: $1" >&2
    exit 1
  fi
  echo "test-emulators: skipped: $1"
  exit 0
}

[ -x "$portal" ] || { echo "no portal binary at $portal (cargo build -p portal)" >&2; exit 1; }
command -v python3 >/dev/null || skip "python3 is missing"
mkdir -p "$cache"
stamp="$(sha256sum <"$here/requirements.txt" | cut -d' ' -f1)"
if [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv" || skip "python3 -m venv failed (apt-get install python3-venv)"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt" ||
    skip "pip install from PyPI failed (no network?)"
  echo "$stamp" >"$venv/.requirements"
fi

PORTAL_BIN="$portal" PORTAL_ROOT="$root" PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 \
  "$venv/bin/python" -m pytest -p no:cacheprovider -q -rxX "$here" "$@"
