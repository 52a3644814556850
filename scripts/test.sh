#!/usr/bin/env bash
# Builds everything and runs every test; ends with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== swift build --build-tests"
swift build --build-tests 2>&1 | tee "$log" | grep -E "warning:|error:|Compiling|Build complete" | grep -v "^\[" || true
if ! grep -q "Build complete" "$log"; then
    cat "$log" | tail -50
    echo "0 passed, 1 failed"
    exit 1
fi
# Our targets build with -warnings-as-errors; dependencies' warnings are theirs.
if grep -E "^/.*/(Sources|Tests|Migrations)/.*warning:" "$log" | grep -v "/.build/" ; then
    echo "error: warnings in our code"
    echo "0 passed, 1 failed"
    exit 1
fi

# The delivery tests run aiosmtpd and a webhook receiver from .venv/; without them they fail under CI=true.
echo "== scripts/venv.sh"
scripts/venv.sh || echo "warning: scripts/venv.sh failed; the delivery tests will say what is missing"

# PostgreSQL for the second engine's tests: a throwaway cluster on 127.0.0.1, stopped and removed at the end.
echo "== scripts/postgres.sh start"
pgdir=$(mktemp -d /tmp/sg-test-pg.XXXXXX)
trap 'scripts/postgres.sh stop "$pgdir" >/dev/null 2>&1; rm -rf "$pgdir" "$log"' EXIT
if scripts/postgres.sh start "$pgdir"; then
    eval "$(scripts/postgres.sh env "$pgdir" | sed 's/^/export /')"
else
    echo "warning: no PostgreSQL cluster; the PostgreSQL tests will say so"
fi

passed=0
failed=0
all_ok=0
# One `swift test` run: its counts join the total. Swift Testing closes with "Test run with N tests in M suites
# passed|failed ...".
run_tests() {
    local label=$1
    shift
    echo "== swift test$label"
    # No "|| true" here: it would run after a failing pipeline and reset PIPESTATUS to 0.
    "$@" swift test --skip-build --disable-xctest --no-parallel "${filter[@]}" 2>&1 | tee "$log" | grep -vE "^(◇|↳)|passed after"
    local status=${PIPESTATUS[0]} total run_failed
    total=$(grep -oE "Test run with [0-9]+ test" "$log" | grep -oE "[0-9]+" | tail -1)
    # Failed tests, not the closing "✘ Test run with ... failed after", which the same pattern matches.
    run_failed=$(grep -E "^✘ Test .* failed after" "$log" | grep -cv "^✘ Test run with" || true)
    if [ "$status" -ne 0 ] && [ "$run_failed" -eq 0 ]; then run_failed=1; fi
    grep -E "^✘" "$log" | head -50 || true
    echo "swift test$label: $(( ${total:-0} - run_failed )) passed, $run_failed failed"
    passed=$((passed + ${total:-0} - run_failed))
    failed=$((failed + run_failed))
    [ "$status" -eq 0 ] || all_ok=1
}

# Every suite, on SQLite. One test at a time: on two cores it is faster than in parallel, and the outage tests
# measure their timeouts without other tests starving the scheduler.
filter=()
run_tests "" env
# The store and API suites again, on PostgreSQL.
filter=(--filter "SGStoreTests|SGAPITests")
run_tests " on PostgreSQL" env SG_TEST_ENGINE=postgres

# A check script ending with "N passed, M failed": its counts join the total; a failing exit with no failure
# counted counts as one.
check() {
    echo "== $*"
    "$@" 2>&1 | tee "$log"
    local check_status=${PIPESTATUS[0]} check_passed check_failed
    check_passed=$(tail -1 "$log" | grep -oE "^[0-9]+ passed" | grep -oE "[0-9]+")
    check_failed=$(tail -1 "$log" | grep -oE "[0-9]+ failed" | grep -oE "[0-9]+")
    if [ "$check_status" -ne 0 ] && [ "${check_failed:-0}" -eq 0 ]; then check_failed=1; fi
    passed=$((passed + ${check_passed:-0}))
    failed=$((failed + ${check_failed:-0}))
    [ "$check_status" -eq 0 ] || all_ok=1
}

# The HTTP contract: the spec validates and schemathesis finds nothing against a live server.
check scripts/api-check.sh
# SIGKILL under concurrent writes, restarted: no acknowledged write lost, sgadmin check clean.
check scripts/crash-check.sh
# Clients generated from the contract (Swift and Python) build and drive a live server.
check scripts/client-check.sh
# PostgreSQL's schema means what SQLite's does, on a throwaway cluster (scripts/postgres.sh).
check scripts/schema-parity.py --cluster "$pgdir"
# The web app in a real browser (Debian's chromium through Playwright, axe-core) against the built sgserver.
check scripts/web-check.sh
# The docs: every relative link and anchor resolves, and README and performance.md stay short enough to read.
check scripts/check-docs.py

echo "$passed passed, $failed failed"
[ "$all_ok" -eq 0 ]
