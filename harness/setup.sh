#!/usr/bin/env bash
# Brings a machine to what `make test` needs: the system packages of every stage (a browser,
# PostgreSQL, Mosquitto, the OpenADR VTN's build tools, the agent's static C library, ...) and
# the two services running on loopback. Called by `make test` and by `.ci/run`.
#
# Installs only what is missing, so on a machine that has everything it checks and returns in
# a second. Installing needs root (or sudo without a password); without either it prints the
# one command that installs what is missing and stops, rather than letting a stage skip later.
set -euo pipefail

# command-or-file  package
wanted=(
  "/usr/bin/chromium chromium"         # the browser tests: Debian's chromium, never a downloaded one
  "jq jq"                              # harness/run-rust.sh lists the Rust test binaries with it
  "file file"                          # harness/agent/static.sh: is the agent linked statically?
  "python3 python3"                    # the public API clients, the emulator clients, aiosmtpd
  "/usr/lib/python3*/ensurepip python3-venv"
  "pg_isready postgresql"              # the store and API tests on PostgreSQL
  "psql postgresql-client"
  "/usr/sbin/mosquitto mosquitto"      # the external-broker tests
  "cmake cmake"                        # the OpenADR VTN builds paho-mqtt
  "cc build-essential"
  "/usr/include/openssl/ssl.h libssl-dev"
  "/usr/lib/x86_64-linux-gnu/libc.a libc6-dev" # the statically linked agent
  "npm npm"                            # the web app; PostgreSQL 18 for the VTN comes from npm
  "curl curl"
  "/usr/bin/time time"                 # make test prints each stage's CPU seconds with it
)

have() {
  local what="$1"
  if [[ "$what" == /* ]]; then
    compgen -G "$what" >/dev/null
  else
    command -v "$what" >/dev/null
  fi
}

missing=()
for entry in "${wanted[@]}"; do
  read -r what package <<<"$entry"
  have "$what" || missing+=("$package")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo)
  else
    echo "The test suite needs these system packages: ${missing[*]}" >&2
    echo "Install them (as root), then run make test again:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "harness/setup.sh: installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# PostgreSQL on loopback with trust auth (running on CI machines; started here if not).
if ! pg_isready -q -h 127.0.0.1; then
  cluster="$(ls /etc/postgresql | head -n1)"
  if [ "$(id -u)" = 0 ]; then
    pg_ctlcluster --skip-systemctl-redirect "$cluster" main start || true
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo pg_ctlcluster --skip-systemctl-redirect "$cluster" main start || true
  fi
  for _ in $(seq 1 20); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
fi
pg_isready -q -h 127.0.0.1 || echo "harness/setup.sh: PostgreSQL does not answer on 127.0.0.1: its tests will be skipped" >&2

# Mosquitto on loopback for the external-broker tests (Mosquitto 2 listens on localhost only
# without a config).
broker_up() { (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null; }
if ! broker_up; then
  mosquitto -d || true
  for _ in $(seq 1 10); do broker_up && break; sleep 1; done
fi
