#!/usr/bin/env bash
# Drops the PostgreSQL test databases and schemas (one per test, named t<pid>_<n>_<n>, see
# crates/store/src/testing.rs) of earlier runs; with --dead, only the databases of test
# processes that have ended (harness/run-rust.sh drops those while the other tests run).
# Dropping a database waits for a checkpoint (about 0.13 s).
set -euo pipefail
pg_isready -q -h 127.0.0.1 2>/dev/null || exit 0
psql=(psql -q -h 127.0.0.1 -U postgres -d test)
export PGOPTIONS='--client-min-messages=warning'
names="$("${psql[@]}" -Atc "SELECT datname FROM pg_database WHERE datname ~ '^t[0-9]+_[0-9]+_[0-9]+$'")"
if [ "${1:-}" = --dead ]; then
  names="$(for n in $names; do pid="${n#t}"; [ -e "/proc/${pid%%_*}" ] || echo "$n"; done)"
else
  "${psql[@]}" -Atc "SELECT 'DROP SCHEMA \"' || schema_name || '\" CASCADE;' FROM information_schema.schemata
                     WHERE schema_name ~ '^t[0-9]+_[0-9]+_[0-9]+$'" | "${psql[@]}" >/dev/null 2>&1 || true
fi
for n in $names; do echo "$n"; done |
  xargs -r -P 4 -I{} "${psql[@]}" -c 'DROP DATABASE IF EXISTS "{}" WITH (FORCE)' >/dev/null 2>&1 || true
