#!/usr/bin/env bash
# A Python virtual environment in target/smtp-venv with aiosmtpd (from PyPI), the real SMTP
# server the alarm e-mail tests deliver to. Made only when missing; prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="target/smtp-venv"
python="$PWD/$venv/bin/python"
if ! "$python" -c 'import aiosmtpd' >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$python" -m pip install --quiet --disable-pip-version-check 'aiosmtpd>=1.4,<2' >&2
fi
echo "$python"
