#!/usr/bin/env bash
# The agent builds as a static x86_64 Linux binary (docs/agent.md, "Building"): no dynamic
# section, no interpreter, and it runs (`--version`, and `--check` refusing a bad config).
set -euo pipefail
cd "$(dirname "$0")/../.."
# `make test` proves the linking with a debug build (PROFILE=release for the binary to ship):
# the release build of the agent's dependencies for a second target would double CI's build.
target=x86_64-unknown-linux-gnu
profile="${PROFILE:-dev}"
dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
RUSTFLAGS="-C target-feature=+crt-static" cargo build --profile "$profile" -p agent --target "$target"
bin="target/$target/$dir/portal-agent"
info="$(file -L "$bin")"
echo "$info"
case "$info" in
  *"statically linked"*|*"static-pie linked"*) ;;
  *) echo "FAIL: $bin is not static" >&2; exit 1 ;;
esac
if ldd "$bin" 2>&1 | grep -q '=>'; then
  echo "FAIL: ldd lists shared libraries:" >&2; ldd "$bin" >&2; exit 1
fi
"$bin" --version
echo 'sn = 5' > "${TMPDIR:-/tmp}/agent-static-bad.toml"
if "$bin" --config "${TMPDIR:-/tmp}/agent-static-bad.toml" --check 2>/dev/null; then
  echo "FAIL: a bad config was accepted" >&2; exit 1
fi
ls -l "$bin"
echo "static.sh: ok ($(du -h "$bin" | cut -f1))"
