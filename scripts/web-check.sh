#!/usr/bin/env bash
# Checks the web app (clients/web) in a real browser: starts the built sgserver on 127.0.0.1 with a freshly seeded
# demo database and a Web Push key, and runs the browser tests of clients/web/tests (pytest, Playwright driving
# Debian's chromium, axe-core) against it. A failed test keeps its trace and screenshots under .build/web-check/.
# Ends with one line "N passed, M failed" (one check per test, and one for the server's health).
#
# Environment: SGSERVER (default .build/debug/sgserver), SGADMIN (default: sgadmin beside it), WEB_ROOT (serve the
# web app from that folder, --web-root, instead of the copy the binary embeds), WEB_SCREENSHOTS=1 (write the
# README's screenshots to docs/images/), CHROMIUM (default /usr/bin/chromium), WEB_CHECK_ARGS (more pytest
# arguments, e.g. "-k keyboard").
set -uo pipefail
cd "$(dirname "$0")/.."

sgserver=${SGSERVER:-.build/debug/sgserver}
sgadmin=${SGADMIN:-$(dirname "$sgserver")/sgadmin}
chromium=${CHROMIUM:-/usr/bin/chromium}
venv=.venv
artifacts=.build/web-check
passed=0
failed=0
pass() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAILED: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# A venv under the repository with the pinned tools (scripts/venv.sh): pytest, playwright, axe-playwright-python.
scripts/venv.sh || { fail "scripts/venv.sh (the pinned Python tools)"; finish; }
# Debian's chromium: Playwright's own browser downloads are not used.
if [ ! -x "$chromium" ]; then
    scripts/install-deps.sh chromium fonts-dejavu-core || { fail "installing chromium"; finish; }
fi
[ -x "$chromium" ] || { fail "$chromium is not there"; finish; }

work=$(mktemp -d)
server_pid=
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
    rm -rf "$work"
}
trap stop_server EXIT

[ -x "$sgserver" ] || { fail "$sgserver is not built (swift build --product sgserver)"; finish; }
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
server_args=(--host 127.0.0.1 --port "$port" --database "$work/demo.sqlite" --seed-demo --log-level error --writes-per-minute 1000000)
[ -n "${WEB_ROOT:-}" ] && server_args+=(--web-root "$WEB_ROOT")
# Web Push on, with a key of this run: the push test registers a browser and delivers a message to it.
server_env=()
if [ -x "$sgadmin" ] && "$sgadmin" push vapid-keys "$work/vapid.pem" >/dev/null 2>&1; then
    server_env=(SG_VAPID_PRIVATE_KEY_FILE="$work/vapid.pem" SG_VAPID_SUBJECT=mailto:web-check@example.com)
else
    echo "note: no $sgadmin to make a Web Push key: the push test is skipped"
fi
echo "== sgserver on $base (database $work/demo.sqlite, demo company${WEB_ROOT:+, web app from $WEB_ROOT})"
env "${server_env[@]}" "$sgserver" "${server_args[@]}" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    curl -fsS --max-time 2 "$base/v1/health" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.2
done
if ! curl -fsS --max-time 2 "$base/v1/health" >/dev/null 2>&1; then
    cat "$work/server.log"
    fail "sgserver did not start"
    finish
fi

rm -rf "$artifacts"
mkdir -p "$artifacts"
echo "== pytest clients/web/tests (chromium $("$chromium" --version 2>/dev/null | grep -oE '[0-9.]+' | head -1))"
# shellcheck disable=SC2086 # WEB_CHECK_ARGS is a list of arguments
SG_WEB_BASE_URL=$base SGSERVER=$sgserver SG_WEB_ROOT=${WEB_ROOT:-} SG_WEB_ARTIFACTS=$artifacts CHROMIUM=$chromium \
    SG_WEB_SCREENSHOTS=$([ "${WEB_SCREENSHOTS:-}" = 1 ] && echo docs/images) \
    PYTHONDONTWRITEBYTECODE=1 timeout 900 "$venv/bin/pytest" clients/web/tests -q -rfEs -p no:cacheprovider \
    --junitxml="$artifacts/junit.xml" ${WEB_CHECK_ARGS:-}
status=$?

# One check per test, from the report pytest wrote.
if [ -f "$artifacts/junit.xml" ]; then
    counts=$("$venv/bin/python" -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root if root.tag == "testsuite" else root.find("testsuite")
tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(tests - failures - errors - skipped, failures + errors, skipped)
' "$artifacts/junit.xml")
    read -r ok bad skipped <<<"$counts"
    passed=$((passed + ok))
    failed=$((failed + bad))
    [ "$skipped" -gt 0 ] && echo "($skipped skipped, see the reasons above)"
    [ "$bad" -gt 0 ] && echo "traces and screenshots of the failures: $artifacts/"
    [ "$status" -ne 0 ] && [ "$bad" -eq 0 ] && fail "pytest exited $status"
else
    fail "pytest wrote no report (exit $status)"
fi

if ! kill -0 "$server_pid" 2>/dev/null; then
    cat "$work/server.log"
    fail "sgserver died during the run"
elif grep -q "Unhandled error" "$work/server.log"; then
    grep "Unhandled error" "$work/server.log" | head -20
    fail "sgserver logged unhandled errors"
else
    pass "sgserver stayed up without unhandled errors"
fi
finish
