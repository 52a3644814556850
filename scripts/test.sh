#!/usr/bin/env bash
# Builds everything and runs every test; ends with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== swift build --build-tests (a first build takes 13 to 17 minutes on two cores)"
# Progress every tenth of the steps, with the time since the start; warnings, errors and the end as they come.
# SwiftPM counts the plugins' steps first ([1/1]), then the build's: a count that starts again starts the tenths again.
swift build --build-tests 2>&1 | tee "$log" | awk -v start="$(date +%s)" '
    match($0, /^\[[0-9]+\/[0-9]+\]/) {
        split(substr($0, 2, RLENGTH - 2), step, "/")
        if (step[2] != total) { if (step[1] * 10 < step[2]) shown = 0; total = step[2] }
        tenth = int(step[1] * 10 / step[2])
        if (tenth > shown) { shown = tenth; printf "build: step %d of %d, %d s\n", step[1], step[2], systime() - start; fflush() }
        next
    }
    /warning:|error:|Build complete/ { print; fflush() }' || true
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
started=$(date +%s)
since() { local s=$(( $(date +%s) - started )); printf "%d:%02d" $((s / 60)) $((s % 60)); }
logs=.build/test-logs
mkdir -p "$logs"

# One run of the test binary (what `swift test --skip-build` runs, called directly so that two runs can share the
# build: SwiftPM would lock it for each), with its log in $logs/NAME.log; prints the failures and one line
# "swift test LABEL: N passed, M failed". Swift Testing closes with "Test run with N tests in M suites ...".
run_tests() {
    local name=$1 label=$2
    shift 2
    local out=$logs/$name.log
    # Progress: every tenth suite done, and each failed suite as it fails. No "|| true" here: it would run after
    # a failing pipeline and reset PIPESTATUS to 0.
    "$@" env NO_COLOR=1 .build/debug/sgemployeePackageTests.xctest --testing-library swift-testing --no-parallel "${filter[@]}" 2>&1 |
        tee "$out" | awk -v label="$label" '
            /^✘ Suite/ { print "  " $0; fflush() }
            /^(✔|✘) Suite/ { if (++suites % 10 == 0) { print "  swift test" label ": " suites " suites done"; fflush() } }'
    local status=${PIPESTATUS[0]} total run_failed
    total=$(grep -oE "Test run with [0-9]+ test" "$out" | grep -oE "[0-9]+" | tail -1)
    # Failed tests, not the closing "✘ Test run with ... failed after", which the same pattern matches.
    run_failed=$(grep -E "^✘ Test .* failed after" "$out" | grep -cv "^✘ Test run with" || true)
    if [ "$status" -ne 0 ] && [ "$run_failed" -eq 0 ]; then run_failed=1; fi
    grep -E "^✘ Test .* (recorded an issue|failed after)" "$out" | cut -c1-400 | head -40 || true
    echo "swift test$label: $(( ${total:-0} - run_failed )) passed, $run_failed failed (log: $out)"
    return "$status"
}

# Adds a "N passed, M failed" line's counts to the total.
count() {
    local line=$1 status=$2 line_passed line_failed
    line_passed=$(echo "$line" | grep -oE "[0-9]+ passed" | grep -oE "[0-9]+")
    line_failed=$(echo "$line" | grep -oE "[0-9]+ failed" | grep -oE "[0-9]+")
    if [ "$status" -ne 0 ] && [ "${line_failed:-0}" -eq 0 ]; then line_failed=1; fi
    passed=$((passed + ${line_passed:-0}))
    failed=$((failed + ${line_failed:-0}))
    [ "$status" -eq 0 ] || all_ok=1
}

# The store and API suites on PostgreSQL, in the background: they wait on the database more than they compute,
# so they share the two cores with the SQLite run and the first checks instead of adding their time to the total.
echo "== swift test on PostgreSQL, in the background ($(since))"
filter=(--filter "SGStoreTests|SGAPITests")
run_tests postgres " on PostgreSQL" env SG_TEST_ENGINE=postgres >"$logs/postgres.summary" 2>&1 &
postgres_tests=$!

# Every suite, on SQLite, one test at a time: the outage tests measure their timeouts without other tests of the
# same run starving the scheduler.
echo "== swift test ($(since))"
filter=()
run_tests sqlite "" env | tee "$log"
count "$(tail -1 "$log")" "${PIPESTATUS[0]}"

# A check script ending with "N passed, M failed": its counts join the total; a failing exit with no failure
# counted counts as one.
check() {
    echo "== $* ($(since))"
    "$@" 2>&1 | tee "$log"
    count "$(tail -1 "$log")" "${PIPESTATUS[0]}"
}

# The HTTP contract: the spec validates and schemathesis finds nothing against a live server.
check scripts/api-check.sh
# SIGKILL under concurrent writes, restarted: no acknowledged write lost, sgadmin check clean.
check scripts/crash-check.sh
# PostgreSQL's schema means what SQLite's does, on a throwaway cluster (scripts/postgres.sh).
check scripts/schema-parity.py --cluster "$pgdir"
# The PostgreSQL run, once it ends.
wait "$postgres_tests"
postgres_status=$?
echo "== swift test on PostgreSQL ($(since))"
cat "$logs/postgres.summary"
count "$(tail -1 "$logs/postgres.summary")" "$postgres_status"
# Clients generated from the contract (Swift and Python) build and drive a live server.
check scripts/client-check.sh
# The web app in a real browser (Debian's chromium through Playwright, axe-core) against the built sgserver.
check scripts/web-check.sh
# The docs: every relative link and anchor resolves, and README and performance.md stay short enough to read.
check scripts/check-docs.py

echo "== done ($(since))"
echo "$passed passed, $failed failed"
[ "$all_ok" -eq 0 ]
