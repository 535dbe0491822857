#!/usr/bin/env bash
# make test-rust: the workspace's Rust tests, two test binaries at a time (RUST_TEST_JOBS), each
# running three tests at a time (RUST_TEST_THREADS). Each crate has one integration-test binary
# (tests/<crate>/main.rs) beside its unit tests; many tests spend their time waiting on timers
# (broker deadlines, command replies, crash recovery), so more tests than cores keeps both
# cores busy. The largest binaries start first, so the short ones fill in beside them. Each
# binary runs in its package's directory, as `cargo test` runs it, and its output is printed
# whole when it ends. Extra arguments go to every binary (a name filter).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="${RUST_TEST_JOBS:-2}"
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Builds every test target (the compiler's messages go to the terminal as usual) and lists
# "<package dir> <executable>" for each.
cargo test --workspace --no-run --message-format=json-render-diagnostics |
  jq -r 'select(.reason == "compiler-artifact" and .profile.test and .executable != null)
         | "\(.manifest_path | sub("/Cargo.toml$"; "")) \(.executable)"' |
  while read -r dir exe; do echo "$(stat -c %s "$exe") $dir $exe"; done |
  sort -rn | cut -d' ' -f2- >"$work/list"
echo "Rust tests: $(wc -l <"$work/list") binaries, $jobs at a time, $RUST_TEST_THREADS tests each"

run_one() {
  local dir="$1" exe="$2" name started status=0
  shift 2
  name="$(basename "$exe")"
  started=$(date +%s)
  (cd "$dir" && "$exe" "$@") >"$work/$name.log" 2>&1 || status=$?
  [ "$status" -eq 0 ] || echo "$name (${dir#"$PWD"/})" >>"$work/failed"
  flock "$work/print.lock" bash -c 'printf "\n# %s\n" "$1"; cat "$2"' _ \
    "$name (${dir#"$PWD"/}, $(($(date +%s) - started)) s)" "$work/$name.log"
}

running=0
while read -r dir exe; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$dir" "$exe" "$@" &
  running=$((running + 1))
done <"$work/list"
wait

cargo test --workspace --doc -- "$@" || echo "doc tests" >>"$work/failed"

if [ -s "$work/failed" ]; then
  echo "Rust tests FAILED:"
  cat "$work/failed"
  exit 1
fi
echo "Rust tests: all $(wc -l <"$work/list") binaries passed"
