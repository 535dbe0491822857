#!/usr/bin/env bash
# Shows the store-write lint bites: crates/api/lint-probe built with `--features probe` holds one
# call of a store write method, and clippy, reading crates/api/clippy.toml as it does for the
# HTTP crate, must refuse it. A lint that passes here would pass any handler that writes past
# the use cases.
set -euo pipefail
cd "$(dirname "$0")/../.."

out="$(cargo clippy -q -p lint-probe --features probe -- -D warnings 2>&1)" && {
  echo "lint probe: clippy accepted a store write in crates/api (crates/api/clippy.toml lists none?)" >&2
  exit 1
}
if ! grep -q "disallowed_methods" <<<"$out" || ! grep -q "lint-probe/src/lib.rs" <<<"$out"; then
  echo "lint probe: clippy failed, but not on the probe's store write:" >&2
  echo "$out" >&2
  exit 1
fi
echo "lint probe: clippy refuses a store write in crates/api"
