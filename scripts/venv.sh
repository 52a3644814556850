#!/usr/bin/env bash
# Creates .venv/ (git-ignored) under the repository with the Python tools pinned in scripts/requirements.txt, and
# reinstalls them when the pins change. Used by scripts/test.sh (before swift test: the delivery tests run
# aiosmtpd and a webhook receiver from it) and scripts/api-check.sh (schemathesis).
set -uo pipefail
cd "$(dirname "$0")/.."

requirements=scripts/requirements.txt
venv=.venv

if [ ! -x "$venv/bin/python" ]; then
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        scripts/install-deps.sh python3-venv
        /usr/bin/python3 -m venv "$venv" || { echo "error: python3 -m venv $venv failed" >&2; exit 1; }
    fi
fi
if ! cmp -s "$requirements" "$venv/requirements.installed"; then
    echo "== pip install -r $requirements"
    if "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"; then
        cp "$requirements" "$venv/requirements.installed"
    else
        echo "error: pip install -r $requirements failed" >&2
        exit 1
    fi
fi
