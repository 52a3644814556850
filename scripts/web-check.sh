#!/usr/bin/env bash
# Checks the web app (clients/web) in a real browser: starts the built sgserver on 127.0.0.1 with a freshly seeded
# demo database and a Web Push key, and runs the browser tests of clients/web/tests (pytest, Playwright driving
# Debian's chromium, axe-core) against it. A failed test keeps its trace and screenshots under .build/web-check/.
# Ends with one line "N passed, M failed" (one check per test, and one for the server's health).
#
# A second server holds a synthetic company of 10,000 employees (sgbench seed, one of its admins given a password
# with sgadmin), for the test that the admin screens page through long lists instead of loading them.
#
# Environment: SGSERVER (default .build/debug/sgserver), SGADMIN (default: sgadmin beside it), SGBENCH (default:
# sgbench beside it; without it the 10,000-employee test is skipped), WEB_ROOT (serve the web app from that folder,
# --web-root, instead of the copy the binary embeds), WEB_SCREENSHOTS=1 (write the README's screenshots to
# docs/images/), CHROMIUM (default /usr/bin/chromium), WEB_CHECK_ARGS (more pytest arguments, e.g. "-k keyboard").
set -uo pipefail
cd "$(dirname "$0")/.."

sgserver=${SGSERVER:-.build/debug/sgserver}
sgadmin=${SGADMIN:-$(dirname "$sgserver")/sgadmin}
sgbench=${SGBENCH:-$(dirname "$sgserver")/sgbench}
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
big_pid=
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
    if [ -n "$big_pid" ]; then kill "$big_pid" 2>/dev/null; wait "$big_pid" 2>/dev/null; fi
    rm -rf "$work"
}
source scripts/lib/sgserver.sh
trap stop_server EXIT

[ -x "$sgserver" ] || { fail "$sgserver is not built (swift build --product sgserver)"; finish; }
port=$(free_port)
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
if ! wait_healthy "$base" "$server_pid"; then
    cat "$work/server.log"
    fail "sgserver did not start"
    finish
fi

# The synthetic company: 10,000 employees, one of whose admins logs in with a password of this run.
big_base=
big_admin=
big_password=
if [ -x "$sgbench" ] && [ -x "$sgadmin" ]; then
    big_password=$("$venv/bin/python" -c 'import secrets; print("big-" + secrets.token_urlsafe(12))')
    if "$sgbench" seed --database "$work/big.sqlite" --tokens "$work/big-tokens.tsv" --employees 10000 --requests 2000 --years 1 \
            >"$work/big-seed.log" 2>&1 \
        && big_admin=$(awk -F'\t' '$3 == 1 { print $2; exit }' "$work/big-tokens.tsv") && [ -n "$big_admin" ] \
        && printf '%s\n' "$big_password" | "$sgadmin" user password "$big_admin" --password-stdin --database "$work/big.sqlite" >>"$work/big-seed.log" 2>&1; then
        big_port=$(free_port)
        big_args=(--host 127.0.0.1 --port "$big_port" --database "$work/big.sqlite" --log-level error --writes-per-minute 1000000)
        [ -n "${WEB_ROOT:-}" ] && big_args+=(--web-root "$WEB_ROOT")
        "$sgserver" "${big_args[@]}" >"$work/big-server.log" 2>&1 &
        big_pid=$!
        if wait_healthy "http://127.0.0.1:$big_port" "$big_pid"; then
            big_base="http://127.0.0.1:$big_port"
            echo "== a second sgserver on $big_base (10,000 employees, sgbench seed; $big_admin logs in)"
        else
            cat "$work/big-server.log"
            fail "the second sgserver (10,000 employees) did not start"
        fi
    else
        cat "$work/big-seed.log"
        fail "seeding 10,000 employees with $sgbench"
    fi
else
    echo "note: no $sgbench (or $sgadmin) to seed 10,000 employees: that test is skipped"
fi

rm -rf "$artifacts"
mkdir -p "$artifacts"
echo "== pytest clients/web/tests (chromium $("$chromium" --version 2>/dev/null | grep -oE '[0-9.]+' | head -1))"
# shellcheck disable=SC2086 # WEB_CHECK_ARGS is a list of arguments
SG_WEB_BASE_URL=$base SG_WEB_BIG_URL=$big_base SG_WEB_BIG_ADMIN=$big_admin SG_WEB_BIG_PASSWORD=$big_password SGSERVER=$sgserver SG_WEB_ROOT=${WEB_ROOT:-} SG_WEB_ARTIFACTS=$artifacts CHROMIUM=$chromium \
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

check_server_health "$server_pid" "$work/server.log" sgserver && pass "sgserver stayed up without unhandled errors"
[ -n "$big_pid" ] && check_server_health "$big_pid" "$work/big-server.log" "the second sgserver (10,000 employees)"
finish
