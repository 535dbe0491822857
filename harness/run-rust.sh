#!/usr/bin/env bash
# make test-rust: the workspace's Rust tests, four processes at a time (RUST_TEST_JOBS), each
# running two tests at a time (RUST_TEST_THREADS). Each crate has one integration-test binary
# (tests/<crate>/main.rs) beside its unit tests; many tests spend their time waiting on timers
# (broker deadlines, command replies, crash recovery) and on the database server, so more tests
# than cores keeps both cores busy (the parts take about 1,500 s between them and 400 s of CPU).
# Four parts of two tests hold at most 80 of the test cluster's 200 PostgreSQL connections
# (harness/test-pg.sh; each store's pool holds up to 10). The longest parts start first, so the
# short ones fill in beside them. Each binary runs in its package's directory, as `cargo test`
# runs it, and its output is printed whole when it ends. Extra arguments go to every binary (a
# name filter).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="${RUST_TEST_JOBS:-4}"
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-2}"
work="$(mktemp -d)"
pg_dir=
cleanup() {
  if [ -n "$pg_dir" ]; then harness/test-pg.sh stop "$pg_dir"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The PostgreSQL the tests run on: the one given, else a throwaway cluster of the suite's own
# (harness/test-pg.sh: in memory, no fsync; the machine's server stalled the tests on its
# checkpoints), else the machine's server (TEST_PG_URL), else none (SQLite only).
if [ -z "${PORTAL_TEST_DATABASE_URL:-}" ]; then
  pg_dir="/dev/shm/portal-test-pg.$$"
  if url="$(harness/test-pg.sh start "$pg_dir")"; then
    export PORTAL_TEST_DATABASE_URL="$url"
    # the reaper below (harness/drop-test-databases.sh) reads psql's variables
    PGPORT="${url##*:}"
    export PGPORT="${PGPORT%%/*}"
  else
    pg_dir=
    if pg_isready -q -h 127.0.0.1 2>/dev/null; then
      export PORTAL_TEST_DATABASE_URL="${TEST_PG_URL:-postgres://postgres@127.0.0.1/test}"
    fi
  fi
fi
echo "PostgreSQL tests: ${PORTAL_TEST_DATABASE_URL:-skipped (no server)}"

# Builds every test target (the compiler's messages go to the terminal as usual) and lists
# "<package dir> <executable>" for each.
cargo test --workspace --no-run --message-format=json-render-diagnostics |
  jq -r 'select(.reason == "compiler-artifact" and .profile.test and .executable != null)
         | "\(.manifest_path | sub("/Cargo.toml$"; "")) \(.executable)"' |
  while read -r dir exe; do echo "$(stat -c %s "$exe") $dir $exe"; done |
  sort -rn | cut -d' ' -f2- >"$work/list"
# Each binary's tests, grouped by their first module (an area: `plants`, `gateways`, ...), each
# group a process of its own: one link per crate, but a test still cannot hold on to what an
# earlier area's tests left behind (a PostgreSQL connection of a store that is never dropped,
# which one long-lived process would pile up to the server's 100). Extra arguments filter by
# name, as with `cargo test`.
: >"$work/parts"
n=0
while read -r dir exe; do
  (cd "$dir" && "$exe" --list --format terse "$@") | sed -n 's/: test$//p' |
    awk -F'::' '{ print $1 "\t" $0 }' | sort -s -k1,1 >"$work/names"
  for area in $(cut -f1 "$work/names" | uniq); do
    n=$((n + 1))
    awk -F'\t' -v a="$area" '$1 == a { print $2 }' "$work/names" >"$work/part$n"
    echo "$dir $exe $n $area" >>"$work/parts"
  done
done <"$work/list"
# The longest parts of the last run first (target/rust-parts.txt), so that no long part starts
# near the end and holds the run while the other slots idle; parts not seen before go first.
if [ -s target/rust-parts.txt ]; then
  awk 'NR == FNR { last[$3 " " $4] = $1; next }
       { n = split($2, p, "/"); k = p[n] " " $4;
         print ((k in last) ? last[k] : 1000000) "\t" $0 }' \
    target/rust-parts.txt "$work/parts" | sort -t$'\t' -k1,1 -rn -s | cut -f2- >"$work/ordered"
  mv "$work/ordered" "$work/parts"
fi
echo "Rust tests: $(wc -l <"$work/list") binaries in $(wc -l <"$work/parts") parts, $jobs at a time, $RUST_TEST_THREADS tests each"

run_one() {
  local dir="$1" exe="$2" part="$3" area="$4" name started status=0 cpu
  name="$(basename "$exe") $area"
  started=$(date +%s)
  # shellcheck disable=SC2046 # one argument per test name
  (cd "$dir" && /usr/bin/time -f "%U %S" -o "$work/cpu$part" \
    "$exe" --exact $(cat "$work/part$part")) >"$work/log$part" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    echo "$name (${dir#"$PWD"/})" >>"$work/failed"
    echo "$dir $exe $part $area" >>"$work/failed_parts"
  fi
  cpu=$(awk 'END { printf "%d", $1 + $2 }' "$work/cpu$part" 2>/dev/null || echo 0)
  echo "$(($(date +%s) - started)) $cpu $name" >>"$work/times"
  flock "$work/print.lock" bash -c 'printf "\n# %s\n" "$1"; cat "$2"' _ \
    "$name (${dir#"$PWD"/}, $(($(date +%s) - started)) s, $cpu s CPU)" "$work/log$part"
}

# Each test's PostgreSQL database (about 10 MB) is dropped once its process has ended, beside
# the tests still running: dropping waits on a checkpoint, 0.13 s each, a minute for a run's
# 450 if left to the end.
(
  while [ ! -e "$work/done" ]; do
    harness/drop-test-databases.sh --dead
    sleep 5
  done
  harness/drop-test-databases.sh --dead
) &
reaper=$!

running=0
while read -r dir exe part area; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$dir" "$exe" "$part" "$area" &
  running=$((running + 1))
done <"$work/parts"
# (`wait` alone would wait for the reaper too, which ends only after this)
while [ "$running" -gt 0 ]; do
  wait -n || true
  running=$((running - 1))
done
# The parts share two cores and one PostgreSQL server (100 connections): a part that failed
# beside the others runs once more, alone, and counts as failed only if it fails again, as the
# browser journeys do (web/e2e/run.mjs); both outputs are printed.
if [ -s "$work/failed_parts" ]; then
  mv "$work/failed_parts" "$work/failed_first"
  : >"$work/failed"
  while read -r dir exe part area; do
    echo "# $(basename "$exe") $area failed beside other parts; running it again alone"
    run_one "$dir" "$exe" "$part" "$area"
  done <"$work/failed_first"
  if [ ! -s "$work/failed" ]; then
    echo "# these parts passed only when run alone:"
    awk '{ n = split($2, p, "/"); print "#   " p[n] " " $4 }' "$work/failed_first"
  fi
fi
# Each part's wall and CPU seconds, longest first (target/rust-parts.txt): a part that waits
# far longer than it computes holds one of the slots while the cores idle.
# (a run filtered by name keeps the last whole run's list, which orders the next run)
if [ "$#" -eq 0 ]; then sort -rn "$work/times" >target/rust-parts.txt; fi
touch "$work/done"
wait "$reaper"

cargo test --workspace --doc -- "$@" || echo "doc tests" >>"$work/failed"

if [ -s "$work/failed" ]; then
  echo "Rust tests FAILED:"
  cat "$work/failed"
  exit 1
fi
echo "Rust tests: all $(wc -l <"$work/parts") parts of $(wc -l <"$work/list") binaries passed"
