#!/usr/bin/env bash
# A Python virtual environment in target/push-venv with http_ece, cryptography and PyJWT (from
# PyPI): an implementation of Web Push's encryption (RFC 8291) and of ES256 JWTs (RFC 8292's
# VAPID) that is not the portal's, with which the push tests decrypt and verify what the
# portal sends. Made only when missing; prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="target/push-venv"
python="$PWD/$venv/bin/python"
if ! "$python" -c 'import http_ece, jwt, cryptography' >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$python" -m pip install --quiet --disable-pip-version-check \
    'http_ece>=1.1,<2' 'cryptography>=41' 'PyJWT[crypto]>=2.6,<3' >&2
fi
echo "$python"
